import Crypto
import Domain
import EventStore
import Foundation
import Gateway
import HTTPTypes
import HummingbirdTesting
import Projections
import Services
import Synchronization
import TestSupport
import Testing

private func isoDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
}

/// A scenario (the clock on Monday morning, no reactors) for a race on the agenda streams.
func agendaRace(_ body: @escaping @Sendable (Harness, any TestClientProtocol, Cenario) async throws -> Void) async throws {
    let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
    defer { harness.removeFiles() }
    try await harness.test(reacting: []) { client in
        try await body(harness, client, try await Cenario.make(harness, client))
    }
}

/// Runs `slow` on a store that holds its read of `stream`, runs `fast` while it waits, lets it
/// go, and expects `slow` to fail with `status` and `codigo`: `fast` committed in between.
func interleaved<T: Sendable>(
    _ harness: Harness, holding stream: StreamName, slow: @escaping @Sendable (PausingStore) async throws -> T,
    fast: () async throws -> Void, failsWith status: Int, _ codigo: String
) async throws {
    let pausing = PausingStore(harness.store, pausing: stream)
    let first = Task { try await slow(pausing) }
    await pausing.reached()  // `slow` has `stream` as it was
    try await fast()
    pausing.release()
    await #expect {
        _ = try await first.value
    } throws: { error in
        (error as? ServiceError)?.status == status && (error as? ServiceError)?.codigo == codigo
    }
}

/// The member books `espaco` on the 26th, 10:00–12:00, through the API; it must be taken.
func reservarNoDia26(_ client: any TestClientProtocol, _ cenario: Cenario, _ espaco: String) async throws {
    let booked = try await client.json(
        .post, "/api/reservas", pedido(espaco, "2026-11-26T10:00:00-03:00", "2026-11-26T12:00:00-03:00"), token: cenario.membro)
    #expect(booked.status == .created, "\(String(buffer: booked.body))")
}

/// A booking of `espaco` on the 26th, 10:00–12:00, as the member of the race: its agendas and
/// bookings read from `reservasStore`, the space and its prices from `precosStore`.
func reservaDaCorrida(_ harness: Harness, reservas reservasStore: any EventStore, precos precosStore: any EventStore, _ espaco: String) async throws {
    let reservas = ReservasService(store: reservasStore, clock: harness.clock, precos: PrecosService(store: precosStore, clock: harness.clock))
    let solicitacao = try isoDecoder().decode(
        ReservasService.PedidoDeReserva.self, from: Data(pedido(espaco, "2026-11-26T10:00:00-03:00", "2026-11-26T12:00:00-03:00").utf8))
    _ = try await reservas.solicitar(solicitacao, usuario: "membro-da-corrida", caller: Caller(requestId: "corrida"))
}

