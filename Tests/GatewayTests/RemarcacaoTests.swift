import Domain
import EventStore
import Foundation
import HTTPTypes
import HummingbirdTesting
import Projections
import Services
import Testing

/// Moving a confirmed booking to another time of its space (ADR 0021): the old time freed and
/// the new one held in one append, the price, payment and check-in code kept, the calendar
/// invitation moved; the member within the free window and not to a dearer time, the front
/// desk any booking until it starts.
@Suite("Moving a booking")
struct RemarcacaoTests {
    static func horario(_ texto: String) -> Date { (try? Date(texto, strategy: .iso8601)) ?? .distantPast }

    @Test("a member moves a paid booking: the old time is free, the new one held, the code kept with its window moved, the calendar moved")
    func member_moves_a_paid_booking() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))  // Monday 23/11 08:00 in São Paulo
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            #expect(try await client.register("bruno@example.com", nome: "Bruno").status == .created)
            let bruno = try await client.token("bruno@example.com")
            let feita = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: cenario.membro)
            let id = try #require(feita.object["id"] as? String, "\(String(buffer: feita.body))")
            _ = try await client.pagar(id, token: cenario.membro)
            let codigo = try await eventually("the check-in code") {
                let r = try await client.json(.get, "/api/reservas/\(id)/checkin", token: cenario.membro)
                return r.status == .ok ? r.object["codigo"] as? String : nil
            }
            // Bruno holds Wednesday 14:00.
            let dele = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T14:00:00-03:00", "2026-11-25T15:00:00-03:00"), token: bruno)
            #expect(dele.status == .created, "\(String(buffer: dele.body))")

            func mover(_ inicio: String, _ fim: String, token: String? = nil, reserva: String? = nil) async throws -> TestResponse {
                try await client.json(
                    .post, "/api/reservas/\(reserva ?? id)/remarcacao", #"{"inicio":"\#(inicio)","fim":"\#(fim)"}"#, token: token ?? cenario.membro)
            }
            func campo(_ r: TestResponse) -> String? { (r.object["detalhes"] as? [String: Any])?["campo"] as? String }
            // What a move writes: the booking's and its code's streams, and the agendas (other
            // streams move on their own meanwhile: Bruno's charge, the e-mails).
            let proprios = [StreamNames.reserva(try #require(Reserva.ID(id))), StreamName("checkin-\(id)")]
            func escritos() async throws -> Int {
                try await harness.allEvents().count { proprios.contains($0.stream) || $0.stream.category == "agenda" }
            }

            // What is refused writes nothing.
            let antes = try await escritos()
            let outraDuracao = try await mover("2026-11-26T16:00:00-03:00", "2026-11-26T18:00:00-03:00")
            #expect(outraDuracao.status == .unprocessableContent && campo(outraDuracao) == "fim", "\(String(buffer: outraDuracao.body))")
            let ocupado = try await mover("2026-11-25T14:30:00-03:00", "2026-11-25T15:30:00-03:00")
            #expect(ocupado.status == .conflict && ocupado.erro == "horario_indisponivel", "\(String(buffer: ocupado.body))")
            let fechado = try await mover("2026-11-25T22:00:00-03:00", "2026-11-25T23:00:00-03:00")
            #expect(fechado.status == .unprocessableContent && campo(fechado) == "inicio", "\(String(buffer: fechado.body))")
            let passado = try await mover("2026-11-23T06:00:00-03:00", "2026-11-23T07:00:00-03:00")
            #expect(passado.status == .unprocessableContent && campo(passado) == "inicio", "\(String(buffer: passado.body))")
            #expect(try await mover("2026-11-26T16:00:00-03:00", "2026-11-26T17:00:00-03:00", token: bruno).status == .notFound)
            let semFim = try await client.json(
                .post, "/api/reservas/\(id)/remarcacao", #"{"inicio":"2026-11-26T16:00:00-03:00"}"#, token: cenario.membro)
            #expect(semFim.status == .badRequest || semFim.status == .unprocessableContent, "\(String(buffer: semFim.body))")
            // Bruno's hold is not paid yet: it does not move (cancelling it costs nothing).
            let pendente = try await mover(
                "2026-11-26T09:00:00-03:00", "2026-11-26T10:00:00-03:00", token: bruno, reserva: dele.object["id"] as? String)
            #expect(pendente.status == .conflict && pendente.erro == "reserva_nao_confirmada", "\(String(buffer: pendente.body))")
            #expect(try await escritos() == antes)

            // To Thursday 16:00: the same price, the new time.
            let movida = try await mover("2026-11-26T16:00:00-03:00", "2026-11-26T17:00:00-03:00")
            #expect(movida.status == .ok, "\(String(buffer: movida.body))")
            #expect(Self.horario(movida.object["inicio"] as? String ?? "") == Self.horario("2026-11-26T16:00:00-03:00"))
            #expect(movida.object["total"] as? Int == 5_000 && movida.object["status"] as? String == "confirmada")
            #expect(movida.object["remarcacoes"] as? Int == 1 && movida.object["dias"] as? [String] == ["2026-11-26"])
            // Sent again, it changes nothing.
            let depois = try await escritos()
            #expect(try await mover("2026-11-26T16:00:00-03:00", "2026-11-26T17:00:00-03:00").status == .ok)
            #expect(try await escritos() == depois)

            // Wednesday 10:00 is free for Bruno; Thursday 16:00 is not.
            let livre = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: bruno)
            #expect(livre.status == .created, "\(String(buffer: livre.body))")
            let tomado = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-26T16:30:00-03:00", "2026-11-26T17:30:00-03:00"), token: bruno)
            #expect(tomado.status == .conflict && tomado.erro == "horario_indisponivel", "\(String(buffer: tomado.body))")

            // The same code, its window around the new start (15 minutes before to 30 after).
            let checkin = try await eventually("the moved check-in window") {
                let r = try await client.json(.get, "/api/reservas/\(id)/checkin", token: cenario.membro).object
                let abre = (r["janela"] as? [String: Any])?["abreEm"] as? String
                return abre.map(Self.horario) == Self.horario("2026-11-26T15:45:00-03:00") ? r : nil
            }
            #expect(checkin["codigo"] as? String == codigo)
            // Her list and the desk's days say the new time.
            _ = try await eventually("her list with the new time") {
                let minhas = try await client.json(.get, "/api/reservas", token: cenario.membro).object["itens"] as? [[String: Any]] ?? []
                let dela = minhas.first { $0["id"] as? String == id }
                return (dela?["inicio"] as? String).map(Self.horario) == Self.horario("2026-11-26T16:00:00-03:00") ? true : nil
            }
            func doDia(_ data: String) async throws -> [String] {
                let r = try await client.json(.get, "/api/admin/reservas?unidade=\(cenario.unidade)&data=\(data)", token: cenario.admin)
                return (r.object["itens"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            }
            _ = try await eventually("the desk's days") {
                let (quarta, quinta) = (try await doDia("2026-11-25"), try await doDia("2026-11-26"))
                return !quarta.contains(id) && quinta.contains(id) ? true : nil
            }

            // The e-mail: the new time, and the invitation moved (same UID, the next SEQUENCE).
            let email = try await eventually("the move's e-mail") {
                try harness.emails().first { $0.subject?.hasPrefix("Reserva remarcada") == true }
            }
            #expect(email.text?.contains("Você mudou") == true, "\(email.text ?? "")")
            let ics = String(decoding: try #require(email.attachments.first { $0.filename.hasSuffix(".ics") }).data, as: UTF8.self)
            #expect(ics.contains("UID:reserva-\(id.uppercased())@coworkflow") || ics.contains("UID:reserva-\(id)@coworkflow"), "\(ics)")
            #expect(ics.contains("DTSTART:20261126T190000Z") && ics.contains("SEQUENCE:1") && ics.contains("METHOD:REQUEST"), "\(ics)")

            // Cancelled after the move: the terms count from the new start (still free), and the
            // calendar's cancellation is above the move's revision.
            let cancelada = try await client.json(.post, "/api/reservas/\(id)/cancelamento", "{}", token: cenario.membro)
            #expect(cancelada.status == .ok && (cancelada.object["cancelamento"] as? [String: Any])?["multa"] as? Int == 0)
            let cancelamento = try await eventually("the cancellation's e-mail") {
                try harness.emails().first { $0.subject == "Reserva cancelada" }
            }
            let icsCancelado = String(decoding: try #require(cancelamento.attachments.first).data, as: UTF8.self)
            #expect(icsCancelado.contains("SEQUENCE:2") && icsCancelado.contains("METHOD:CANCEL"), "\(icsCancelado)")
            // And Thursday 16:00 is free again.
            let deNovo = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-26T16:30:00-03:00", "2026-11-26T17:30:00-03:00"), token: bruno)
            #expect(deNovo.status == .created, "\(String(buffer: deNovo.body))")
        }
    }

    @Test("where a booking can move: its space's free time with its own counted as free, for its member and the desk only")
    func the_times_a_booking_can_move_to() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))  // Monday 23/11 08:00 in São Paulo
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            #expect(try await client.register("bruno@example.com", nome: "Bruno").status == .created)
            let bruno = try await client.token("bruno@example.com")
            // Hers on Wednesday 10:00–11:00; Bruno's from 11:20, leaving 20 minutes between them
            // (the room's minimum is 30: too short to book alone).
            let dela = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: cenario.membro)
            let id = try #require(dela.object["id"] as? String, "\(String(buffer: dela.body))")
            let dele = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T11:20:00-03:00", "2026-11-25T12:20:00-03:00"), token: bruno)
            #expect(dele.status == .created, "\(String(buffer: dele.body))")
            func livres(_ r: TestResponse) -> [(Date, Date)] {
                (r.object["livres"] as? [[String: Any]] ?? []).map {
                    (Self.horario($0["inicio"] as? String ?? ""), Self.horario($0["fim"] as? String ?? ""))
                }
            }
            let (dez, onzeEVinte) = (Self.horario("2026-11-25T10:00:00-03:00"), Self.horario("2026-11-25T11:20:00-03:00"))
            let dozeEVinte = Self.horario("2026-11-25T12:20:00-03:00")

            // The space's availability, for anyone: neither her hour nor the 20 minutes after it
            // (once the day's read model has both: free up to 10:00, and again from his end).
            let publica = try await eventually("both bookings on the space's day") {
                let r = try await client.json(.get, "/api/espacos/\(cenario.sala)/disponibilidade?data=2026-11-25")
                let l = livres(r)
                return l.contains { $0.1 == dez } && !l.contains { $0.0 <= dez && $0.1 > dez } && l.contains { $0.0 == dozeEVinte } ? r : nil
            }
            #expect(!livres(publica).contains { $0.1 >= onzeEVinte && $0.0 < onzeEVinte }, "\(String(buffer: publica.body))")
            // Hers to move: from the opening to 11:20 in one stretch (so 10:20–11:20 is a move).
            for token in [cenario.membro, cenario.admin] {
                let r = try await eventually("her times to move") {
                    let r = try await client.json(.get, "/api/reservas/\(id)/remarcacao/horarios?data=2026-11-25", token: token)
                    return r.status == .ok && livres(r).contains { $0.0 <= dez && $0.1 == onzeEVinte } ? r : nil
                }
                #expect(r.object["espacoId"] as? String == cenario.sala)
            }
            // Another member's booking is not found; the date is required and checked.
            #expect(try await client.json(.get, "/api/reservas/\(id)/remarcacao/horarios?data=2026-11-25", token: bruno).status == .notFound)
            #expect(try await client.json(.get, "/api/reservas/\(id)/remarcacao/horarios?data=2026-11-25").status == .unauthorized)
            for consulta in ["", "?data=25/11/2026"] {
                let r = try await client.json(.get, "/api/reservas/\(id)/remarcacao/horarios\(consulta)", token: cenario.membro)
                let campo = (r.object["detalhes"] as? [String: Any])?["campo"] as? String
                #expect(r.status == .badRequest && campo == "data", "\(String(buffer: r.body))")
            }
        }
    }

    @Test(
        "a booking moved before checkin issued its code gets it, for the new time, in the move's append; checkin's issue, decided on the old time, does not commit after it"
    )
    func a_move_issues_the_code_checkin_has_not() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))  // Monday 23/11 08:00 in São Paulo
        defer { harness.removeFiles() }
        try await harness.test(reacting: []) { client in
            let cenario = try await Cenario.make(harness, client)
            let id = try await reservaConfirmada(client, cenario)  // today 09:00–11:00; no reactors: no code yet
            let reservaId = try #require(UUID(uuidString: id))
            // Checkin's issue, decided now on the booking's time (09:00): it commits after the move, or not at all.
            let confirmada = try #require(try await harness.allEvents().last { $0.type == "ReservaConfirmada" })
            let tardia = try await harness.backend.negocio.checkin.reagir(confirmada)
            #expect(tardia.count == 1)

            let movida = try await client.json(
                .post, "/api/reservas/\(id)/remarcacao", #"{"inicio":"2026-11-23T14:00:00-03:00","fim":"2026-11-23T16:00:00-03:00"}"#,
                token: cenario.admin)
            #expect(movida.status == .ok, "\(String(buffer: movida.body))")
            await #expect(throws: WrongExpectedVersion.self) { _ = try await harness.store.append(tardia) }

            // One code, for the new time, its window around 14:00 (the unit's default tolerance).
            let eventos = try await harness.store.readStream(StreamName(category: "checkin", id: reservaId.lowercasedString), from: 1, limit: 10)
            #expect(eventos.map(\.type) == ["CheckinLiberado"])
            let evento = try #require(eventos.first)
            guard case .liberado(let liberado)? = try Checkin.Event.decode(type: evento.type, data: evento.data, using: EventJSON.decoder) else {
                Issue.record("no CheckinLiberado")
                return
            }
            #expect(liberado.inicio == Self.horario("2026-11-23T14:00:00-03:00") && liberado.fim == Self.horario("2026-11-23T16:00:00-03:00"))
            #expect(liberado.janela.abreEm < liberado.inicio && liberado.janela.fechaEm > liberado.inicio)
            #expect(liberado.janela.abreEm > Self.horario("2026-11-23T11:00:00-03:00"))
            // Checkin's reaction, decided again (the bus redelivers it), finds the code: nothing to write.
            #expect(try await harness.backend.negocio.checkin.reagir(confirmada).isEmpty)
        }
    }

    @Test("the member moves within the free window and not to a dearer time; the front desk moves any booking until it starts or the check-in")
    func window_price_and_front_desk() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            // Wednesday evenings cost half as much again.
            let pico = try await client.json(
                .post, "/api/admin/espacos/\(cenario.sala)/precos/regras",
                #"{"tipo":"horario_de_pico","dias":["quarta"],"inicioMinutos":1080,"fimMinutos":1200,"multiplicadorBP":15000}"#, token: cenario.admin)
            #expect(pico.status == .created || pico.status == .ok, "\(String(buffer: pico.body))")
            let feita = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: cenario.membro)
            let id = try #require(feita.object["id"] as? String, "\(String(buffer: feita.body))")
            _ = try await client.pagar(id, token: cenario.membro)
            _ = try await eventually("the check-in code") {
                try await client.json(.get, "/api/reservas/\(id)/checkin", token: cenario.membro).status == .ok ? true : nil
            }
            func mover(_ inicio: String, _ fim: String, token: String) async throws -> TestResponse {
                try await client.json(.post, "/api/reservas/\(id)/remarcacao", #"{"inicio":"\#(inicio)","fim":"\#(fim)"}"#, token: token)
            }
            let proprios = [StreamNames.reserva(try #require(Reserva.ID(id))), StreamName("checkin-\(id)")]
            func escritos() async throws -> Int {
                try await harness.allEvents().count { proprios.contains($0.stream) || $0.stream.category == "agenda" }
            }
            let antes = try await escritos()
            let maisCara = try await mover("2026-11-25T18:00:00-03:00", "2026-11-25T19:00:00-03:00", token: cenario.membro)
            #expect(maisCara.status == .conflict && maisCara.erro == "remarcacao_mais_cara", "\(String(buffer: maisCara.body))")
            // Tuesday noon: 22 hours before, past the free window of 24.
            clock.set(Self.horario("2026-11-24T12:00:00-03:00"))
            let tarde = try await mover("2026-11-25T15:00:00-03:00", "2026-11-25T16:00:00-03:00", token: cenario.membro)
            #expect(tarde.status == .conflict && tarde.erro == "remarcacao_fora_do_prazo", "\(String(buffer: tarde.body))")
            #expect(try await escritos() == antes)

            // The front desk moves it anyway, to the dearer evening: the price stays.
            let pelaRecepcao = try await mover("2026-11-25T18:00:00-03:00", "2026-11-25T19:00:00-03:00", token: cenario.admin)
            #expect(pelaRecepcao.status == .ok && pelaRecepcao.object["total"] as? Int == 5_000, "\(String(buffer: pelaRecepcao.body))")
            let email = try await eventually("the move's e-mail") {
                try harness.emails().first { $0.subject?.hasPrefix("Reserva remarcada") == true }
            }
            #expect(email.text?.contains("A recepção mudou") == true, "\(email.text ?? "")")
            // The trail names who moved it.
            let movida = try #require(try await harness.allEvents().last { $0.type == "ReservaRemarcada" })
            #expect(movida.metadata.actor != nil && movida.metadata.actor != (feita.object["usuarioId"] as? String))

            // Checked in at 17:50: it no longer moves; started, not even by the desk.
            clock.set(Self.horario("2026-11-25T17:50:00-03:00"))
            let codigo = try await eventually("the moved window") {
                let r = try await client.json(.get, "/api/reservas/\(id)/checkin", token: cenario.membro).object
                return (r["janela"] as? [String: Any])?["abreEm"].flatMap { $0 as? String }.map(Self.horario)
                    == Self.horario("2026-11-25T17:45:00-03:00") ? r["codigo"] as? String : nil
            }
            let presente = try await client.json(.post, "/api/checkin", #"{"codigo":"\#(codigo)","reservaId":"\#(id)"}"#, token: cenario.membro)
            #expect(presente.status == .ok, "\(String(buffer: presente.body))")
            let aposCheckin = try await mover("2026-11-25T20:00:00-03:00", "2026-11-25T21:00:00-03:00", token: cenario.admin)
            #expect(aposCheckin.status == .conflict && aposCheckin.erro == "checkin_realizado", "\(String(buffer: aposCheckin.body))")
            clock.set(Self.horario("2026-11-25T18:10:00-03:00"))
            let iniciada = try await mover("2026-11-25T20:00:00-03:00", "2026-11-25T21:00:00-03:00", token: cenario.admin)
            #expect(iniciada.status == .conflict && iniciada.erro == "ja_iniciada", "\(String(buffer: iniciada.body))")
        }
    }

    @Test("ten paid bookings moved at once onto one free hour of a room: one gets it, the others keep their own time")
    func ten_moves_onto_one_hour() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            var ids: [String] = []
            for hora in 8..<18 {
                let feita = try await client.json(
                    .post, "/api/reservas",
                    pedido(
                        cenario.sala, "2026-11-25T\(String(format: "%02d", hora)):00:00-03:00",
                        "2026-11-25T\(String(format: "%02d", hora + 1)):00:00-03:00"),
                    token: cenario.membro)
                let id = try #require(feita.object["id"] as? String, "\(String(buffer: feita.body))")
                _ = try await client.pagar(id, token: cenario.membro)
                ids.append(id)
            }
            for id in ids {
                _ = try await eventually("the check-in code") {
                    try await client.json(.get, "/api/reservas/\(id)/checkin", token: cenario.membro).status == .ok ? true : nil
                }
            }
            let ana = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
            let reservas = harness.backend.reservas
            let (inicio, fim) = (Self.horario("2026-11-26T10:00:00-03:00"), Self.horario("2026-11-26T11:00:00-03:00"))
            let status = try await withThrowingTaskGroup(of: (String, Int).self) { group in
                for (indice, id) in ids.enumerated() {
                    group.addTask {
                        do {
                            _ = try await reservas.remarcar(
                                id, inicio: inicio, fim: fim, usuario: ana, admin: false, caller: Caller(requestId: "m\(indice)", usuario: ana))
                            return (id, 200)
                        } catch let erro as ServiceError {
                            return (id, erro.codigo == "horario_indisponivel" ? 409 : erro.status)
                        }
                    }
                }
                return try await group.reduce(into: [String: Int]()) { $0[$1.0] = $1.1 }
            }
            #expect(status.values.filter { $0 == 200 }.count == 1, "\(status)")
            #expect(status.values.filter { $0 == 409 }.count == 9, "\(status)")
            // Thursday holds the one that moved; Wednesday the nine that did not, and only them.
            let sala = try #require(UUID(uuidString: cenario.sala))
            func agenda(_ dia: String) async throws -> Agenda.State {
                let events = try await harness.store.readStream(StreamNames.agenda(sala, try #require(DataLocal(dia))))
                let decider = Agenda.decider(espacoId: sala, data: try #require(DataLocal(dia)))
                return try decider.fold(events.compactMap { try Agenda.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) })
            }
            let quinta = try await agenda("2026-11-26").ocupacoes.keys.map(\.lowercasedString)
            let quarta = try await agenda("2026-11-25").ocupacoes.keys.map(\.lowercasedString)
            let vencedora = try #require(status.first { $0.value == 200 }?.key)
            #expect(quinta == [vencedora.lowercased()])
            #expect(Set(quarta) == Set(ids.map { $0.lowercased() }).subtracting([vencedora.lowercased()]))
        }
    }
}
