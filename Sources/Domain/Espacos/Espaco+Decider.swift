public import Foundation

extension Espaco {
    public enum Command: Sendable, Equatable {
        case cadastrar(
            id: ID, unidade: Unidade.ID, nome: String, tipo: Tipo, capacidade: Int, comodidades: [String],
            fotos: [Foto], regras: RegrasDeReserva, em: Date)
        /// nil leaves a field as it is; an update that changes nothing emits no event.
        case atualizar(nome: String?, capacidade: Int?, comodidades: [String]?, fotos: [Foto]?, regras: RegrasDeReserva?, em: Date)
        /// Replaces the whole weekly schedule; the same schedule again emits no event.
        case definirHorario(HorarioSemanal, em: Date)
        /// Scheduling the very same blackout again (same id, same fields) emits no event.
        case agendarBloqueio(Bloqueio, em: Date)
        case removerBloqueio(id: UUID, em: Date)
        /// Brings a block's end forward to `fim` (a lease ended early): after its start, before
        /// its end.
        case encurtarBloqueio(id: UUID, fim: Date, em: Date)
        case desativar(motivo: String?, em: Date)
        case reativar(em: Date)
    }

    public struct Dados: Sendable, Equatable {
        public var id: ID
        public var unidade: Unidade.ID
        public var nome: String
        public var tipo: Tipo
        public var capacidade: Int
        /// Trimmed, lower-case, no duplicates, in the order given.
        public var comodidades: [String]
        public var fotos: [Foto]
        public var regras: RegrasDeReserva
        public var horario: HorarioSemanal
        /// Sorted by start; never two that overlap.
        public var bloqueios: [Bloqueio]
        public var ativo: Bool
        public var cadastradoEm: Date

        public init(
            id: ID, unidade: Unidade.ID, nome: String, tipo: Tipo, capacidade: Int, comodidades: [String] = [],
            fotos: [Foto] = [], regras: RegrasDeReserva = .padrao, horario: HorarioSemanal = .padrao,
            bloqueios: [Bloqueio] = [], ativo: Bool = true, cadastradoEm: Date
        ) {
            self.id = id
            self.unidade = unidade
            self.nome = nome
            self.tipo = tipo
            self.capacidade = capacidade
            self.comodidades = comodidades
            self.fotos = fotos
            self.regras = regras
            self.horario = horario
            self.bloqueios = bloqueios
            self.ativo = ativo
            self.cadastradoEm = cadastradoEm
        }
    }

    public enum State: Sendable, Equatable {
        case inexistente
        case existente(Dados)
    }

    public enum Failure: Error, Equatable, Sendable {
        case jaCadastrado
        case naoEncontrado
        /// Blank, or longer than ``tamanhoMaximoDoNome``.
        case nomeInvalido
        /// Outside 1…``capacidadeMaxima``.
        case capacidadeInvalida
        /// Minimum length under 1 minute, maximum under the minimum, or a negative notice.
        case regrasInvalidas
        case horarioInvalido
        /// The space already has a blackout that shares some instant with this one (or one
        /// with the same id and different fields).
        case bloqueioSobreposto
        /// The blackout ends at or before the moment it is scheduled: it could block nothing.
        case bloqueioEncerrado
        case bloqueioNaoEncontrado
        /// A lease without a holder (or with both a member and a company), or a holder on a
        /// block that is not a lease.
        case locatarioInvalido
        /// A lease of a space type that is not let (``Bloqueio/tiposLocaveis``).
        case tipoNaoLocavel
        /// A new end not strictly between the block's start and its current end.
        case fimInvalido
        /// Removing a lease that began (it is ended early instead).
        case locacaoIniciada
        case jaDesativado
        case jaAtivo
        /// Blank, or longer than ``tamanhoMaximoDaComodidade``.
        case comodidadeInvalida
        /// The url does not start with `http://` or `https://`.
        case fotoInvalida
    }

    static func nomeValido(_ nome: String) throws(Failure) -> String {
        let trimmed = nome.trimmed
        guard !trimmed.isEmpty, TextoLivre.cabe(nome, maximo: tamanhoMaximoDoNome) else { throw .nomeInvalido }
        return trimmed
    }