@Suite("What a booking reads")
struct BookingReadsTests {
    @Test(
        "a booking of a space this process has loaded reads the space, its unit, its prices, the day's agenda and the member's credits and subscription in one round trip"
    )
    func one_round_trip_once_the_space_is_known() async throws {
        try await agendaRace { harness, _, cenario in
            let (store, reservar) = Self.leitora(harness, cenario.sala)
            let espaco = StreamName(category: "espaco", id: cenario.sala)
            let agenda = StreamName("agenda-\(cenario.sala)-2026-11-26")
            // The first booking finds nothing kept: it reads the space first, to learn its unit and days.
            try await reservar("2026-11-26T10:00:00-03:00", "2026-11-26T11:00:00-03:00")
            func lidas() -> [(kind: String, streams: [StreamRead])] {
                store.reads.withLock { reads in
                    defer { reads.removeAll() }
                    return reads
                }
            }
            let primeira = lidas()
            #expect(primeira.first?.kind == "stream" && primeira.first?.streams.map(\.stream) == [espaco])
            #expect(!primeira.contains { $0.kind == "streams" })
            // The second: one read of every stream it folds, none alone; the day's agenda from
            // after the first booking's event (kept as that booking's append left it).
            try await reservar("2026-11-26T11:00:00-03:00", "2026-11-26T12:00:00-03:00")
            let segunda = lidas()
            #expect(segunda.count == 1 && segunda.first?.kind == "streams", "\(segunda)")
            let lidos = segunda.first?.streams ?? []
            // The space, its unit, its prices, the day's agenda, the member's credits (the quote
            // spends them before money), subscription (its plan's discount) and company (its pool).
            #expect(Set(lidos.map(\.stream)).contains(espaco) && lidos.count == 7, "\(lidos)")
            #expect(lidos.contains { $0.stream.category == Vinculo.Catalogo.category }, "\(lidos)")
            #expect(lidos.contains { $0.stream.category == Carteira.Catalogo.category }, "\(lidos)")
            #expect(lidos.contains { $0.stream.category == Assinatura.Catalogo.category }, "\(lidos)")
            #expect(lidos.first { $0.stream == agenda }?.version == 2, "\(lidos)")
            // Another process books the same day: the next booking here reads its event ahead
            // and decides on it (no conflict, so no second read).
            let outro = ReservasService(store: harness.store, clock: harness.clock, precos: PrecosService(store: harness.store, clock: harness.clock))
            _ = try await outro.solicitar(
                try isoDecoder().decode(
                    ReservasService.PedidoDeReserva.self,
                    from: Data(pedido(cenario.sala, "2026-11-26T12:00:00-03:00", "2026-11-26T13:00:00-03:00").utf8)),
                usuario: "membro-2", caller: Caller(requestId: "outro"))
            try await reservar("2026-11-26T13:00:00-03:00", "2026-11-26T14:00:00-03:00")
            let terceira = lidas()
            #expect(terceira.count == 1 && terceira.first?.streams.first { $0.stream == agenda }?.version == 3, "\(terceira)")
            // And each held its slot like any other: the day has the four bookings.
            let dia = try await harness.store.readStream(agenda, from: 1, limit: 100)
            #expect(dia.filter { $0.type == "AgendaOcupada" }.count == 4)
        }
    }
}

extension BookingReadsTests {
    /// A store that records the reads asked of it, and a booking of `sala` by one member through
    /// a reservas service on it.
    static func leitora(_ harness: Harness, _ sala: String) -> (PausingStore, @Sendable (String, String) async throws -> Void) {
        let store = PausingStore(harness.store, pausing: StreamName("nada-1"))
        let reservas = ReservasService(store: store, clock: harness.clock, precos: PrecosService(store: store, clock: harness.clock))
        return (
            store,
            { inicio, fim in
                let solicitacao = try isoDecoder().decode(ReservasService.PedidoDeReserva.self, from: Data(pedido(sala, inicio, fim).utf8))
                _ = try await reservas.solicitar(solicitacao, usuario: "membro-1", caller: Caller(requestId: "leituras"))
            }
        )
    }

    @Test("a booking over a year is refused (422) before a single agenda is read, also once the space is known")
    func a_booking_over_a_year_reads_nothing() async throws {
        try await agendaRace { harness, _, cenario in
            let (store, reservar) = Self.leitora(harness, cenario.sala)
            // The space is known here from now on: a booking reads its days ahead.
            try await reservar("2026-11-26T10:00:00-03:00", "2026-11-26T11:00:00-03:00")
            store.reads.withLock { $0.removeAll() }
            await #expect {
                try await reservar("2026-11-27T10:00:00-03:00", "2036-11-27T10:00:00-03:00")
            } throws: { error in
                (error as? ServiceError)?.status == 422
            }
            let lidas = store.reads.withLock { $0 }
            #expect(lidas.isEmpty, "\(lidas.map { ($0.kind, $0.streams.count) })")
        }
    }
}

