import Crypto
public import Domain
public import EventStore
public import Foundation
public import Projections

extension StreamNames {
    /// A company account: `empresa-<id>`.
    public static func empresa(_ id: UUID) -> StreamName { StreamName(category: Empresa.Catalogo.category, id: id.lowercasedString) }
    /// A person's company: `vinculo-<usuario>`.
    public static func vinculo(_ usuario: String) -> StreamName { StreamName(category: Vinculo.Catalogo.category, id: usuario) }
}

extension AssinaturasService {
    /// A company as an operator registers (or a manager updates) it.
    public struct PedidoDeEmpresa: Decodable, Sendable {
        public let razaoSocial: String?
        public let nomeFantasia: String?
        public let cnpj: String?
        public let emailDeCobranca: String?
        public let endereco: Unidade.Endereco?
        /// The first manager (a member's id), on registration only.
        public let gestorId: String?
    }

    public struct PedidoDeConvite: Decodable, Sendable {
        public let email: String?
        /// `membro` (default) or `gestor`.
        public let papel: String?
    }

    public struct PedidoDePapel: Decodable, Sendable {
        public let papel: String?
    }

    /// A person's monthly cap on the pooled credits (absent or null: no cap of that measure).
    public struct PedidoDeLimite: Decodable, Sendable {
        public let minutosPorMes: Int64?
        public let centavosPorMes: Int64?
    }

    /// A company as the API shows it. `integrantes` and `convites` only to its managers and operators.
    public struct EmpresaView: Codable, Sendable {
        public struct IntegranteView: Codable, Sendable {
            public let usuarioId: String
            /// Nil when the account was erased.
            public let nome: String?
            public let papel: String
            public let desde: Date
            /// Their monthly cap on the pooled credits, when there is one.
            public let limite: Carteira.Limite?
        }

        public struct ConviteView: Codable, Sendable {
            public let conviteId: String
            /// Nil once erased.
            public let email: String?
            public let papel: String
            public let expiraEm: Date
            public let expirado: Bool
            public let por: String
            public let em: Date
        }

        public let empresaId: String
        public let nome: String
        public let razaoSocial: String
        public let nomeFantasia: String?
        public let cnpj: String
        public let emailDeCobranca: String
        public let endereco: Unidade.Endereco
        public let criadaEm: Date
        /// The caller's role (nil: an operator outside the company).
        public let meuPapel: String?
        public let integrantes: [IntegranteView]?
        public let convites: [ConviteView]?
    }

    /// An invitation as its holder sees it before accepting.
    public struct ConviteRecebido: Codable, Sendable {
        public let empresaId: String
        public let empresa: String
        public let papel: String
        public let expiraEm: Date
        public let expirado: Bool
        /// The caller is already in this company, or in another (its name).
        public let jaIntegrante: Bool
        public let outraEmpresa: String?
    }

    /// What a manager gets back from an invitation: the link is also e-mailed.
    public struct ConviteCriado: Codable, Sendable {
        public let conviteId: String
        public let email: String
        public let papel: String
        public let expiraEm: Date
        /// `/convite/<token>`: the web app's page that accepts it.
        public let link: String
    }

