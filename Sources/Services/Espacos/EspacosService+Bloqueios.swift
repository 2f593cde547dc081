public import Domain
import EventStore
import Foundation
public import Projections

extension EspacosService {
    /// A block's interval: it ends after it starts and lasts at most a year (to close a space
    /// for longer, deactivate it; to let it for longer, lease it again from the end).
    public static func intervalo(de input: NovoBloqueio) throws -> TimeRange {
        guard let intervalo = try? TimeRange(start: input.inicio, end: input.fim) else {
            throw ServiceError.invalido("fim", "o bloqueio precisa terminar depois de começar")
        }
        guard intervalo.duration <= 366 * 86_400 else {
            if input.motivo == .locacao {
                throw ServiceError.invalido("fim", "uma locação dura no máximo um ano; para renová-la, agende outra a partir do fim desta")
            }
            throw ServiceError.invalido("fim", "um bloqueio pode durar no máximo um ano; para fechar o espaço por mais tempo, desative-o")
        }
        return intervalo
    }

    /// Blocks the space for `input`'s interval: 409 `bloqueio_sobre_reservas` while bookings
    /// (held or confirmed) hold part of it; the operator cancels them (with their refunds and
    /// e-mails) or moves the block, instead of members arriving to a closed room. A lease
    /// (`locacao`) is such a block with its holder, who must exist.
    public func agendarBloqueio(_ id: String, _ input: NovoBloqueio, caller: Caller) async throws -> EspacoView {
        let intervalo = try Self.intervalo(de: input)
        try ServiceError.texto(input.descricao, campo: "descricao", maximo: 500)
        if let locatario = input.locatario { try await exigirLocatario(locatario) }
        let bloqueio = Espaco.Bloqueio(
            id: EventIDs.random(), intervalo: intervalo, motivo: input.motivo, descricao: input.descricao, locatario: input.locatario)
        return try await comAgendas(
            id, caller, intervalo: { _, _ in intervalo },
            recusa: { Self.bloqueioSobreReservas($0, locacao: input.motivo == .locacao) },
            espaco: { now in .agendarBloqueio(bloqueio, em: now) },
            agenda: { now, _, _, _ in .bloquear(bloqueio: bloqueio.id, intervalo: intervalo, em: now) })
    }

    /// The holder named exists: a member's account or a company's.
    func exigirLocatario(_ locatario: Espaco.Bloqueio.Locatario) async throws {
        guard locatario.valido else { throw ServiceError(Espaco.Failure.locatarioInvalido) }
        if let usuario = locatario.usuarioId,
            try await store.streamVersion(StreamName(category: Usuario.Catalogo.category, id: usuario.lowercasedString)) == 0
        {
            throw ServiceError.invalido("locatario.usuarioId", "nenhuma conta tem o id \(usuario.lowercasedString)")
        }
        if let empresa = locatario.empresaId,
            try await store.streamVersion(StreamNames.empresa(empresa)) == 0
        {
            throw ServiceError.invalido("locatario.empresaId", "nenhuma empresa tem o id \(empresa.lowercasedString)")
        }
    }

    public func removerBloqueio(_ id: String, bloqueio: String, caller: Caller) async throws -> EspacoView {
        guard let bloqueioId = UUID(text: bloqueio) else { throw ServiceError.naoEncontrado("bloqueio \(bloqueio) não existe") }
        return try await comAgendas(
            id, caller, intervalo: { dados, _ in dados.bloqueios.first { $0.id == bloqueioId }?.intervalo },
            espaco: { now in .removerBloqueio(id: bloqueioId, em: now) }, agenda: { now, _, _, _ in .desbloquear(bloqueio: bloqueioId, em: now) })
    }

    /// Brings a block's end forward to `fim` (after now): a lease whose holder leaves before its
    /// term. The days from `fim` on take bookings again; the time before stays blocked.
    public func encurtarBloqueio(_ id: String, bloqueio: String, _ input: EncurtamentoDeBloqueio, caller: Caller) async throws -> EspacoView {
        guard let bloqueioId = UUID(text: bloqueio) else { throw ServiceError.naoEncontrado("bloqueio \(bloqueio) não existe") }
        guard input.fim > clock.now else { throw ServiceError.invalido("fim", "o novo fim deve ser depois de agora") }
        return try await comAgendas(
            id, caller,
            intervalo: { dados, _ in
                dados.bloqueios.first { $0.id == bloqueioId }.flatMap { try? TimeRange(start: input.fim, end: $0.intervalo.end) }
            },
            espaco: { now in .encurtarBloqueio(id: bloqueioId, fim: input.fim, em: now) },
            // A day that begins at or after the new end is free again; the day the end falls in
            // keeps what comes before it.
            agenda: { now, _, _, inicioDoDia in
                inicioDoDia >= input.fim
                    ? .desbloquear(bloqueio: bloqueioId, em: now) : .encurtar(bloqueio: bloqueioId, fim: input.fim, em: now)
            })
    }

    /// Every block of the space with its holder (leases): for operators; the catalog shows no
    /// holder.
    public func bloqueios(_ id: String) async throws -> [Espaco.Bloqueio] {
        let id = try Self.espacoId(id)
        guard case .existente(let dados) = try await espacos.load(StreamNames.espaco(id)).state else {
            throw ServiceError.naoEncontrado("espaço \(id) não existe")
        }
        return dados.bloqueios
    }