@Suite("A block and a booking decided at the same instant")
struct BlockRaceTests {
    /// The booking reads the space before the block exists and appends after the block has
    /// committed: the agenda streams, which both write, refuse the second one.
    @Test("a booking that read the space before a block committed is refused (422 'fechado'), and the agenda holds only the block")
    func booking_after_block_commits() async throws {
        try await agendaRace { harness, client, cenario in
            let dia = StreamName("agenda-\(cenario.sala)-2026-11-26")
            var bloqueioId = ""
            try await interleaved(
                harness, holding: StreamName(category: "espaco", id: cenario.sala),
                slow: { pausing in
                    try await reservaDaCorrida(harness, reservas: harness.store, precos: pausing, cenario.sala)
                },
                fast: {
                    let block = try await client.json(
                        .post, "/api/admin/espacos/\(cenario.sala)/bloqueios",
                        #"{"inicio":"2026-11-26T08:00:00-03:00","fim":"2026-11-26T18:00:00-03:00","motivo":"manutencao"}"#, token: cenario.admin)
                    #expect(block.status == .created, "\(String(buffer: block.body))")
                    bloqueioId = try #require((block.object["bloqueios"] as? [[String: Any]])?.first?["id"] as? String)
                }, failsWith: 422, "dados_invalidos")
            #expect(try await harness.store.readStream(dia, from: 1, limit: 100).map(\.type) == ["AgendaBloqueada"])
            #expect(try await harness.allEvents().contains { $0.type == "ReservaSolicitada" } == false)

            // Removing the block opens the day again, through the same streams.
            #expect(try await client.json(.delete, "/api/admin/espacos/\(cenario.sala)/bloqueios/\(bloqueioId)", token: cenario.admin).status == .ok)
            #expect(try await harness.store.readStream(dia, from: 1, limit: 100).map(\.type) == ["AgendaBloqueada", "AgendaDesbloqueada"])
            let again = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-26T10:00:00-03:00", "2026-11-26T12:00:00-03:00"), token: cenario.membro)
            #expect(again.status == .created, "\(String(buffer: again.body))")
        }
    }

    /// The other order: the block reads the agenda before the booking commits, and appends after.
    @Test("a block whose agenda read came before a booking committed is refused (409 'bloqueio_sobre_reservas') and the booking stands")
    func block_after_booking_commits() async throws {
        try await agendaRace { harness, client, cenario in
            let dia = StreamName("agenda-\(cenario.sala)-2026-11-26")
            let bloqueio = try isoDecoder().decode(
                EspacosService.NovoBloqueio.self,
                from: Data(
                    #"{"inicio":"2026-11-26T08:00:00-03:00","fim":"2026-11-26T18:00:00-03:00","motivo":"manutencao"}"#.utf8))
            try await interleaved(
                harness, holding: dia,
                slow: { pausing in
                    try await EspacosService(store: pausing, clock: harness.clock).agendarBloqueio(
                        cenario.sala, bloqueio, caller: Caller(requestId: "corrida", usuario: "admin"))
                },
                fast: {
                    try await reservarNoDia26(client, cenario, cenario.sala)
                }, failsWith: 409, "bloqueio_sobre_reservas")
            #expect(try await harness.store.readStream(dia, from: 1, limit: 100).map(\.type) == ["AgendaOcupada"])
            #expect(try await harness.allEvents().contains { $0.type == "BloqueioAgendado" } == false)
        }
    }
}

@Suite("A change of a shared space's capacity and a booking decided at the same instant")
struct CapacityRaceTests {
    /// Two of the desks' three seats taken on the 26th, 10:00–12:00.
    func twoSeatsTaken(_ client: any TestClientProtocol, _ cenario: Cenario) async throws {
        for _ in 0..<2 { try await reservarNoDia26(client, cenario, cenario.estacoes) }
    }

    /// The booking reads the day with three seats and appends after the capacity fell to two:
    /// the day's stream, which both write, refuses it, and on the second try the day's own
    /// capacity does.
    @Test("a booking that read the day before the capacity fell to what is taken is refused (409), and the day holds two")
    func booking_after_capacity_commits() async throws {
        try await agendaRace { harness, client, cenario in
            try await twoSeatsTaken(client, cenario)
            let dia = StreamName("agenda-\(cenario.estacoes)-2026-11-26")
            try await interleaved(
                harness, holding: dia,
                slow: { pausing in
                    try await reservaDaCorrida(harness, reservas: pausing, precos: harness.store, cenario.estacoes)
                },
                fast: {
                    let reduzir = try await client.json(.patch, "/api/admin/espacos/\(cenario.estacoes)", #"{"capacidade":2}"#, token: cenario.admin)
                    #expect(reduzir.status == .ok, "\(String(buffer: reduzir.body))")
                }, failsWith: 409, "horario_indisponivel")
            #expect(
                try await harness.store.readStream(dia, from: 1, limit: 100).map(\.type)
                    == ["AgendaOcupada", "AgendaOcupada", "AgendaCapacidadeDefinida"])
            #expect(try await harness.allEvents().filter { $0.type == "ReservaSolicitada" }.count == 2)
            // The change went to every day a booking could take (90 days ahead, ten hours long).
            let dias = try await harness.allEvents().filter { $0.type == "AgendaCapacidadeDefinida" }.count
            #expect((91...92).contains(dias), "\(dias) days")
        }
    }

    /// The other order: the change reads the day before a third booking commits, and appends after.
    @Test(
        "a capacity change whose read of a day came before a booking committed is refused (409 'capacidade_abaixo_das_reservas'); the booking stands")
    func capacity_after_booking_commits() async throws {
        try await agendaRace { harness, client, cenario in
            try await twoSeatsTaken(client, cenario)
            let dia = StreamName("agenda-\(cenario.estacoes)-2026-11-26")
            let alteracao = try isoDecoder().decode(EspacosService.AlteracaoDeEspaco.self, from: Data(#"{"capacidade":2}"#.utf8))
            try await interleaved(
                harness, holding: dia,
                slow: { pausing in
                    try await EspacosService(store: pausing, clock: harness.clock).atualizarEspaco(
                        cenario.estacoes, alteracao, caller: Caller(requestId: "corrida", usuario: "admin"))
                },
                fast: {
                    try await reservarNoDia26(client, cenario, cenario.estacoes)
                }, failsWith: 409, "capacidade_abaixo_das_reservas")
            #expect(try await harness.store.readStream(dia, from: 1, limit: 100).map(\.type) == ["AgendaOcupada", "AgendaOcupada", "AgendaOcupada"])
            #expect(try await harness.allEvents().contains { $0.type == "AgendaCapacidadeDefinida" } == false)
        }
    }
}

/// The room booked today 09:00–11:00, confirmed by the admin (sandbox) and given its check-in
/// code by checkin's reaction, run by hand (for harnesses without reactors): its id and code.
func confirmadaComCodigo(_ harness: Harness, _ client: any TestClientProtocol, _ cenario: Cenario) async throws -> (id: String, codigo: String) {
    let id = try await reservaConfirmada(client, cenario)
    try await liberarCheckin(harness)
    let codigo = try #require(try await client.json(.get, "/api/reservas/\(id)/checkin", token: cenario.membro).object["codigo"] as? String)
    return (id, codigo)
}

/// The room booked today 09:00–11:00 and confirmed by the admin (sandbox): its id.
func reservaConfirmada(_ client: any TestClientProtocol, _ cenario: Cenario) async throws -> String {
    let booked = try await client.json(
        .post, "/api/reservas", pedido(cenario.sala, "2026-11-23T09:00:00-03:00", "2026-11-23T11:00:00-03:00"), token: cenario.membro)
    let id = try #require(booked.object["id"] as? String, "\(String(buffer: booked.body))")
    #expect(try await client.json(.post, "/api/admin/reservas/\(id)/confirmacao", "{}", token: cenario.admin).status == .ok)
    return id
}

/// Checkin's reaction to the last confirmation, run by hand: the code is issued.
func liberarCheckin(_ harness: Harness) async throws {
    let confirmada = try #require(try await harness.allEvents().last { $0.type == "ReservaConfirmada" })
    _ = try await harness.store.append(try await harness.backend.negocio.checkin.reagir(confirmada))
}

@Suite("A check-in code issued a moment ago")
struct CheckinCodeLagTests {
    @Test("is found once its read model has it: a check-in by code waits for the read model instead of answering 404")
    func checkin_by_code_waits_for_its_read_model() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test(reacting: []) { client in
            _ = try await reservaConfirmada(client, try await Cenario.make(harness, client))
        }
        // Out of the router nothing projects: the code is issued now, and its read model has it
        // only once the runner below catches up, while the check-in is already asking.
        try await liberarCheckin(harness)
        let liberado = try #require(try await harness.allEvents().last { $0.type == "CheckinLiberado" })
        guard case .liberado(let liberacao)? = try Checkin.Event.decode(type: liberado.type, data: liberado.data, using: EventJSON.decoder) else {
            Issue.record("no CheckinLiberado")
            return
        }
        clock.set(try Date("2026-11-23T08:50:00-03:00", strategy: .iso8601))
        let checkin = harness.backend.negocio.checkin
        let tentativa = Task {
            try await checkin.checkin(
                codigo: liberacao.codigo.texto, reservaId: nil, usuario: liberacao.usuarioId, admin: false, caller: Caller(requestId: "balcao"))
        }
        try await Task.sleep(for: .milliseconds(300))
        for runner in harness.backend.projections where runner.projection.name == CheckinReadModel.projection.name {
            try await runner.catchUp()
        }
        let presente = try await tentativa.value
        #expect(presente.status == .presente)
    }
}

@Suite("A check-in and a cancellation at the same instant")
struct CheckinCancelRaceTests {
    /// A confirmed booking today 09:00–11:00 with its check-in code, the clock at 08:50 (the
    /// window is open); `body` gets the booking id and the code.
    func confirmed(_ body: @escaping @Sendable (Harness, any TestClientProtocol, Cenario, String, String) async throws -> Void) async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test(reacting: []) { client in
            let cenario = try await Cenario.make(harness, client)
            let (id, codigo) = try await confirmadaComCodigo(harness, client, cenario)
            clock.set(try Date("2026-11-23T08:50:00-03:00", strategy: .iso8601))
            try await body(harness, client, cenario, id, codigo)
        }
    }

    @Test("a check-in that read the booking as confirmed before the cancellation committed is refused, and the code ends revoked")
    func checkin_after_cancel_commits() async throws {
        try await confirmed { harness, client, cenario, id, codigo in
            let stream = StreamName("checkin-\(id)")
            // The check-in reads its stream twice: to find the booking, then to decide (after
            // it has seen the booking confirmed). Hold the second.
            let pausing = PausingStore(harness.store, pausing: stream, read: 2)
            let checkin = CheckinService(store: pausing, clock: harness.clock)
            let membro = try #require(try await harness.allEvents().first { $0.type == "ReservaSolicitada" }?.metadata.actor)
            let tentativa = Task {
                try await checkin.checkin(codigo: codigo, reservaId: id, usuario: membro, admin: false, caller: Caller(requestId: "corrida"))
            }
            await pausing.reached()
            let cancel = try await client.json(.post, "/api/reservas/\(id)/cancelamento", "{}", token: cenario.membro)
            #expect(cancel.status == .ok, "\(String(buffer: cancel.body))")
            pausing.release()
            await #expect(throws: ServiceError.self) { _ = try await tentativa.value }
            #expect(try await harness.store.readStream(stream, from: 1, limit: 100).map(\.type) == ["CheckinLiberado", "CheckinRevogado"])
        }
    }

    @Test(
        "a member's cancellation that read the check-in as awaited before the check-in committed is refused (409 checkin_realizado); the booking stays confirmed"
    )
    func cancel_after_checkin_commits() async throws {
        try await confirmed { harness, client, cenario, id, codigo in
            let stream = StreamName("checkin-\(id)")
            let pausing = PausingStore(harness.store, pausing: stream)
            let reservas = ReservasService(store: pausing, clock: harness.clock, precos: PrecosService(store: harness.store, clock: harness.clock))
            let membro = try #require(try await harness.allEvents().first { $0.type == "ReservaSolicitada" }?.metadata.actor)
            let cancel = Task { try await reservas.cancelar(id, motivo: nil, usuario: membro, admin: false, caller: Caller(requestId: "corrida")) }
            await pausing.reached()
            let presente = try await client.json(.post, "/api/checkin", #"{"codigo":"\#(codigo)"}"#, token: cenario.membro)
            #expect(presente.status == .ok, "\(String(buffer: presente.body))")
            pausing.release()
            await #expect {
                _ = try await cancel.value
            } throws: { error in
                (error as? ServiceError)?.codigo == "checkin_realizado"
            }
            #expect(try await harness.allEvents().contains { $0.type == "ReservaCancelada" } == false)
            #expect(try await harness.store.readStream(stream, from: 1, limit: 100).map(\.type) == ["CheckinLiberado", "CheckinRealizado"])
        }
    }
}

@Suite("A declined payment and an admin confirmation at the same instant")
struct DeclineRaceTests {
    @Test("the decline's reaction that saw the hold before an admin confirmed it cancels nothing: the booking stays confirmed")
    func decline_after_admin_confirmation() async throws {
        try await agendaRace { harness, client, cenario in
            let booked = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-26T10:00:00-03:00", "2026-11-26T12:00:00-03:00"), token: cenario.membro)
            let id = try #require(booked.object["id"] as? String, "\(String(buffer: booked.body))")
            let reservaId = try #require(UUID(uuidString: id))
            // The reaction reads the booking twice: its own check, then the state it appends
            // against. Hold the first; the admin confirms meanwhile.
            let pausing = PausingStore(harness.store, pausing: StreamName("reserva-\(id)"))
            let reservas = ReservasService(store: pausing, clock: harness.clock, precos: PrecosService(store: harness.store, clock: harness.clock))
            let recusado =
                #"{"pagamentoId":"\#(reservaId.uuidString.lowercased())","reservaId":"\#(reservaId.uuidString.lowercased())","motivo":"saldo insuficiente","em":"2026-11-23T12:00:00Z"}"#
            #expect(try EventJSON.decoder.decode(Pagamento.Recusado.self, from: Data(recusado.utf8)).reservaId == reservaId)
            let event = RecordedEvent(
                position: .start, stream: StreamName("pagamento-\(id)"), version: 2, eventId: UUID(), type: "PagamentoRecusado",
                schemaVersion: 1, data: Data(recusado.utf8), metadataJSON: Data("{}".utf8),
                occurredAt: harness.clock.now, recordedAt: harness.clock.now)
            let reaction = Task { try await reservas.reagir(event) }
            await pausing.reached()
            #expect(try await client.json(.post, "/api/admin/reservas/\(id)/confirmacao", "{}", token: cenario.admin).status == .ok)
            pausing.release()
            let writes = try await reaction.value
            #expect(writes.isEmpty, "\(writes.map { $0.events.map(\.type) })")
        }
    }
}

@Suite("The account's check with the booking's read ahead")
struct AccountInReadAheadTests {
    @Test("a booking whose account check the edge left to it reads the account in its one round trip, and refuses one that no longer counts")
    func the_account_in_the_read_ahead() async throws {
        try await agendaRace { harness, client, cenario in
            let membro = try #require(try await harness.backend.usuarios.usuarioId(email: "ana@example.com"))
            // Its usuarios service and its reservas service on one store that records what is asked of it.
            let store = PausingStore(harness.store, pausing: StreamName("nada-1"))
            let usuarios = UsuariosService(
                store: store, vault: PersonalDataVault(keys: SQLiteKeyStore(database: harness.store.database)),
                passwords: PasswordHasher(rounds: 210_000), tokens: try await TokenIssuer(secret: String(repeating: "k", count: 32)),
                clock: harness.clock, emailKey: SymmetricKey(data: Data(repeating: 7, count: 32)))
            let reservas = ReservasService(store: store, clock: harness.clock, precos: PrecosService(store: store, clock: harness.clock))
            let conta = StreamName("usuario-\(membro)")
            @Sendable func reservar(_ inicio: String, _ fim: String) async throws -> Projections.ReservaView {
                let solicitacao = try isoDecoder().decode(
                    ReservasService.PedidoDeReserva.self, from: Data(pedido(cenario.sala, inicio, fim).utf8))
                let pendente = ContaPendente(usuarios: usuarios, usuario: membro, emitidoEm: nil, staleness: nil)
                return try await reservas.solicitar(
                    solicitacao, usuario: membro, caller: Caller(requestId: "conta", usuario: membro, papel: "membro", conta: pendente))
            }
            func lidas() -> [(kind: String, streams: [StreamRead])] {
                store.reads.withLock { reads in
                    defer { reads.removeAll() }
                    return reads
                }
            }
            // The first booking of the space here reads it first, and the account alone.
            _ = try await reservar("2026-11-26T10:00:00-03:00", "2026-11-26T11:00:00-03:00")
            #expect(lidas().contains { $0.kind == "stream" && $0.streams.map(\.stream) == [conta] })
            // Once the space is known: one round trip, the account in it, nothing read alone.
            let segunda = try await reservar("2026-11-26T11:00:00-03:00", "2026-11-26T12:00:00-03:00")
            #expect(segunda.status == .solicitada)
            let lidos = lidas()
            #expect(lidos.count == 1 && lidos.first?.kind == "streams", "\(lidos)")
            #expect(lidos.first?.streams.contains { $0.stream == conta } == true, "\(lidos)")
            // Deactivated: the next booking is a 401 and holds nothing.
            let desativada = try await client.json(.post, "/api/admin/usuarios/\(membro)/desativacao", token: cenario.admin)
            #expect(desativada.status == .noContent)
            await #expect {
                _ = try await reservar("2026-11-26T12:00:00-03:00", "2026-11-26T13:00:00-03:00")
            } throws: { error in
                (error as? ServiceError)?.status == 401 && (error as? ServiceError)?.codigo == "token_invalido"
            }
            let dia = try await harness.store.readStream(StreamName("agenda-\(cenario.sala)-2026-11-26"), from: 1, limit: 100)
            #expect(dia.filter { $0.type == "AgendaOcupada" }.count == 2)
        }
    }

    @Test("a booking with a token whose account no longer counts is a 401, whatever it asks, also a replay of its key")
    func a_booking_refused_for_the_account() async throws {
        try await agendaRace { harness, client, cenario in
            let membro = try #require(try await harness.backend.usuarios.usuarioId(email: "ana@example.com"))
            let chave: HTTPFields = [.init("Idempotency-Key")!: "reserva-da-ana-1"]
            let feita = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-26T10:00:00-03:00", "2026-11-26T11:00:00-03:00"), token: cenario.membro,
                headers: chave)
            #expect(feita.status == .created, "\(String(buffer: feita.body))")
            let antes = try await harness.allEvents().count
            #expect(try await client.json(.post, "/api/admin/usuarios/\(membro)/desativacao", token: cenario.admin).status == .noContent)
            let depois = try await harness.allEvents().count
            let livre = pedido(cenario.sala, "2026-11-26T12:00:00-03:00", "2026-11-26T13:00:00-03:00")
            for (caminho, corpo, headers) in [
                // A slot it could have had; the one it has (its key replayed); a slot taken; a body
                // with a wrong field; one for someone else; the path as the router also takes it.
                ("/api/reservas", livre, HTTPFields()),
                ("/api/reservas", pedido(cenario.sala, "2026-11-26T10:00:00-03:00", "2026-11-26T11:00:00-03:00"), chave),
                ("/api/reservas", pedido(cenario.sala, "2026-11-26T10:30:00-03:00", "2026-11-26T11:30:00-03:00"), HTTPFields()),
                (
                    "/api/reservas", #"{"espacoId":"nao-e-um-id","inicio":"2026-11-26T12:00:00-03:00","fim":"2026-11-26T13:00:00-03:00"}"#,
                    HTTPFields()
                ),
                ("/api/reservas", String(livre.dropLast()) + #","paraUsuarioId":"\#(UUID().uuidString)"}"#, HTTPFields()),
                ("//api//reservas/", livre, HTTPFields()),
            ] {
                let recusada = try await client.json(.post, caminho, corpo, token: cenario.membro, headers: headers)
                #expect(
                    recusada.status == .unauthorized && recusada.erro == "token_invalido", "\(caminho) \(corpo): \(String(buffer: recusada.body))")
            }
            #expect(try await harness.allEvents().count == depois, "nothing appended after the deactivation")
            #expect(depois > antes)
        }
    }

    @Test("after a password change, a booking with a token issued before it is a 401, its key keeping no answer; with the new one it books")
    func a_booking_after_a_password_change() async throws {
        try await agendaRace { harness, client, cenario in
            harness.clock.advance(by: 60)
            let trocada = try await client.json(
                .post, "/api/auth/me/senha", #"{"senhaAtual":"segredo-123","novaSenha":"nova-senha-1"}"#, token: cenario.membro)
            #expect(trocada.status == .ok, "\(String(buffer: trocada.body))")
            let novo = try #require(trocada.object["token"] as? String)
            let corpo = pedido(cenario.sala, "2026-11-26T10:00:00-03:00", "2026-11-26T11:00:00-03:00")
            // With a key, as the web app sends: the 401 is not kept as the key's answer, so the
            // same request with the new token books.
            let chave: HTTPFields = [.init("Idempotency-Key")!: "reserva-da-ana-2"]
            let antiga = try await client.json(.post, "/api/reservas", corpo, token: cenario.membro, headers: chave)
            #expect(antiga.status == .unauthorized && antiga.erro == "token_invalido", "\(String(buffer: antiga.body))")
            let feita = try await client.json(.post, "/api/reservas", corpo, token: novo, headers: chave)
            #expect(feita.status == .created, "\(String(buffer: feita.body))")
        }
    }
}