    var empresas: AggregateStore<Empresa.Command, Empresa.State, Empresa.Event, Empresa.Failure> {
        AggregateStore(store: store, decider: Empresa.decider) { try Empresa.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    var vinculos: AggregateStore<Vinculo.Command, Vinculo.State, Vinculo.Event, Vinculo.Failure> {
        AggregateStore(store: store, decider: Vinculo.decider) { try Vinculo.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    /// One CNPJ, one account: the id is derived from it.
    static func empresaId(_ cnpj: CNPJ) -> UUID { Events.derivedId("empresa", cnpj.rawValue) }

    static func cadastro(_ pedido: PedidoDeEmpresa, cnpj: CNPJ) throws -> Empresa.Cadastro {
        guard let razao = pedido.razaoSocial else { throw ServiceError.invalido("razaoSocial", "informe a razão social") }
        guard let email = pedido.emailDeCobranca else { throw ServiceError.invalido("emailDeCobranca", "informe o e-mail de cobrança") }
        guard let endereco = pedido.endereco else { throw ServiceError.invalido("endereco", "informe o endereço") }
        try ServiceError.texto(razao, campo: "razaoSocial", maximo: Empresa.tamanhoMaximoDoNome)
        try ServiceError.texto(pedido.nomeFantasia, campo: "nomeFantasia", maximo: Empresa.tamanhoMaximoDoNome)
        return Empresa.Cadastro(razaoSocial: razao, nomeFantasia: pedido.nomeFantasia, cnpj: cnpj, emailDeCobranca: email, endereco: endereco)
    }

    static func cnpj(_ texto: String?) throws -> CNPJ {
        guard let texto else { throw ServiceError.invalido("cnpj", "informe o CNPJ") }
        guard let cnpj = CNPJ(texto) else {
            throw ServiceError.invalido("cnpj", "CNPJ inválido: confira os 14 caracteres e os dígitos verificadores")
        }
        return cnpj
    }

    // MARK: Commands

    /// An operator registers a company (409 when its CNPJ has one), with its first manager.
    public func cadastrarEmpresa(_ pedido: PedidoDeEmpresa, caller: Caller) async throws -> EmpresaView {
        let cnpj = try Self.cnpj(pedido.cnpj)
        let cadastro = try Self.cadastro(pedido, cnpj: cnpj)
        var gestor: String?
        if let texto = pedido.gestorId {
            guard let id = Usuario.ID(texto), try await store.streamVersion(UsuariosService.stream(id)) > 0 else {
                throw ServiceError.invalido("gestorId", "não há membro com o id \(texto.prefix(60))")
            }
            gestor = id.description
        }
        let id = Self.empresaId(cnpj)
        let now = clock.now
        try await escrever(id, vinculo: gestor.map { ($0, .vincular(usuario: $0, empresaId: id, em: now)) }, caller: caller) { _ in
            .cadastrar(empresaId: id, cadastro, gestor: gestor, por: caller.usuario ?? "admin", em: now)
        }
        return try await empresa(id.uppercasedString, caller: caller)
    }

    /// An operator or a manager updates the registration (the CNPJ stays).
    public func atualizarEmpresa(_ id: String, _ pedido: PedidoDeEmpresa, caller: Caller) async throws -> EmpresaView {
        let dados = try await gestao(id, caller: caller)
        if let texto = pedido.cnpj, CNPJ(texto) != dados.cadastro.cnpj {
            throw ServiceError.invalido("cnpj", "o CNPJ não muda: outro CNPJ é outra empresa")
        }
        let cadastro = try Self.cadastro(pedido, cnpj: dados.cadastro.cnpj)
        let now = clock.now
        try await escrever(dados.empresaId, caller: caller) { _ in .atualizar(cadastro, por: caller.usuario ?? "admin", em: now) }
        return try await empresa(id, caller: caller)
    }

    /// A manager (or an operator) invites someone by e-mail: a link valid for
    /// ``Empresa/validadeDoConviteEmDias`` days, e-mailed by notificacoes and returned here.
    public func convidar(_ id: String, _ pedido: PedidoDeConvite, caller: Caller) async throws -> ConviteCriado {
        let dados = try await gestao(id, caller: caller)
        guard let texto = pedido.email else { throw ServiceError.invalido("email", "informe o e-mail de quem convidar") }
        guard EmailClaim.enderecoValido(texto) else { throw ServiceError.invalido("email", "e-mail inválido") }
        let email = EmailClaim.normalise(texto)
        let papel = try Self.papel(pedido.papel) ?? .membro
        guard let vault else { throw ServiceError.indisponivel("o cofre de dados pessoais não está configurado neste processo") }
        let conviteId = caller.idempotencyKey.map { Events.derivedId("convite", dados.empresaId, $0) } ?? EventIDs.random()
        // The company's id, then the secret: no dot, which a web server takes for a file's extension.
        let token = "\(dados.empresaId.lowercasedString)\(Self.aleatorio())"
        let now = clock.now
        let expiraEm = now.addingTimeInterval(TimeInterval(Empresa.validadeDoConviteEmDias * 86_400))
        let convite = Empresa.Convite(
            conviteId: conviteId, email: try await vault.seal(email, for: conviteId).rawValue,
            token: try await vault.seal(token, for: conviteId).rawValue,
            tokenHash: Self.hash(token), papel: papel, expiraEm: expiraEm, por: caller.usuario ?? "admin", em: now)
        let state = try await escrever(dados.empresaId, caller: caller) { _ in .convidar(convite) }
        // A retry with the same key finds the first attempt's invitation (and its link).
        let gravado = state.dados?.convites[conviteId] ?? convite
        let link = try await vault.open(SealedField(rawValue: gravado.token)).value ?? token
        return ConviteCriado(
            conviteId: conviteId.lowercasedString, email: email, papel: gravado.papel.rawValue, expiraEm: gravado.expiraEm,
            link: "/convite/\(link)")
    }

    public func revogarConvite(_ id: String, conviteId: String, caller: Caller) async throws -> EmpresaView {
        let dados = try await gestao(id, caller: caller)
        guard let convite = UUID(text: conviteId) else { throw ServiceError.naoEncontrado("o convite não existe") }
        let now = clock.now
        try await escrever(dados.empresaId, caller: caller) { _ in .revogarConvite(convite, por: caller.usuario ?? "admin", em: now) }
        // The invitation's e-mail and link are shredded with its key (best effort: it is spent anyway).
        _ = try? await vault?.erase(subject: convite)
        return try await empresa(id, caller: caller)
    }

    /// The invitation a link names, for its holder (404 for a link that names none).
    public func convite(_ token: String, caller: Caller) async throws -> ConviteRecebido {
        let usuario = try Self.autenticado(caller)
        let (dados, convite) = try await conviteDoLink(token)
        let vinculo = try await vinculos.load(StreamNames.vinculo(usuario)).state
        var outra: String?
        if let empresa = vinculo, empresa != dados.empresaId {
            outra = try await empresas.load(StreamNames.empresa(empresa)).state.dados?.cadastro.nome ?? "outra empresa"
        }
        return ConviteRecebido(
            empresaId: dados.empresaId.lowercasedString, empresa: dados.cadastro.nome, papel: convite.papel.rawValue,
            expiraEm: convite.expiraEm, expirado: convite.expiraEm <= clock.now, jaIntegrante: dados.integrantes[usuario] != nil, outraEmpresa: outra)
    }

    /// The link's holder joins the company: the company's and the person's streams in one append.
    public func aceitarConvite(_ token: String, caller: Caller) async throws -> EmpresaView {
        let usuario = try Self.autenticado(caller)
        let (dados, convite) = try await conviteDoLink(token)
        let now = clock.now
        try await escrever(dados.empresaId, vinculo: (usuario, .vincular(usuario: usuario, empresaId: dados.empresaId, em: now)), caller: caller) {
            _ in
            .aceitarConvite(tokenHash: Self.hash(token), usuario: usuario, em: now)
        }
        _ = try? await vault?.erase(subject: convite.conviteId)
        return try await empresa(dados.empresaId.uppercasedString, caller: caller)
    }

    public func definirPapel(_ id: String, usuario: String, _ pedido: PedidoDePapel, caller: Caller) async throws -> EmpresaView {
        let dados = try await gestao(id, caller: caller)
        guard let papel = try Self.papel(pedido.papel) else { throw ServiceError.invalido("papel", "informe o papel: membro ou gestor") }
        let now = clock.now
        try await escrever(dados.empresaId, caller: caller) { _ in .definirPapel(usuario: usuario, papel, por: caller.usuario ?? "admin", em: now) }
        return try await empresa(id, caller: caller)
    }

    public func definirLimite(_ id: String, usuario: String, _ pedido: PedidoDeLimite, caller: Caller) async throws -> EmpresaView {
        let dados = try await gestao(id, caller: caller)
        let limite = Carteira.Limite(minutosPorMes: pedido.minutosPorMes, centavosPorMes: pedido.centavosPorMes)
        let now = clock.now
        try await escrever(dados.empresaId, caller: caller) { _ in .definirLimite(usuario: usuario, limite, por: caller.usuario ?? "admin", em: now) }
        return try await empresa(id, caller: caller)
    }

    /// A manager or an operator removes someone; anyone may leave (`usuario` is themselves).
    public func removerIntegrante(_ id: String, usuario: String, caller: Caller) async throws {
        let eu = try Self.autenticado(caller)
        let dados: Empresa.Dados
        if usuario == eu, caller.papel != "admin" {
            dados = try await daEmpresa(id, caller: caller)
        } else {
            dados = try await gestao(id, caller: caller)
        }
        let now = clock.now
        try await escrever(dados.empresaId, vinculo: (usuario, .desvincular(usuario: usuario, empresaId: dados.empresaId, em: now)), caller: caller) {
            _ in
            .remover(usuario: usuario, por: eu, em: now)
        }
    }

    // MARK: Queries

    /// A company for its people (its managers and operators see its people and invitations);
    /// 404 for anyone else, as for a company that does not exist.
    public func empresa(_ id: String, caller: Caller) async throws -> EmpresaView {
        let dados = try await daEmpresa(id, caller: caller)
        let usuario = caller.usuario ?? ""
        let gere = caller.papel == "admin" || dados.gere(usuario)
        var integrantes: [EmpresaView.IntegranteView]?
        var convites: [EmpresaView.ConviteView]?
        if gere {
            var lista: [EmpresaView.IntegranteView] = []
            for integrante in dados.integrantes.values.sorted(by: {
                ($0.papel == .gestor ? 0 : 1, $0.desde) < ($1.papel == .gestor ? 0 : 1, $1.desde)
            }) {
                lista.append(
                    .init(
                        usuarioId: integrante.usuarioId, nome: try await nomeDoMembro(integrante.usuarioId), papel: integrante.papel.rawValue,
                        desde: integrante.desde, limite: dados.limites[integrante.usuarioId]))
            }
            integrantes = lista
            var pendentes: [EmpresaView.ConviteView] = []
            for convite in dados.convites.values.sorted(by: { $0.em > $1.em }) {
                let email = try await vault?.open(SealedField(rawValue: convite.email)).value
                pendentes.append(
                    .init(
                        conviteId: convite.conviteId.lowercasedString, email: email, papel: convite.papel.rawValue, expiraEm: convite.expiraEm,
                        expirado: convite.expiraEm <= clock.now, por: convite.por, em: convite.em))
            }
            convites = pendentes
        }
        return EmpresaView(
            empresaId: dados.empresaId.lowercasedString, nome: dados.cadastro.nome, razaoSocial: dados.cadastro.razaoSocial,
            nomeFantasia: dados.cadastro.nomeFantasia, cnpj: dados.cadastro.cnpj.formatado, emailDeCobranca: dados.cadastro.emailDeCobranca,
            endereco: dados.cadastro.endereco, criadaEm: dados.criadaEm, meuPapel: dados.integrantes[usuario]?.papel.rawValue,
            integrantes: integrantes, convites: convites)
    }

    /// The caller's company (nil: they are in none).
    public func minhaEmpresa(caller: Caller) async throws -> EmpresaView? {
        let usuario = try Self.autenticado(caller)
        guard let id = try await vinculos.load(StreamNames.vinculo(usuario)).state else { return nil }
        return try await empresa(id.uppercasedString, caller: Caller(requestId: caller.requestId, usuario: usuario, papel: "membro"))
    }

    /// Companies for operators, by name, 50 a page.
    public func empresas(pagina: Int) async throws -> Pagina<EmpresaResumoView> {
        guard pagina >= 1 else { throw ServiceError.requisicaoInvalida("'pagina' deve ser um número a partir de 1", detalhes: ["campo": "pagina"]) }
        let docs = try await store.documents(EmpresasReadModel.empresas, grupo: nil, limit: 50, offset: (pagina - 1) * 50)
        return Pagina(
            itens: try docs.map { try ReadModelJSON.decoder.decode(EmpresaResumoView.self, from: $0) },
            total: try await store.count(EmpresasReadModel.empresas, grupo: nil), pagina: pagina)
    }

    // MARK: Support

    static func autenticado(_ caller: Caller) throws -> String {
        guard let usuario = caller.usuario else { throw ServiceError.naoAutenticado }
        return usuario
    }

    static func papel(_ texto: String?) throws -> Empresa.Papel? {
        guard let texto else { return nil }
        guard let papel = Empresa.Papel(rawValue: texto) else { throw ServiceError.invalido("papel", "papel deve ser membro ou gestor") }
        return papel
    }

    /// 32 random bytes, base64url without padding.
    static func aleatorio() -> String {
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        return bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func hash(_ token: String) -> String { SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined() }

    /// The company `id` for one of its people or an operator; 404 otherwise (no telling apart).
    func daEmpresa(_ id: String, caller: Caller) async throws -> Empresa.Dados {
        guard let uuid = UUID(text: id), let dados = try await empresas.load(StreamNames.empresa(uuid)).state.dados,
            caller.papel == "admin" || dados.integrantes[caller.usuario ?? ""] != nil
        else { throw ServiceError.naoEncontrado("a empresa não existe") }
        return dados
    }

    /// The company `id` for its managers and operators: 403 for its members, 404 for others.
    func gestao(_ id: String, caller: Caller) async throws -> Empresa.Dados {
        let dados = try await daEmpresa(id, caller: caller)
        guard caller.papel == "admin" || dados.gere(caller.usuario ?? "") else {
            throw ServiceError.proibido("só os gestores da empresa podem fazer isto")
        }
        return dados
    }

    /// The company and pending invitation a link names; 404 when it names none.
    func conviteDoLink(_ token: String) async throws -> (Empresa.Dados, Empresa.Convite) {
        let hash = Self.hash(token)
        guard token.count > 36, let id = UUID(text: String(token.prefix(36))),
            let dados = try await empresas.load(StreamNames.empresa(id)).state.dados,
            let convite = dados.convites.values.first(where: { $0.tokenHash == hash })
        else { throw ServiceError.naoEncontrado("convite inválido, já usado ou revogado") }
        return (dados, convite)
    }

    /// Decides `command` on the company and, with it, the person's ``Vinculo`` (both with the
    /// versions read, one append); a concurrent writer makes it decide again.
    @discardableResult
    func escrever(
        _ empresaId: UUID, vinculo: (usuario: String, comando: Vinculo.Command)? = nil, caller: Caller,
        _ command: (Empresa.State) throws -> Empresa.Command
    ) async throws -> Empresa.State {
        let stream = StreamNames.empresa(empresaId)
        let meta = metadata(caller)
        for attempt in 1...5 {
            let (state, version) = try await empresas.load(stream)
            let events: [Empresa.Event]
            do { events = try Empresa.decider.decide(try command(state), state) } catch let failure as Empresa.Failure { throw ServiceError(failure) }
            guard !events.isEmpty else { return state }
            let now = clock.now
            var writes = [StreamWrite(stream: stream, expected: .after(version), events: try Events.new(events, at: now, metadata: meta))]
            if let vinculo {
                let vinculoStream = StreamNames.vinculo(vinculo.usuario)
                let (atual, versao) = try await vinculos.load(vinculoStream)
                let novos: [Vinculo.Event]
                do { novos = try Vinculo.decider.decide(vinculo.comando, atual) } catch { throw ServiceError(error) }
                if !novos.isEmpty {
                    writes.append(
                        StreamWrite(stream: vinculoStream, expected: .after(versao), events: try Events.new(novos, at: now, metadata: meta)))
                }
            }
            do {
                try await store.append(writes, receipt: caller.receipt)
                // A company's state is read by all its people, and a link by the person linked.
                caller.receipt?.markShared()
                return events.reduce(state, Empresa.decider.evolve)
            } catch is WrongExpectedVersion where attempt < 5 {
                continue
            }
        }
        throw ServiceError.conflito("conflito_de_versao", "a empresa mudou durante a operação; tente de novo")
    }
}

extension AssinaturasService {
    // MARK: The company's subscription

    /// A manager (or an operator) subscribes the company to a plan for `assentos` people
    /// (default: its people now): the fee and the credits are the plan's times the seats, the
    /// credits pooled in the company's wallet.
    public func assinarEmpresa(_ id: String, _ pedido: PedidoDeAssinatura, caller: Caller) async throws -> AssinaturaView {
        let dados = try await gestao(id, caller: caller)
        let assentos = pedido.assentos ?? max(1, dados.integrantes.count)
        return try await assinar(titular: Empresa.titular(dados.empresaId), pedido, assentos: assentos, caller: caller)
    }

    public func agirEmpresa(_ id: String, _ acao: Acao, caller: Caller) async throws -> AssinaturaView {
        let dados = try await gestao(id, caller: caller)
        return try await agir(titular: Empresa.titular(dados.empresaId), acao, caller: caller)
    }

    public func trocarPlanoDaEmpresa(_ id: String, _ pedido: PedidoDeTroca, caller: Caller) async throws -> AssinaturaView {
        let dados = try await gestao(id, caller: caller)
        return try await trocarPlano(titular: Empresa.titular(dados.empresaId), pedido, caller: caller)
    }

    public func alterarCobrancaDaEmpresa(_ id: String, _ pedido: PedidoDeCobranca, caller: Caller) async throws -> AssinaturaView {
        let dados = try await gestao(id, caller: caller)
        return try await alterarCobranca(titular: Empresa.titular(dados.empresaId), pedido, caller: caller)
    }

    /// An operator records that a company's cycle was paid outside the provider.
    public func registrarPagamentoDaEmpresa(_ id: String, ciclo: Int, caller: Caller) async throws -> AssinaturaView {
        let dados = try await daEmpresa(id, caller: caller)
        let now = clock.now
        return try await executar(Empresa.titular(dados.empresaId), caller: caller) { _ in
            .registrarPagamento(ciclo: ciclo, cobrancaId: nil, em: now)
        }
    }

    /// The company's subscription, for its people and operators (nil: it never subscribed; 404:
    /// no such company, or not theirs).
    public func assinaturaDaEmpresa(_ id: String, caller: Caller) async throws -> AssinaturaView? {
        let dados = try await daEmpresa(id, caller: caller)
        return try await assinatura(titular: Empresa.titular(dados.empresaId))
    }

    /// The company's pooled credits, for its people and operators.
    public func carteiraDaEmpresa(_ id: String, caller: Caller) async throws -> CarteiraView {
        let dados = try await daEmpresa(id, caller: caller)
        return try await carteira(titular: Empresa.titular(dados.empresaId))
    }
}

extension AssinaturasService {
    /// What each person spent of the company's pool in a month (net of what came back).
    public struct UsoDaEmpresa: Codable, Sendable {
        public struct Pessoa: Codable, Sendable {
            public let usuarioId: String
            public let nome: String?
            public let minutos: Int64
            public let centavos: Int64
            public let limite: Carteira.Limite?
        }

        public let mes: String
        /// Its managers and operators see everyone; a member, only themself.
        public let pessoas: [Pessoa]
    }

    /// The use of the company's pool in `mes` (`AAAA-MM`; the current month in São Paulo when absent).
    public func usoDaEmpresa(_ id: String, mes texto: String?, caller: Caller) async throws -> UsoDaEmpresa {
        let dados = try await daEmpresa(id, caller: caller)
        let mes: String
        if let texto {
            let partes = texto.split(separator: "-")
            guard partes.count == 2, partes[0].count == 4, let ano = Int(partes[0]), let numero = Int(partes[1]), (2000...2999).contains(ano),
                (1...12).contains(numero), partes[1].count == 2
            else { throw ServiceError.requisicaoInvalida("'mes' deve ser AAAA-MM", detalhes: ["campo": "mes"]) }
            mes = texto
        } else {
            let hoje = DataLocal(clock.now, em: Unidade.fuso(nil))
            mes = CalendarioAnalitico.mes(hoje)
        }
        let carteira = try await carteiras.load(StreamNames.creditos(Empresa.titular(dados.empresaId))).state
        let usuario = caller.usuario ?? ""
        let todos = caller.papel == "admin" || dados.gere(usuario)
        var pessoas: [UsoDaEmpresa.Pessoa] = []
        for pessoa in dados.integrantes.keys.sorted() where todos || pessoa == usuario {
            let uso = carteira.usoNoMes["\(pessoa)|\(mes)"] ?? (0, 0)
            pessoas.append(
                .init(
                    usuarioId: pessoa, nome: try await nomeDoMembro(pessoa), minutos: uso.minutos, centavos: uso.centavos,
                    limite: dados.limites[pessoa]))
        }
        return UsoDaEmpresa(mes: mes, pessoas: pessoas)
    }
}