    static func capacidadeValida(_ capacidade: Int) throws(Failure) -> Int {
        guard (1...capacidadeMaxima).contains(capacidade) else { throw .capacidadeInvalida }
        return capacidade
    }

    /// Trimmed, lower-cased, first occurrence kept.
    static func comodidadesValidas(_ comodidades: [String]) throws(Failure) -> [String] {
        guard comodidades.count <= maximoDeComodidades else { throw .comodidadeInvalida }
        var resultado: [String] = []
        var vistas: Set<String> = []
        for comodidade in comodidades {
            let normalizada = comodidade.trimmed.lowercased()
            guard !normalizada.isEmpty, TextoLivre.cabe(comodidade, maximo: tamanhoMaximoDaComodidade) else { throw .comodidadeInvalida }
            if vistas.insert(normalizada).inserted { resultado.append(normalizada) }
        }
        return resultado
    }

    /// Trimmed url and caption; a blank caption is nil.
    static func fotosValidas(_ fotos: [Foto]) throws(Failure) -> [Foto] {
        guard fotos.count <= maximoDeFotos else { throw .fotoInvalida }
        var resultado: [Foto] = []
        for foto in fotos {
            let url = foto.url.trimmed
            let minusculo = url.lowercased()
            guard let esquema = ["http://", "https://"].first(where: { minusculo.hasPrefix($0) }), url.count > esquema.count,
                TextoLivre.cabe(foto.url, maximo: tamanhoMaximoDaUrl), TextoLivre.cabe(foto.legenda ?? "", maximo: tamanhoMaximoDaLegenda)
            else { throw .fotoInvalida }
            resultado.append(Foto(url: url, legenda: foto.legenda?.trimmed.nilIfEmpty))
        }
        return resultado
    }

    static func regrasValidas(_ regras: RegrasDeReserva) throws(Failure) -> RegrasDeReserva {
        guard regras.validas else { throw .regrasInvalidas }
        return regras
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.cadastrar(let id, let unidade, let nome, let tipo, let capacidade, let comodidades, let fotos, let regras, let em), .inexistente):
                return [
                    .cadastrado(
                        Cadastrado(
                            espacoId: id, unidadeId: unidade, nome: try nomeValido(nome), tipo: tipo,
                            capacidade: try capacidadeValida(capacidade), comodidades: try comodidadesValidas(comodidades),
                            fotos: try fotosValidas(fotos), regras: try regrasValidas(regras), horario: .padrao, em: em))
                ]
            case (.cadastrar, .existente):
                throw .jaCadastrado
            case (_, .inexistente):
                throw .naoEncontrado

            case (.atualizar(let nome, let capacidade, let comodidades, let fotos, let regras, let em), .existente(let dados)):
                let novo = Atualizado(
                    espacoId: dados.id,
                    nome: try nome.map { (value) throws(Failure) in try nomeValido(value) } ?? dados.nome,
                    capacidade: try capacidade.map { (value) throws(Failure) in try capacidadeValida(value) } ?? dados.capacidade,
                    comodidades: try comodidades.map { (value) throws(Failure) in try comodidadesValidas(value) } ?? dados.comodidades,
                    fotos: try fotos.map { (value) throws(Failure) in try fotosValidas(value) } ?? dados.fotos,
                    regras: try regras.map { (value) throws(Failure) in try regrasValidas(value) } ?? dados.regras,
                    em: em)
                guard
                    novo.nome != dados.nome || novo.capacidade != dados.capacidade || novo.comodidades != dados.comodidades
                        || novo.fotos != dados.fotos || novo.regras != dados.regras
                else { return [] }
                return [.atualizado(novo)]

            case (.definirHorario(let horario, let em), .existente(let dados)):
                // Only the validating initialiser builds a schedule; this re-check guards the invariant.
                guard let valido = try? HorarioSemanal(horario.faixas), valido == horario else { throw .horarioInvalido }
                guard valido != dados.horario else { return [] }
                return [.horarioDefinido(HorarioDefinido(espacoId: dados.id, horario: valido, em: em))]

