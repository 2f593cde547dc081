public import Foundation

/// A company account (`empresa-<id>`): its registration (razão social, CNPJ, billing e-mail,
/// address), its people — members and managers — and the invitations its managers sent.
///
/// A person belongs to at most one company: that invariant lives in the person's own
/// ``Vinculo`` stream, appended with the company's in one write when an invitation is accepted.
/// The id is derived from the CNPJ (see the service), so one CNPJ is one account.
public enum Empresa {
    public typealias ID = Identifier<Empresa>

    public enum Papel: String, Codable, Sendable, CaseIterable {
        case membro
        /// Invites and removes people, changes roles, and (with subscriptions) books for them.
        case gestor
    }

    public struct Cadastro: Codable, Sendable, Equatable {
        public let razaoSocial: String
        public let nomeFantasia: String?
        public let cnpj: CNPJ
        public let emailDeCobranca: String
        public let endereco: Unidade.Endereco

        public init(razaoSocial: String, nomeFantasia: String?, cnpj: CNPJ, emailDeCobranca: String, endereco: Unidade.Endereco) {
            self.razaoSocial = razaoSocial
            self.nomeFantasia = nomeFantasia
            self.cnpj = cnpj
            self.emailDeCobranca = emailDeCobranca
            self.endereco = endereco
        }

        /// How people name it: the trade name, or the legal one.
        public var nome: String { nomeFantasia ?? razaoSocial }
    }

    public struct Integrante: Codable, Sendable, Equatable {
        public let usuarioId: String
        public var papel: Papel
        public let desde: Date

        public init(usuarioId: String, papel: Papel, desde: Date) {
            self.usuarioId = usuarioId
            self.papel = papel
            self.desde = desde
        }
    }

    /// An invitation not yet accepted, revoked or expired. `email` and `token` are sealed by the
    /// vault under the invitation's own key (`conviteId`); `tokenHash` (SHA-256, hex) is how an
    /// acceptance proves it holds the link.
    public struct Convite: Codable, Sendable, Equatable {
        public let conviteId: UUID
        public let email: String
        public let token: String
        public let tokenHash: String
        public let papel: Papel
        public let expiraEm: Date
        public let por: String
        public let em: Date

        public init(conviteId: UUID, email: String, token: String, tokenHash: String, papel: Papel, expiraEm: Date, por: String, em: Date) {
            self.conviteId = conviteId
            self.email = email
            self.token = token
            self.tokenHash = tokenHash
            self.papel = papel
            self.expiraEm = expiraEm
            self.por = por
            self.em = em
        }
    }

    public struct Dados: Sendable, Equatable {
        public let empresaId: UUID
        public var cadastro: Cadastro
        public var integrantes: [String: Integrante]
        public var convites: [UUID: Convite]
        /// People's monthly caps on the company's pooled credits (none: no cap).
        public var limites: [String: Carteira.Limite] = [:]
        public let criadaEm: Date

        public var gestores: [String] { integrantes.values.filter { $0.papel == .gestor }.map(\.usuarioId).sorted() }

        /// Whether `usuario` may manage the company (invite, remove, change roles).
        public func gere(_ usuario: String) -> Bool { integrantes[usuario]?.papel == .gestor }
    }

    public enum State: Sendable, Equatable {
        case inexistente
        case existente(Dados)

        public var dados: Dados? {
            guard case .existente(let dados) = self else { return nil }
            return dados
        }
    }

    public enum Command: Sendable, Equatable {
        /// An operator registers the company, with its first manager if one is named (who must
        /// not belong to another company: the service appends the person's ``Vinculo`` too).
        case cadastrar(empresaId: UUID, Cadastro, gestor: String?, por: String, em: Date)
        /// The CNPJ never changes (another CNPJ is another company).
        case atualizar(Cadastro, por: String, em: Date)
        case convidar(Convite)
        case revogarConvite(UUID, por: String, em: Date)
        /// The holder of the link (`tokenHash`) joins with the invitation's role.
        case aceitarConvite(tokenHash: String, usuario: String, em: Date)
        case definirPapel(usuario: String, Papel, por: String, em: Date)
        /// A manager removes someone, or a person leaves (`por` is themselves).
        case remover(usuario: String, por: String, em: Date)
        /// A person's monthly cap on the pooled credits (both nil: no cap).
        case definirLimite(usuario: String, Carteira.Limite, por: String, em: Date)
    }

    public enum Failure: Error, Equatable, Sendable {
        case jaExiste
        case naoEncontrada
        /// A registration field that is blank, too long or malformed (its name).
        case campoInvalido(String)
        case outroCNPJ
        case conviteNaoEncontrado
        case conviteExpirado
        case jaIntegrante
        case naoIntegrante
        /// The last manager cannot leave, be removed or become a member.
        case ultimoGestor
        /// Too many invitations waiting (``convitesPendentesMaximos``).
        case convitesDemais
        /// A cap below zero or above a lot's maximum (its measure).
        case limiteInvalido(Carteira.Medida)
    }

    /// The holder of a company's subscription and pooled credits: `empresa-<id>`.
    public static func titular(_ id: UUID) -> String { "\(prefixoDoTitular)\(id.lowercasedString)" }

    /// The company a holder names (nil: a member's id).
    public static func id(doTitular titular: String) -> UUID? {
        guard titular.hasPrefix(prefixoDoTitular) else { return nil }
        return UUID(text: String(titular.dropFirst(prefixoDoTitular.count)))
    }

    static let prefixoDoTitular = "empresa-"

    /// How long an invitation link works.
    public static let validadeDoConviteEmDias = 7
    public static let convitesPendentesMaximos = 200
    public static let tamanhoMaximoDoNome = 200
}

/// A person's company (`vinculo-<usuario>`): at most one at a time, so two acceptances of two
/// companies' invitations cannot both commit.
public enum Vinculo {
    public enum Command: Sendable, Equatable {
        case vincular(usuario: String, empresaId: UUID, em: Date)
        case desvincular(usuario: String, empresaId: UUID, em: Date)
    }

    public struct Criado: Codable, Sendable, Equatable {
        public let usuarioId: String
        public let empresaId: UUID
        public let em: Date
    }

    public struct Encerrado: Codable, Sendable, Equatable {
        public let usuarioId: String
        public let empresaId: UUID
        public let em: Date
    }

    public enum Failure: Error, Equatable, Sendable {
        /// Already in a company (its id).
        case outraEmpresa(UUID)
    }

    /// The company, if any.
    public typealias State = UUID?
}