    /// Decides `command` on the space and, in the same append, its agenda counterpart on every
    /// local day of `intervalo` (each agenda stream with the version read): a block, or a change
    /// of capacity, and a booking decided at the same instant cannot both commit (see
    /// ``Agenda``). `intervalo` is nil when the space's decider will refuse the command anyway.
    /// Days whose agenda refuses its part are given to `recusa`, which says why (a 409).
    func comAgendas(
        _ id: String, _ caller: Caller, intervalo: (Espaco.Dados, Date) -> TimeRange?,
        recusa: ([(dia: DataLocal, falha: Agenda.Failure)]) -> ServiceError = { EspacosService.bloqueioSobreReservas($0) },
        espaco doEspaco: (_ now: Date) -> Espaco.Command,
        agenda daAgenda: (_ now: Date, _ dados: Espaco.Dados, _ revisao: Int64, _ inicioDoDia: Date) -> Agenda.Command
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
                        // The agenda's part, with the space as read and its version after this change.
                        let paraAgenda = daAgenda(now, dados, version + Int64(events.count), dia.instante(minutos: 0, em: unidade.fuso))
                        decididos = try Agenda.decider(espacoId: id.rawValue, data: dia).decide(paraAgenda, estado)
                    } catch {
                        recusados.append((dia, error))
                        continue
                    }
                    if !decididos.isEmpty {
                        writes.append(
                            StreamWrite(stream: agendaStream, expected: .after(versao), events: try Events.new(decididos, at: now, metadata: meta)))
                    }
                }
                if !recusados.isEmpty { throw recusa(recusados) }
            }
            do {
                try await store.append(writes, receipt: caller.receipt)
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
    static func bloqueioSobreReservas(_ recusados: [(dia: DataLocal, falha: Agenda.Failure)], locacao: Bool = false) -> ServiceError {
        var reservas: Set<UUID> = []
        for (_, falha) in recusados { if case .indisponivel(let conflitos) = falha { reservas.formUnion(conflitos) } }
        let oQue = locacao ? "a locação" : "o bloqueio"
        return ServiceError(
            .conflito, codigo: "bloqueio_sobre_reservas",
            mensagem: reservas.count == 1
                ? "1 reserva ocupa parte deste intervalo; cancele-a ou escolha outro intervalo para \(oQue)"
                : "\(reservas.count) reservas ocupam parte deste intervalo; cancele-as ou escolha outro intervalo para \(oQue)",
            detalhes: [
                "reservas": reservas.sorted { $0.uppercasedString < $1.uppercasedString }.prefix(20).map { $0.lowercasedString }.joined(
                    separator: ",")
            ])
    }
}

extension EspacosService {
    /// A lease as its holder sees it: the space, its unit, the period and whose it is.
    public struct LocacaoView: Codable, Sendable, Equatable {
        public let bloqueioId: String
        public let espacoId: String
        public let espacoNome: String
        public let tipo: Espaco.Tipo
        public let unidadeId: String
        public let unidadeNome: String?
        public let fusoHorario: String?
        public let intervalo: TimeRange
        public let descricao: String?
        /// The company that holds it when it is the member's company's (nil: the member's own).
        public let empresaId: String?
    }

    /// The leases not yet over that `usuario` holds, or that their company holds, by start: the
    /// catalog says which spaces have one (without the holder), and only those spaces' streams
    /// are read for it.
    public func locacoes(de usuario: String) async throws -> [LocacaoView] {
        let catalogo = try await snapshot()
        let now = clock.now
        let vinculos = AggregateStore(store: store, decider: Vinculo.decider) {
            try Vinculo.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
        let empresa = try await vinculos.load(StreamNames.vinculo(usuario)).state
        let membro = UUID(text: usuario)
        var encontradas: [LocacaoView] = []
        for (dados, bloqueio) in try await Self.locacoes(catalogo.espacos, store: store, ate: now) {
            guard let locatario = bloqueio.locatario else { continue }
            let doMembro = membro != nil && locatario.usuarioId == membro
            let daEmpresa = empresa != nil && locatario.empresaId == empresa
            guard doMembro || daEmpresa else { continue }
            let unidade = catalogo.unidades[dados.unidade.description]
            encontradas.append(
                LocacaoView(
                    bloqueioId: bloqueio.id.lowercasedString, espacoId: dados.id.description, espacoNome: dados.nome, tipo: dados.tipo,
                    unidadeId: dados.unidade.description, unidadeNome: unidade?.nome, fusoHorario: unidade?.fusoHorario,
                    intervalo: bloqueio.intervalo, descricao: bloqueio.descricao, empresaId: daEmpresa ? locatario.empresaId?.lowercasedString : nil
                ))
        }
        return encontradas.sorted { ($0.intervalo.start, $0.espacoNome) < ($1.intervalo.start, $1.espacoNome) }
    }

    /// Every lease of the spaces in `espacos` (the catalog's views, which say where there is one
    /// but not whose), with its holder, read from those spaces' streams only; with `ate`, only
    /// the leases not over by then.
    static func locacoes(
        _ espacos: [EspacoView], store: any ServiceStore, ate: Date? = nil
    ) async throws -> [(espaco: Espaco.Dados, bloqueio: Espaco.Bloqueio)] {
        func vale(_ bloqueio: Espaco.Bloqueio) -> Bool { bloqueio.motivo == .locacao && ate.map { bloqueio.intervalo.end > $0 } ?? true }
        let aggregate = AggregateStore(store: store, decider: Espaco.decider) {
            try Espaco.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
        var locacoes: [(espaco: Espaco.Dados, bloqueio: Espaco.Bloqueio)] = []
        for espaco in espacos where espaco.bloqueios.contains(where: vale) {
            guard let id = Espaco.ID(espaco.id), case .existente(let dados) = try await aggregate.load(StreamNames.espaco(id)).state else { continue }
            locacoes += dados.bloqueios.filter(vale).map { (dados, $0) }
        }
        return locacoes
    }
}