            case (.agendarBloqueio(let bloqueio, let em), .existente(let dados)):
                let normalizado = Bloqueio(
                    id: bloqueio.id, intervalo: bloqueio.intervalo, motivo: bloqueio.motivo,
                    descricao: bloqueio.descricao?.trimmed.nilIfEmpty, locatario: bloqueio.locatario)
                guard (bloqueio.motivo == .locacao) == (bloqueio.locatario != nil), bloqueio.locatario?.valido ?? true else {
                    throw .locatarioInvalido
                }
                guard bloqueio.motivo != .locacao || Bloqueio.tiposLocaveis.contains(dados.tipo) else { throw .tipoNaoLocavel }
                if let mesmo = dados.bloqueios.first(where: { $0.id == bloqueio.id }) {
                    guard mesmo == normalizado else { throw .bloqueioSobreposto }
                    return []
                }
                guard bloqueio.intervalo.end > em else { throw .bloqueioEncerrado }
                guard !dados.bloqueios.contains(where: { $0.intervalo.overlaps(bloqueio.intervalo) }) else {
                    throw .bloqueioSobreposto
                }
                return [.bloqueioAgendado(BloqueioAgendado(espacoId: dados.id, bloqueio: normalizado, em: em))]

            case (.removerBloqueio(let id, let em), .existente(let dados)):
                guard let bloqueio = dados.bloqueios.first(where: { $0.id == id }) else { throw .bloqueioNaoEncontrado }
                // A lease that began is part of the holder's record: it ends early, it is not erased.
                guard bloqueio.motivo != .locacao || bloqueio.intervalo.start > em else { throw .locacaoIniciada }
                return [.bloqueioRemovido(BloqueioRemovido(espacoId: dados.id, bloqueioId: id, locatario: bloqueio.locatario, em: em))]

            case (.encurtarBloqueio(let id, let fim, let em), .existente(let dados)):
                guard let bloqueio = dados.bloqueios.first(where: { $0.id == id }) else { throw .bloqueioNaoEncontrado }
                // The same end again (a retry of the request that set it) changes nothing.
                if fim == bloqueio.intervalo.end { return [] }
                guard fim > bloqueio.intervalo.start, fim < bloqueio.intervalo.end else { throw .fimInvalido }
                return [.bloqueioEncurtado(BloqueioEncurtado(espacoId: dados.id, bloqueioId: id, locatario: bloqueio.locatario, fim: fim, em: em))]

            case (.desativar(let motivo, let em), .existente(let dados)):
                guard dados.ativo else { throw .jaDesativado }
                return [.desativado(Desativado(espacoId: dados.id, motivo: motivo?.trimmed.nilIfEmpty, em: em))]

            case (.reativar(let em), .existente(let dados)):
                guard !dados.ativo else { throw .jaAtivo }
                return [.reativado(Reativado(espacoId: dados.id, em: em))]
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (_, .cadastrado(let e)):
                return .existente(
                    Dados(
                        id: e.espacoId, unidade: e.unidadeId, nome: e.nome, tipo: e.tipo, capacidade: e.capacidade,
                        comodidades: e.comodidades, fotos: e.fotos, regras: e.regras, horario: e.horario,
                        bloqueios: [], ativo: true, cadastradoEm: e.em))
            case (.existente(var dados), .atualizado(let e)):
                dados.nome = e.nome
                dados.capacidade = e.capacidade
                dados.comodidades = e.comodidades
                dados.fotos = e.fotos
                dados.regras = e.regras
                return .existente(dados)
            case (.existente(var dados), .horarioDefinido(let e)):
                dados.horario = e.horario
                return .existente(dados)
            case (.existente(var dados), .bloqueioAgendado(let e)):
                dados.bloqueios.append(e.bloqueio)
                dados.bloqueios.sort { $0.intervalo.start < $1.intervalo.start }
                return .existente(dados)
            case (.existente(var dados), .bloqueioRemovido(let e)):
                dados.bloqueios.removeAll { $0.id == e.bloqueioId }
                return .existente(dados)
            case (.existente(var dados), .bloqueioEncurtado(let e)):
                if let i = dados.bloqueios.firstIndex(where: { $0.id == e.bloqueioId }), let encurtado = dados.bloqueios[i].terminando(em: e.fim) {
                    dados.bloqueios[i] = encurtado
                }
                return .existente(dados)
            case (.existente(var dados), .desativado):
                dados.ativo = false
                return .existente(dados)
            case (.existente(var dados), .reativado):
                dados.ativo = true
                return .existente(dados)
            default:
                return state
            }
        }
    )
}
