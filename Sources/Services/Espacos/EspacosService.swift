public import Domain
import EventStore
public import Foundation
public import Projections
import Synchronization

/// The espacos service: units and spaces (admin commands) and the catalog, detail and
/// availability queries, answered from the read models.
public final class EspacosService: Sendable {
    let store: any ServiceStore
    let clock: any WallClock

    public init(store: any ServiceStore, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    static let service = "espacos"

    var unidades: AggregateStore<Unidade.Command, Unidade.State, Unidade.Event, Unidade.Failure> {
        AggregateStore(store: store, decider: Unidade.decider) { try Unidade.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    var espacos: AggregateStore<Espaco.Command, Espaco.State, Espaco.Event, Espaco.Failure> {
        AggregateStore(store: store, decider: Espaco.decider) { try Espaco.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    func metadata(_ caller: Caller) -> EventMetadata {
        EventMetadata(actor: caller.usuario, requestId: caller.requestId, service: Self.service)
    }

    // MARK: Inputs

    public struct NovaUnidade: Decodable, Sendable {
        public let nome: String
        public let endereco: Unidade.Endereco
        /// IANA; America/Sao_Paulo when absent.
        public let fusoHorario: String?
        public let politicaDeCancelamento: Unidade.PoliticaDeCancelamento?
        /// ISS rate and check-in window; the defaults (5 %, 15 min before to 30 min after) when absent.
        public let operacao: Unidade.Operacao?
    }

    public struct AlteracaoDeUnidade: Decodable, Sendable {
        public let nome: String?
        public let endereco: Unidade.Endereco?
        public let fusoHorario: String?
        public let politicaDeCancelamento: Unidade.PoliticaDeCancelamento?
        public let operacao: Unidade.Operacao?
    }

    public struct NovoEspaco: Decodable, Sendable {
        public let unidadeId: String
        public let nome: String
        public let tipo: Espaco.Tipo
        public let capacidade: Int
        public let comodidades: [String]?
        public let fotos: [Espaco.Foto]?
        public let regras: Espaco.RegrasDeReserva?
        public let horario: Espaco.HorarioSemanal?
    }

    public struct AlteracaoDeEspaco: Decodable, Sendable {
        public let nome: String?
        public let capacidade: Int?
        public let comodidades: [String]?
        public let fotos: [Espaco.Foto]?
        public let regras: Espaco.RegrasDeReserva?
    }

    public struct NovoBloqueio: Decodable, Sendable {
        public let inicio: Date
        public let fim: Date
        public let motivo: Espaco.Bloqueio.Motivo
        public let descricao: String?
    }

    // MARK: Unit commands

    public func cadastrarUnidade(_ input: NovaUnidade, caller: Caller) async throws -> UnidadeView {
        // With an Idempotency-Key the id comes from it: a retry after an answer that left the
        // outcome unknown (a 5xx releases the key) finds the unit the first attempt made.
        let id = Unidade.ID(caller.idempotencyKey.map { Events.derivedId("unidade", $0) } ?? UUID())
        func cadastro(em: Date) -> Unidade.Command {
            .cadastrar(
                id: id, nome: input.nome, endereco: input.endereco, fusoHorario: input.fusoHorario ?? "America/Sao_Paulo",
                politica: input.politicaDeCancelamento ?? .padrao, operacao: input.operacao ?? .padrao, em: em)
        }
        if caller.idempotencyKey != nil {
            let stream = StreamNames.unidade(id)
            let anterior = try await unidades.load(stream).state
            if case .existente = anterior {
                // The same request again, or the key reused for another unit (its answer no
                // longer kept by the gateway): only the first gets the unit back.
                let primeiro = try await primeiroEvento(stream) { try Unidade.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
                guard let feito = primeiro, case .cadastrada(let dados) = feito,
                    feito == (try? Unidade.decider.decide(cadastro(em: dados.em), .inexistente))?.first
                else { throw Self.chaveReutilizada }
                return try Self.view(anterior)
            }
        }
        let state = try await unidades.handle(StreamNames.unidade(id), at: clock.now, metadata: metadata(caller), failure: ServiceError.init) { _ in
            cadastro(em: clock.now)
        }
        return try Self.view(state)
    }

    public static let chaveReutilizada = ServiceError(
        .invalido, codigo: "chave_de_idempotencia_reutilizada", mensagem: "esta Idempotency-Key já foi usada com outra requisição")

    /// The first event of `stream`, decoded (nil when the stream is empty).
    private func primeiroEvento<E>(_ stream: StreamName, _ decode: (RecordedEvent) throws -> E?) async throws -> E? {
        guard let evento = try await store.readStream(stream, from: 1, limit: 1).first else { return nil }
        return try decode(evento)
    }

    public func atualizarUnidade(_ id: String, _ input: AlteracaoDeUnidade, caller: Caller) async throws -> UnidadeView {
        let id = try Self.unidadeId(id)
        let stream = StreamNames.unidade(id)
        _ = try await unidades.existing(stream, naoEncontrado: "unidade \(id) não existe")
        let state = try await unidades.handle(stream, at: clock.now, metadata: metadata(caller), failure: ServiceError.init) { _ in
            .atualizar(nome: input.nome, endereco: input.endereco, fusoHorario: input.fusoHorario, politica: input.politicaDeCancelamento,
                       operacao: input.operacao, em: clock.now)
        }
        return try Self.view(state)
    }

    // MARK: Space commands

    public func cadastrarEspaco(_ input: NovoEspaco, caller: Caller) async throws -> EspacoView {
        let unidade = try Self.unidadeId(input.unidadeId, campo: "unidadeId")
        guard case .existente = try await unidades.load(StreamNames.unidade(unidade)).state else {
            throw ServiceError.invalido("unidadeId", "a unidade \(unidade) não existe")
        }
        // With an Idempotency-Key the id comes from it (see ``cadastrarUnidade(_:caller:)``).
        let id = Espaco.ID(caller.idempotencyKey.map { Events.derivedId("espaco", $0) } ?? UUID())
        let stream = StreamNames.espaco(id)
        let now = clock.now
        func cadastro(em: Date) -> Espaco.Command {
            .cadastrar(
                id: id, unidade: unidade, nome: input.nome, tipo: input.tipo, capacidade: input.capacidade,
                comodidades: input.comodidades ?? [], fotos: input.fotos ?? [], regras: input.regras ?? .padrao, em: em)
        }
        // (Read first only with a key: without one the id is new.)
        var (state, version): (Espaco.State, Int64) = caller.idempotencyKey == nil ? (.inexistente, 0) : try await espacos.load(stream)
        if state == .inexistente {
            state = try await espacos.handle(stream, at: now, metadata: metadata(caller), failure: ServiceError.init) { _ in
                cadastro(em: now)
            }
        } else {
            // The same request again (see ``cadastrarUnidade(_:caller:)``), or the key reused.
            let primeiro = try await primeiroEvento(stream) { try Espaco.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
            guard let feito = primeiro, case .cadastrado(let dados) = feito,
                feito == (try? Espaco.decider.decide(cadastro(em: dados.em), .inexistente))?.first
            else { throw Self.chaveReutilizada }
            // Its hours were set already, or the space has changed since: nothing to redo.
            guard version == 1 else { return try Self.view(state) }
        }
        if let horario = input.horario {
            state = try await espacos.handle(stream, at: now, metadata: metadata(caller), failure: ServiceError.init) { _ in
                .definirHorario(horario, em: now)
            }
        }
        return try Self.view(state)
    }

    /// Changes a space's details. A change of a shared space's capacity is written, in the same
    /// append, to the agenda of every local day a booking could still take (from today to the
    /// longest booking that may start within the lead time), with the versions read and the
    /// space's version with the change: so a booking decided on the old capacity and the change
    /// cannot both commit (``Agenda``). A decrease cannot go below the seats a day's bookings
    /// (held or confirmed) take at once from now on: 409 `capacidade_abaixo_das_reservas` naming
    /// the days; the operator cancels or moves bookings first. Days beyond that reach (booked
    /// under a longer lead time) are checked on the occupancy read model. A raise is never refused.
    public func atualizarEspaco(_ id: String, _ input: AlteracaoDeEspaco, caller: Caller) async throws -> EspacoView {
        let command: (Date) -> Espaco.Command = { now in
            .atualizar(nome: input.nome, capacidade: input.capacidade, comodidades: input.comodidades, fotos: input.fotos, regras: input.regras, em: now)
        }
        guard let capacidade = input.capacidade, capacidade >= 1,
              case .existente(let dados) = try await espacos.load(StreamNames.espaco(try Self.espacoId(id))).state,
              dados.tipo.compartilhado, capacidade != dados.capacidade
        else { return try await espaco(id, caller, command) }
        let recusa = { (dias: [DataLocal], pico: Int?) in
            ServiceError(
                .conflito, codigo: "capacidade_abaixo_das_reservas",
                mensagem: "há reservas que ocupam \(pico.map(String.init) ?? "mais") lugares ao mesmo tempo em \(dias.count) dia(s) "
                    + "(o primeiro: \(dias[0])), mais que \(capacidade); cancele ou mude essas reservas antes de reduzir a capacidade",
                detalhes: ["dias": dias.prefix(20).map(\.description).joined(separator: ",")])
        }
        // Days beyond what a booking could take now can hold bookings made under a longer lead
        // time: those come from the occupancy read model (nothing can race them any more).
        if capacidade < dados.capacidade {
            let dias = try await diasAcima(de: capacidade, espaco: dados)
            if !dias.isEmpty { throw recusa(dias, nil) }
        }
        return try await comAgendas(id, caller, intervalo: { dados, now in
            guard dados.tipo.compartilhado, capacidade != dados.capacidade else { return nil }
            // Far enough for the old rules and the new: a booking may start up to the lead time
            // ahead and last up to the longest duration.
            let regras = [dados.regras] + (input.regras.map { [$0] } ?? [])
            let dias = regras.map(\.antecedenciaMaximaDias).max() ?? 0
            let minutos = regras.map(\.duracaoMaximaMinutos).max() ?? 0
            return try? TimeRange(start: now, end: now.addingTimeInterval(Double(max(dias, 0)) * 86_400 + Double(max(minutos, 0)) * 60 + 1))
        }, recusa: { recusados in
            recusa(recusados.map(\.dia).sorted(), recusados.compactMap { if case .capacidadeExcedida(let pico) = $0.falha { pico } else { nil } }.max())
        }, espaco: command, agenda: { now, dados, revisao in
            .definirCapacidade(capacidade: capacidade, anterior: dados.capacidade, revisao: revisao, desde: now, em: now)
        })
    }

    /// The local days, from today on, when the space's active bookings take more than
    /// `lugares` seats at some instant.
    private func diasAcima(de lugares: Int, espaco: Espaco.Dados) async throws -> [DataLocal] {
        guard case .existente(let unidade) = try await unidades.load(StreamNames.unidade(espaco.unidade)).state else { return [] }
        let agora = clock.now
        let hoje = DataLocal(agora, em: unidade.fuso)
        var dias: [DataLocal] = []
        try await paraCadaOcupacao(de: espaco.id) { ocupacao in
            guard !(ocupacao.data < hoje) else { return }
            // Today counts from now on: bookings that already ended hold no seat.
            guard var dia = ocupacao.data.intervalo(em: unidade.fuso) else { return }
            if ocupacao.data == hoje {
                guard let resto = try? TimeRange(start: max(dia.start, agora), end: dia.end) else { return }
                dia = resto
            }
            if Agenda.picoDeOcupacao(em: dia, ocupacoes: ocupacao.reservas.values) > lugares {
                dias.append(ocupacao.data)
            }
        }
        return dias.sorted()
    }

    /// New opening hours: 409 `horario_sobre_reservas` while a booking still to come (held or
    /// confirmed, not over) would fall outside them; its members would arrive at a closed
    /// space. (A booking made in the same instant can still pass, as with blocks.)
    public func definirHorario(_ id: String, _ horario: Espaco.HorarioSemanal, caller: Caller) async throws -> EspacoView {
        try await espaco(id, caller, verificar: { dados, fuso, reservas in
            var novo = dados
            novo.horario = horario
            novo.ativo = true
            let fora = reservas.filter { !novo.permite($0.intervalo, fuso: fuso) }.map(\.id)
            guard fora.isEmpty else {
                throw Self.sobreReservas(
                    fora, codigo: "horario_sobre_reservas", acao: ("ficaria fora do novo horário", "ficariam fora do novo horário"),
                    saida: "ajuste o horário")
            }
        }) { now in .definirHorario(horario, em: now) }
    }

    /// 409 naming (up to 20 of) the bookings that stand in the way of a change of the space.
    /// - Parameter acao: what the bookings do, for one and for several.
    static func sobreReservas(_ ids: [String], codigo: String, acao: (uma: String, varias: String), saida: String) -> ServiceError {
        let unicos = Array(Set(ids)).sorted()
        return ServiceError(
            .conflito, codigo: codigo,
            mensagem: unicos.count == 1
                ? "1 reserva ativa \(acao.uma); cancele-a ou \(saida)"
                : "\(unicos.count) reservas ativas \(acao.varias); cancele-as ou \(saida)",
            detalhes: ["reservas": unicos.prefix(20).joined(separator: ",")])
    }

    /// The space's bookings that hold time (held or confirmed) and end after `agora`, from the
    /// occupancy read model, each once.
    private func reservasPorVir(_ espaco: Espaco.ID, agora: Date) async throws -> [(id: String, intervalo: TimeRange)] {
        var vistas: [String: TimeRange] = [:]
        try await paraCadaOcupacao(de: espaco) { ocupacao in
            for (id, intervalo) in ocupacao.reservas where intervalo.end > agora {
                // A booking over several days is in each day's document: its whole span.
                vistas[id] = vistas[id].flatMap { try? TimeRange(start: min($0.start, intervalo.start), end: max($0.end, intervalo.end)) } ?? intervalo
            }
        }
        return vistas.map { ($0.key, $0.value) }
    }

    /// Every document of the space's occupancy read model (one per local day booked), in pages.
    private func paraCadaOcupacao(de espaco: Espaco.ID, _ body: (OcupacaoView) throws -> Void) async throws {
        var offset = 0
        let lote = 500
        while true {
            let docs = try await store.documents(ReservasReadModel.ocupacao, grupo: espaco.description, limit: lote, offset: offset)
            for doc in docs { try body(try ReadModelJSON.decoder.decode(OcupacaoView.self, from: doc)) }
            guard docs.count == lote else { return }
            offset += lote
        }
    }

    /// A block's interval: it ends after it starts and lasts at most a year (to close a space
    /// for longer, deactivate it).
    public static func intervalo(de input: NovoBloqueio) throws -> TimeRange {
        guard let intervalo = try? TimeRange(start: input.inicio, end: input.fim) else {
            throw ServiceError.invalido("fim", "o bloqueio precisa terminar depois de começar")
        }
        guard intervalo.duration <= 366 * 86_400 else {
            throw ServiceError.invalido("fim", "um bloqueio pode durar no máximo um ano; para fechar o espaço por mais tempo, desative-o")
        }
        return intervalo
    }

    /// Blocks the space for `input`'s interval: 409 `bloqueio_sobre_reservas` while bookings
    /// (held or confirmed) hold part of it; the operator cancels them (with their refunds and
    /// e-mails) or moves the block, instead of members arriving to a closed room.
    public func agendarBloqueio(_ id: String, _ input: NovoBloqueio, caller: Caller) async throws -> EspacoView {
        let intervalo = try Self.intervalo(de: input)
        try ServiceError.texto(input.descricao, campo: "descricao", maximo: 500)
        let bloqueio = Espaco.Bloqueio(id: UUID(), intervalo: intervalo, motivo: input.motivo, descricao: input.descricao)
        return try await comAgendas(
            id, caller, intervalo: { _, _ in intervalo }, espaco: { now in .agendarBloqueio(bloqueio, em: now) },
            agenda: { now, _, _ in .bloquear(bloqueio: bloqueio.id, intervalo: intervalo, em: now) })
    }

    public func removerBloqueio(_ id: String, bloqueio: String, caller: Caller) async throws -> EspacoView {
        guard let bloqueioId = UUID(uuidString: bloqueio) else { throw ServiceError.naoEncontrado("bloqueio \(bloqueio) não existe") }
        return try await comAgendas(
            id, caller, intervalo: { dados, _ in dados.bloqueios.first { $0.id == bloqueioId }?.intervalo },
            espaco: { now in .removerBloqueio(id: bloqueioId, em: now) }, agenda: { now, _, _ in .desbloquear(bloqueio: bloqueioId, em: now) })
    }

    /// Decides `command` on the space and, in the same append, its agenda counterpart on every
    /// local day of `intervalo` (each agenda stream with the version read): a block, or a change
    /// of capacity, and a booking decided at the same instant cannot both commit (see
    /// ``Agenda``). `intervalo` is nil when the space's decider will refuse the command anyway.
    /// Days whose agenda refuses its part are given to `recusa`, which says why (a 409).
    private func comAgendas(
        _ id: String, _ caller: Caller, intervalo: (Espaco.Dados, Date) -> TimeRange?,
        recusa: ([(dia: DataLocal, falha: Agenda.Failure)]) -> ServiceError = EspacosService.bloqueioSobreReservas,
        espaco doEspaco: (_ now: Date) -> Espaco.Command,
        agenda daAgenda: (_ now: Date, _ dados: Espaco.Dados, _ revisao: Int64) -> Agenda.Command
    ) async throws -> EspacoView {
        let id = try Self.espacoId(id)
        let stream = StreamNames.espaco(id)
        let meta = metadata(caller)
        // The days read, kept across attempts: after a refused append only the stream that
        // moved is read again (a change over a thousand days must not read them all again
        // each time a booking lands on one).
        var lidos: [DataLocal: (state: Agenda.State, version: Int64)] = [:]
        for _ in 1...20 {
            let (state, version) = try await espacos.load(stream)
            guard version > 0, case .existente(let dados) = state else { throw ServiceError.naoEncontrado("espaço \(id) não existe") }
            let now = clock.now
            let events: [Espaco.Event]
            do {
                events = try espacos.decider.decide(doEspaco(now), state)
            } catch {
                throw ServiceError(error)
            }
            guard !events.isEmpty else { return try Self.view(state) }
            // The agenda's part, with the space as read and its version after this change.
            let paraAgenda = daAgenda(now, dados, version + Int64(events.count))
            var writes = [StreamWrite(stream: stream, expected: .after(version), events: try Events.new(events, at: now, metadata: meta))]
            var dias: [StreamName: DataLocal] = [:]
            if let intervalo = intervalo(dados, now) {
                guard case .existente(let unidade) = try await unidades.load(StreamNames.unidade(dados.unidade)).state else {
                    throw ServiceError.naoEncontrado("a unidade \(dados.unidade) do espaço não existe")
                }
                var recusados: [(dia: DataLocal, falha: Agenda.Failure)] = []
                // The days are read 16 at a time: a year-long block reads 367 streams, and the
                // shorter the reading, the less likely a booking lands in between.
                let todos = DataLocal.dias(de: intervalo, em: unidade.fuso)
                let faltam = todos.filter { lidos[$0] == nil }
                for inicio in stride(from: 0, to: faltam.count, by: 16) {
                    try await withThrowingTaskGroup(of: (DataLocal, Agenda.State, Int64).self) { group in
                        for dia in faltam[inicio..<min(inicio + 16, faltam.count)] {
                            group.addTask { [store] in
                                let agenda = AggregateStore(store: store, decider: Agenda.decider(espacoId: id.rawValue, data: dia)) {
                                    try Agenda.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
                                }
                                let (state, version) = try await agenda.load(StreamNames.agenda(id.rawValue, dia))
                                return (dia, state, version)
                            }
                        }
                        for try await (dia, state, version) in group { lidos[dia] = (state, version) }
                    }
                }
                for dia in todos {
                    guard let (estado, versao) = lidos[dia] else { continue }
                    let agendaStream = StreamNames.agenda(id.rawValue, dia)
                    dias[agendaStream] = dia
                    let decididos: [Agenda.Event]
                    do {
                        decididos = try Agenda.decider(espacoId: id.rawValue, data: dia).decide(paraAgenda, estado)
                    } catch {
                        recusados.append((dia, error))
                        continue
                    }
                    if !decididos.isEmpty {
                        writes.append(StreamWrite(stream: agendaStream, expected: .after(versao), events: try Events.new(decididos, at: now, metadata: meta)))
                    }
                }
                if !recusados.isEmpty { throw recusa(recusados) }
            }
            do {
                try await store.append(writes)
                return try Self.view(events.reduce(state, espacos.decider.evolve))
            } catch let conflict as WrongExpectedVersion {
                // A booking (or another change of the space) came first: read what moved, decide again.
                if let dia = dias[conflict.stream] { lidos[dia] = nil } else { lidos.removeAll() }
            }
        }
        throw ServiceError.conflito("conflito_de_versao", "o espaço mudou durante a operação; tente de novo")
    }

    /// A block refused by the bookings on its days (a block refuses no booking here: only
    /// bookings refuse a block).
    static func bloqueioSobreReservas(_ recusados: [(dia: DataLocal, falha: Agenda.Failure)]) -> ServiceError {
        var reservas: Set<UUID> = []
        for (_, falha) in recusados { if case .indisponivel(let conflitos) = falha { reservas.formUnion(conflitos) } }
        return ServiceError(
            .conflito, codigo: "bloqueio_sobre_reservas",
            mensagem: reservas.count == 1
                ? "1 reserva ocupa parte deste intervalo; cancele-a ou escolha outro intervalo para o bloqueio"
                : "\(reservas.count) reservas ocupam parte deste intervalo; cancele-as ou escolha outro intervalo para o bloqueio",
            detalhes: ["reservas": reservas.sorted { $0.uuidString < $1.uuidString }.prefix(20).map { $0.uuidString.lowercased() }.joined(separator: ",")])
    }

    /// Deactivates the space: 409 `espaco_com_reservas` while bookings still to come hold it
    /// (cancel them first, refunded, as for a block); members would arrive at a closed space.
    public func desativar(_ id: String, motivo: String?, caller: Caller) async throws -> EspacoView {
        try ServiceError.texto(motivo, campo: "motivo", maximo: 500)
        return try await espaco(id, caller, verificar: { dados, _, reservas in
            guard dados.ativo, !reservas.isEmpty else { return }
            throw Self.sobreReservas(
                reservas.map(\.id), codigo: "espaco_com_reservas", acao: ("termina depois de agora", "terminam depois de agora"),
                saida: "espere que terminem para desativar o espaço")
        }) { now in .desativar(motivo: motivo, em: now) }
    }

    public func reativar(_ id: String, caller: Caller) async throws -> EspacoView {
        try await espaco(id, caller) { now in .reativar(em: now) }
    }

    private func espaco(
        _ id: String, _ caller: Caller,
        verificar: ((Espaco.Dados, TimeZone, [(id: String, intervalo: TimeRange)]) throws -> Void)? = nil,
        _ command: @escaping (Date) -> Espaco.Command
    ) async throws -> EspacoView {
        let id = try Self.espacoId(id)
        let stream = StreamNames.espaco(id)
        let estado = try await espacos.existing(stream, naoEncontrado: "espaço \(id) não existe")
        let now = clock.now
        if let verificar, case .existente(let dados) = estado,
            case .existente(let unidade) = try await unidades.load(StreamNames.unidade(dados.unidade)).state {
            let reservas = try await reservasPorVir(id, agora: now)
            try verificar(dados, unidade.fuso, reservas)
        }
        return try Self.view(try await espacos.handle(stream, at: now, metadata: metadata(caller), failure: ServiceError.init) { _ in command(now) })
    }

    // MARK: Queries (read models)

    public struct Filtro: Sendable {
        public var unidade: String?
        public var tipo: Espaco.Tipo?
        public var capacidadeMinima: Int?
        public var comodidade: String?
        public var incluirInativos = false

        public init(unidade: String? = nil, tipo: Espaco.Tipo? = nil, capacidadeMinima: Int? = nil, comodidade: String? = nil, incluirInativos: Bool = false) {
            self.unidade = unidade
            self.tipo = tipo
            self.capacidadeMinima = capacidadeMinima
            self.comodidade = comodidade
            self.incluirInativos = incluirInativos
        }
    }

    public struct ItemDoCatalogo: Codable, Sendable {
        public let espaco: EspacoView
        public let unidade: UnidadeView?
        public let precos: TabelaDePreco.Valores?
    }

    public func catalogo(_ filtro: Filtro, pagina: Int, porPagina: Int = 50) async throws -> Pagina<ItemDoCatalogo> {
        catalogo(filtro, pagina: pagina, porPagina: porPagina, from: try await snapshot())
    }

    /// The catalog page as JSON: encoded once per catalog change, filter and page (at most
    /// 1,000 kept), so a read of an unchanged catalog costs one small query and a copy.
    public func catalogoJSON(_ filtro: Filtro, pagina: Int) async throws -> Data {
        let snapshot = try await snapshot()
        let key = [filtro.unidade ?? "", filtro.tipo?.rawValue ?? "", filtro.capacidadeMinima.map(String.init) ?? "",
                   filtro.comodidade ?? "", String(filtro.incluirInativos), String(pagina)].joined(separator: "|")
        if let data = pages.withLock({ $0.position == snapshot.position ? $0.pages[key] : nil }) { return data }
        let data = try ReadModelJSON.encoder.encode(catalogo(filtro, pagina: pagina, porPagina: 50, from: snapshot))
        pages.withLock { cache in
            if cache.position != snapshot.position { cache = (snapshot.position, [:]) }
            if cache.pages.count < 1_000 { cache.pages[key] = data }
        }
        return data
    }

    private let pages = Mutex<(position: CatalogoReadModel.Revisao, pages: [String: Data])>((CatalogoReadModel.Revisao(.start, geracao: nil), [:]))

    /// An amenity as the catalog filter compares it: `+` read as a space (HTML forms and
    /// `URLSearchParams` send a space so, and the router does not decode it), runs of spaces as
    /// one, trimmed, lowercase. The same on both sides, so "Ar  condicionado" is found as
    /// `ar+condicionado`, `ar%20condicionado` or " AR condicionado ".
    public static func comodidadeComparavel(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }

    func catalogo(_ filtro: Filtro, pagina: Int, porPagina: Int, from catalogo: Snapshot) -> Pagina<ItemDoCatalogo> {
        let comodidade = filtro.comodidade.map(Self.comodidadeComparavel)
        let matching = catalogo.espacos.filter { espaco in
            (filtro.incluirInativos || espaco.ativo)
                && filtro.unidade.map { espaco.unidadeId == $0.lowercased() } ?? true
                && filtro.tipo.map { espaco.tipo == $0 } ?? true
                && filtro.capacidadeMinima.map { espaco.capacidade >= $0 } ?? true
                && comodidade.map { procurada in espaco.comodidades.contains { Self.comodidadeComparavel($0) == procurada } } ?? true
        }
        let itens = matching.dropFirst((pagina - 1) * porPagina).prefix(porPagina).map { espaco in
            ItemDoCatalogo(espaco: espaco, unidade: catalogo.unidades[espaco.unidadeId], precos: catalogo.precos[espaco.id])
        }
        return Pagina(itens: itens, total: matching.count, pagina: pagina)
    }

    /// The whole catalog as of its last change (``CatalogoReadModel/revisao``, or the
    /// projection's checkpoint before that document exists): read again (three queries) only
    /// when the catalog changed, so catalog reads cost one small query, shared by the reads
    /// that arrive together.
    struct Snapshot: Sendable {
        /// Its revision: a rebuild swapped in changes it even at the same position.
        let position: CatalogoReadModel.Revisao
        let espacos: [EspacoView]
        let unidades: [String: UnidadeView]
        let precos: [String: TabelaDePreco.Valores]
    }

    private let cache = Mutex<Snapshot?>(nil)

    func snapshot() async throws -> Snapshot {
        try await snapshots.value { try await self.readSnapshot() }
    }

    /// Concurrent catalog reads share one revision query (and one reload), never one that
    /// began before they asked: see ``FreshRead``.
    private let snapshots = FreshRead<Snapshot>()

    private func readSnapshot() async throws -> Snapshot {
        let position: CatalogoReadModel.Revisao
        if let revisao = try await store.document(CatalogoReadModel.revisoes, key: CatalogoReadModel.revisao) {
            position = try ReadModelJSON.decoder.decode(CatalogoReadModel.Revisao.self, from: revisao)
        } else {
            position = CatalogoReadModel.Revisao(try await store.checkpoint(CatalogoReadModel.projection.checkpoint), geracao: nil)
        }
        if let cached = cache.withLock({ $0 }), cached.position == position { return cached }
        let decoder = ReadModelJSON.decoder
        func all<T: Decodable>(_ type: T.Type, _ collection: String) async throws -> [T] {
            try await store.documents(collection, grupo: nil, limit: 1_000_000, offset: 0).map { try decoder.decode(T.self, from: $0) }
        }
        let snapshot = Snapshot(
            position: position, espacos: try await all(EspacoView.self, CatalogoReadModel.espacos),
            unidades: Dictionary(try await all(UnidadeView.self, CatalogoReadModel.unidades).map { ($0.id, $0) }) { first, _ in first },
            precos: Dictionary(try await all(TabelaDePreco.Tabela.self, CatalogoReadModel.tabelas).map { ($0.espacoId.uuidString.lowercased(), $0.valores) }) { first, _ in first })
        cache.withLock { $0 = snapshot }
        return snapshot
    }

    public func unidadesCadastradas(pagina: Int) async throws -> Pagina<UnidadeView> {
        let docs = try await store.documents(CatalogoReadModel.unidades, grupo: nil, limit: 50, offset: (pagina - 1) * 50)
        return Pagina(
            itens: try docs.map { try ReadModelJSON.decoder.decode(UnidadeView.self, from: $0) },
            total: try await store.count(CatalogoReadModel.unidades, grupo: nil), pagina: pagina)
    }

    public func detalhe(_ id: String) async throws -> ItemDoCatalogo {
        let espaco = try await readEspaco(id)
        return ItemDoCatalogo(espaco: espaco, unidade: try await readUnidade(espaco.unidadeId), precos: try await readTabela(espaco.id)?.valores)
    }

    public struct Disponibilidade: Codable, Sendable {
        public let espacoId: String
        public let data: DataLocal
        public let fusoHorario: String
        public let aberto: [Faixa]
        public let livres: [Espaco.Livre]

        public struct Faixa: Codable, Sendable {
            public let inicio: Date
            public let fim: Date
        }
    }

    /// Free intervals of a space on a local date (the unit's time zone), where a booking could
    /// start now: none before the minimum notice or beyond the maximum lead time, none for a
    /// space without a price table (it takes no bookings); opening hours (`aberto`) as they are.
    public func disponibilidade(_ id: String, data texto: String) async throws -> Disponibilidade {
        guard let data = DataLocal(texto) else {
            throw ServiceError.requisicaoInvalida("'data' deve ser uma data AAAA-MM-DD, como 2026-11-23", detalhes: ["campo": "data"])
        }
        let espaco = try await readEspaco(id)
        guard let dados = espaco.dados else { throw ServiceError.naoEncontrado("espaço \(id) não existe") }
        let fuso = try await readUnidade(espaco.unidadeId).flatMap { TimeZone(identifier: $0.fusoHorario) } ?? .gmt
        let abertos = dados.periodosAbertos(em: data, fuso: fuso)
        func livresDo(_ dia: DataLocal) async throws -> [Espaco.Livre] {
            let ocupacao = try await store.document(ReservasReadModel.ocupacao, key: ReservasReadModel.ocupacaoKey(dados.id.rawValue, dia))
                .map { try ReadModelJSON.decoder.decode(OcupacaoView.self, from: $0) }
            return dados.disponibilidade(em: dia, fuso: fuso, ocupacoes: ocupacao.map { Array($0.reservas.values) } ?? [])
        }
        var livres = try await livresDo(data)
        // A free stretch that reaches midnight goes on into the day next to it, and a booking
        // may take both parts: the minimum duration holds for the whole (23:30–24:00 is
        // bookable as 23:30–00:30 when the next day is free from midnight).
        let diaInteiro = data.intervalo(em: fuso)
        if let diaInteiro, abertos.first?.start == diaInteiro.start { livres = try await livresDo(data.adding(dias: -1)) + livres }
        if let diaInteiro, abertos.last?.end == diaInteiro.end { livres += try await livresDo(data.seguinte) }
        if !dados.tipo.compartilhado {
            // A room's stretches on either side of midnight are one stretch.
            livres = livres.reduce(into: []) { juntos, livre in
                if let ultimo = juntos.last, ultimo.fim == livre.inicio {
                    juntos[juntos.count - 1] = Espaco.Livre(inicio: ultimo.inicio, fim: livre.fim, vagas: livre.vagas)
                } else {
                    juntos.append(livre)
                }
            }
        }
        let tabela = try await readTabela(espaco.id)
        let reservaveis = tabela.map { dados.reservaveis(livres, agora: clock.now, duracaoMinimaDaTabela: $0.valores.duracaoMinimaMinutos) } ?? []
        return Disponibilidade(
            espacoId: espaco.id, data: data, fusoHorario: fuso.identifier,
            aberto: abertos.map { Disponibilidade.Faixa(inicio: $0.start, fim: $0.end) },
            // What falls on this date.
            livres: reservaveis.compactMap { livre in
                guard let diaInteiro else { return nil }
                let inicio = max(livre.inicio, diaInteiro.start), fim = min(livre.fim, diaInteiro.end)
                return inicio < fim ? Espaco.Livre(inicio: inicio, fim: fim, vagas: livre.vagas) : nil
            })
    }

    func readEspaco(_ id: String) async throws -> EspacoView {
        let key = try Self.espacoId(id).description
        guard let doc = try await store.document(CatalogoReadModel.espacos, key: key) else {
            throw ServiceError.naoEncontrado("espaço \(id) não existe")
        }
        return try ReadModelJSON.decoder.decode(EspacoView.self, from: doc)
    }

    func readUnidade(_ id: String) async throws -> UnidadeView? {
        try await store.document(CatalogoReadModel.unidades, key: id).map { try ReadModelJSON.decoder.decode(UnidadeView.self, from: $0) }
    }

    func readTabela(_ espaco: String) async throws -> TabelaDePreco.Tabela? {
        try await store.document(CatalogoReadModel.tabelas, key: espaco).map { try ReadModelJSON.decoder.decode(TabelaDePreco.Tabela.self, from: $0) }
    }

    // MARK: Helpers

    /// 404 when no unit has id `id` (a catalog filtered by a unit that does not exist is not
    /// an empty catalog: the id is wrong).
    public func exigirUnidade(_ id: String) async throws {
        let id = try Self.unidadeId(id)
        _ = try await unidades.existing(StreamNames.unidade(id), naoEncontrado: "unidade \(id) não existe")
    }

    static func unidadeId(_ text: String, campo: String? = nil) throws -> Unidade.ID {
        guard let id = Unidade.ID(text) else {
            if let campo { throw ServiceError.invalido(campo, "'\(text.prefix(60))' não é um id de unidade (UUID)") }
            throw ServiceError.naoEncontrado("unidade \(text.prefix(60)) não existe")
        }
        return id
    }

    static func espacoId(_ text: String, campo: String? = nil) throws -> Espaco.ID {
        guard let id = Espaco.ID(text) else {
            if let campo { throw ServiceError.invalido(campo, "'\(text.prefix(60))' não é um id de espaço (UUID)") }
            throw ServiceError.naoEncontrado("espaço \(text.prefix(60)) não existe")
        }
        return id
    }

    static func view(_ state: Unidade.State) throws -> UnidadeView {
        guard case .existente(let dados) = state else { throw ServiceError.naoEncontrado("unidade não existe") }
        return UnidadeView(dados)
    }

    static func view(_ state: Espaco.State) throws -> EspacoView {
        guard case .existente(let dados) = state else { throw ServiceError.naoEncontrado("espaço não existe") }
        return EspacoView(dados)
    }
}
