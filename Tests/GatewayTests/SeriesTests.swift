import Domain
import EventStore
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import Services

/// Recurring bookings: one request books the same slot week after week, each occurrence an
/// ordinary booking (its own slot, price, charge and cancellation); an occurrence the space
/// refuses is recorded with its reason and the rest are booked; the member cancels the rest of
/// the series at once.
@Suite("Recurring bookings")
struct SeriesTests {
    static let chave: HTTPField.Name = .init("Idempotency-Key")!

    /// EQUIPE: 10 % off, two uses, valid through 2026.
    static func cupomDeDoisUsos(_ client: any TestClientProtocol, _ cenario: Cenario) async throws {
        let criado = try await client.json(
            .post, "/api/admin/cupons",
            #"{"codigo":"EQUIPE","desconto":{"tipo":"percentual","bp":1000},"validoDe":"2026-11-01T00:00:00Z","validoAte":"2027-01-01T00:00:00Z","maxUsos":2}"#,
            token: cenario.admin)
        #expect(criado.status == .created, "\(String(buffer: criado.body))")
    }

    func serie(
        _ espaco: String, _ inicio: String, _ fim: String, frequencia: String = "semanal", ocorrencias: Int = 4, cartao: String? = "tok_visa",
        pagamento: String? = nil
    ) -> String {
        let forma = pagamento ?? cartao.map { #"{"metodo":"cartao","cartaoToken":"\#($0)"}"# }
        return #"{"espacoId":"\#(espaco)","inicio":"\#(inicio)","fim":"\#(fim)","frequencia":"\#(frequencia)","ocorrencias":\#(ocorrencias)"#
            + (forma.map { #","pagamento":\#($0)"# } ?? "") + "}"
    }

    @Test("a weekly series books each free occurrence by card, records the taken one, replays under its key, and is cancelled from an occurrence on")
    func weekly_series_by_card() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 23/11 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            func escritos() async throws -> Int {
                try await harness.allEvents().filter { ["serie", "reserva"].contains($0.stream.category) }.count
            }
            // Bad input: a clear error naming the field, and nothing written.
            let antes = try await escritos()
            let (inicio, fim) = ("2026-11-24T10:00:00-03:00", "2026-11-24T11:00:00-03:00")
            for (corpo, campo) in [
                (serie(cenario.sala, inicio, fim, frequencia: "anual"), "frequencia"),
                (serie(cenario.sala, inicio, fim, ocorrencias: 1), "ocorrencias"),
                (serie(cenario.sala, inicio, fim, ocorrencias: 27), "ocorrencias"),
                (serie(cenario.sala, inicio, fim, pagamento: #"{"metodo":"pix"}"#), "pagamento.metodo"),
                (serie(cenario.sala, inicio, fim, pagamento: #"{"metodo":"boleto"}"#), "pagamento.metodo"),
                (serie(cenario.sala, inicio, fim, pagamento: #"{"metodo":"cartao"}"#), "pagamento.cartaoToken"),
                (serie("00000000-0000-4000-8000-000000000009", inicio, fim), "espacoId"),
                (serie(cenario.sala, fim, inicio), "fim"),
                // Monday to Friday from a Saturday.
                (serie(cenario.sala, "2026-11-28T10:00:00-03:00", "2026-11-28T11:00:00-03:00", frequencia: "dias_uteis"), "inicio"),
            ] {
                let recusado = try await client.json(.post, "/api/reservas/series", corpo, token: cenario.membro)
                #expect(recusado.status == .unprocessableContent, "\(corpo): \(String(buffer: recusado.body))")
                #expect((recusado.object["detalhes"] as? [String: Any])?["campo"] as? String == campo, "\(corpo)")
            }
            #expect(try await escritos() == antes)

            // Caio holds the third Tuesday's hour (in part).
            #expect(try await client.register("caio@example.com", nome: "Caio").status == .created)
            let caio = try await client.token("caio@example.com")
            let deCaio = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-12-08T10:30:00-03:00", "2026-12-08T11:30:00-03:00"), token: caio)
            #expect(deCaio.status == .created)

            // Four Tuesdays at 10:00, by card: three booked, the taken one recorded with its reason.
            let corpo = serie(cenario.sala, inicio, fim)
            let criada = try await client.json(.post, "/api/reservas/series", corpo, token: cenario.membro, headers: [Self.chave: "serie-1"])
            #expect(criada.status == .created, "\(String(buffer: criada.body))")
            let id = try #require(criada.object["id"] as? String)
            #expect(criada.object["frequencia"] as? String == "semanal")
            #expect(criada.object["reservadas"] as? Int == 3 && criada.object["recusadas"] as? Int == 1)
            let ocorrencias = try #require(criada.object["ocorrencias"] as? [[String: Any]])
            #expect(ocorrencias.map { $0["numero"] as? Int } == [1, 2, 3, 4])
            #expect(
                ocorrencias.map { $0["inicio"] as? String } == [
                    "2026-11-24T13:00:00Z", "2026-12-01T13:00:00Z", "2026-12-08T13:00:00Z", "2026-12-15T13:00:00Z",
                ])
            #expect(ocorrencias.map { $0["fim"] as? String }.last == "2026-12-15T14:00:00Z")
            let recusa = try #require(ocorrencias[2]["recusa"] as? [String: Any])
            #expect(recusa["codigo"] as? String == "horario_indisponivel" && ocorrencias[2]["reservaId"] == nil)
            let reservas = ocorrencias.compactMap { $0["reservaId"] as? String }
            #expect(reservas.count == 3 && ocorrencias[0]["total"] as? Int == 5_000 && ocorrencias[0]["status"] as? String == "solicitada")

            // The same request again (its answer was lost): the same series, nothing booked twice.
            let escritosAntes = try await escritos()
            let repetida = try await client.json(.post, "/api/reservas/series", corpo, token: cenario.membro, headers: [Self.chave: "serie-1"])
            #expect(repetida.status == .created && repetida.object["id"] as? String == id)
            #expect(try await escritos() == escritosAntes)
            let registro = try #require(try await harness.allEvents().first { $0.type == SerieDeReservas.Catalogo.criada.type })
            #expect(registro.stream.description == "serie-\(id)")

            // Each occurrence is an ordinary booking: charged to the card, confirmed, named in the member's list.
            for reserva in reservas { _ = try await client.reserva(reserva, token: cenario.membro, status: "confirmada") }
            let minhas = try await client.json(.get, "/api/reservas", token: cenario.membro).object["itens"] as? [[String: Any]] ?? []
            let naSerie = minhas.compactMap { $0["serie"] as? [String: Any] }.filter { $0["serieId"] as? String == id }
            #expect(naSerie.compactMap { $0["numero"] as? Int }.sorted() == [1, 2, 4])
            // One notice for the series (what was booked and what not, one invitation with the three
            // bookings), not a confirmation and a payment e-mail per booking.
            let aviso = try await eventually("the series' e-mail") {
                try harness.emails().first { $0.subject?.hasPrefix("Série reservada") == true }
            }
            #expect(aviso.subject == "Série reservada: Sala Ipê, 3 de 4")
            #expect(aviso.text?.contains("não reservada — o espaço já está reservado") == true, "\(aviso.text ?? "")")
            let convite = try #require(aviso.attachments.first { $0.filename.hasSuffix(".ics") })
            let calendario = String(decoding: convite.data, as: UTF8.self)
            #expect(calendario.components(separatedBy: "BEGIN:VEVENT").count - 1 == 3)
            #expect(calendario.contains("DTSTART:20261124T130000Z") && calendario.contains("DTSTART:20261215T130000Z"))
            #expect(!calendario.contains("DTSTART:20261208T130000Z"))
            #expect(
                !(try harness.emails().contains {
                    $0.subject?.hasPrefix("Reserva confirmada") == true || $0.subject?.hasPrefix("Pagamento recebido") == true
                }))
            let vista = try await client.json(.get, "/api/reservas/series/\(id)", token: cenario.membro)
            #expect(vista.status == .ok)
            #expect(
                (vista.object["ocorrencias"] as? [[String: Any]])?.compactMap { $0["status"] as? String } == [
                    "confirmada", "confirmada", "confirmada",
                ])

            // Another member neither sees nor cancels it.
            #expect(try await client.json(.get, "/api/reservas/series/\(id)", token: caio).status == .notFound)
            #expect(try await client.json(.post, "/api/reservas/series/\(id)/cancelamento", token: caio).status == .notFound)
            #expect(try await client.json(.get, "/api/reservas/series/\(UUID())", token: cenario.membro).status == .notFound)

            // Cancelled from the second on: the second and the fourth, each under the unit's policy
            // (more than 24 h ahead: refunded whole); the first stays.
            let fora = try await client.json(
                .post, "/api/reservas/series/\(id)/cancelamento", #"{"aPartirDe":9}"#, token: cenario.membro)
            #expect(fora.status == .unprocessableContent && (fora.object["detalhes"] as? [String: Any])?["campo"] as? String == "aPartirDe")
            let cancelada = try await client.json(
                .post, "/api/reservas/series/\(id)/cancelamento", #"{"aPartirDe":2,"motivo":"o projeto acabou"}"#, token: cenario.membro)
            #expect(cancelada.status == .ok, "\(String(buffer: cancelada.body))")
            #expect(cancelada.object["canceladaEm"] as? String != nil)
            let ultimo = try #require(cancelada.object["ultimoCancelamento"] as? [String: Any])
            #expect((ultimo["reservas"] as? [String])?.sorted() == [reservas[1], reservas[2]].sorted() && ultimo["aPartirDe"] as? Int == 2)
            let segunda = try await client.reserva(reservas[1], token: cenario.membro, status: "cancelada")
            #expect((segunda["cancelamento"] as? [String: Any])?["reembolso"] as? Int == 5_000)
            _ = try await client.reserva(reservas[2], token: cenario.membro, status: "cancelada")
            _ = try await client.reserva(reservas[0], token: cenario.membro, status: "confirmada")
            // One notice for what the series' cancellation cancelled: each booking with what comes
            // back, the reason, the total, and one calendar cancellation taking both out of the
            // calendar the series' invitation filled.
            let avisoDoCancelamento = try await eventually("the series' cancellation e-mail") {
                try harness.emails().first { $0.subject?.hasPrefix("Série cancelada") == true }
            }
            #expect(avisoDoCancelamento.subject == "Série cancelada: Sala Ipê, 2 reservas")
            let texto = avisoDoCancelamento.text ?? ""
            #expect(texto.contains("- 01/12/2026, 10:00–11:00: R$ 50,00 de volta\n- 15/12/2026, 10:00–11:00: R$ 50,00 de volta"), "\(texto)")
            #expect(texto.contains("Motivo: o projeto acabou.") && texto.contains("Você receberá R$ 100,00 de volta."), "\(texto)")
            let anexo = try #require(avisoDoCancelamento.attachments.first { $0.contentType.lowercased().contains("method=cancel") })
            let calendarioCancelado = String(decoding: anexo.data, as: UTF8.self).lowercased()
            #expect(calendarioCancelado.components(separatedBy: "begin:vevent").count - 1 == 2)
            #expect(reservas[1...].allSatisfy { calendarioCancelado.contains("uid:reserva-\($0.lowercased())@coworkflow") })
            #expect(!calendarioCancelado.contains(reservas[0].lowercased()))
            // Not a cancellation and a refund e-mail per booking: once notificacoes has handled
            // both bookings' cancellations and refunds, none of those was sent.
            try await semAvisosPorReserva(harness, reservas: Array(reservas[1...]))
            let registroDoCancelamento = try #require(
                try await harness.allEvents().first { $0.type == SerieDeReservas.Catalogo.cancelada.type })
            let gravado = try JSONSerialization.jsonObject(with: registroDoCancelamento.data) as? [String: Any]
            #expect((gravado?["canceladas"] as? [String])?.map { $0.lowercased() }.sorted() == [reservas[1], reservas[2]].sorted())
            #expect(gravado?["aPartirDe"] as? Int == 2)
            // Nothing left from there on.
            let deNovo = try await client.json(.post, "/api/reservas/series/\(id)/cancelamento", #"{"aPartirDe":2}"#, token: cenario.membro)
            #expect(deNovo.status == .conflict && deNovo.object["erro"] as? String == "nada_a_cancelar")

            // The first occurrence, checked into ten minutes before its start, stays even when an
            // operator cancels the whole series (an operator may cancel a checked-in booking alone).
            let codigo = try await eventually("the first booking's check-in code") {
                try await client.json(.get, "/api/reservas/\(reservas[0])/checkin", token: cenario.membro).object["codigo"] as? String
            }
            clock.set(try Date("2026-11-24T09:50:00-03:00", strategy: .iso8601))
            let presente = try await client.json(
                .post, "/api/checkin", #"{"codigo":"\#(codigo)","reservaId":"\#(reservas[0])"}"#, token: cenario.membro)
            #expect(presente.status == .ok, "\(String(buffer: presente.body))")
            let peloOperador = try await client.json(.post, "/api/reservas/series/\(id)/cancelamento", "{}", token: cenario.admin)
            #expect(peloOperador.status == .conflict && peloOperador.object["erro"] as? String == "nada_a_cancelar", "\(peloOperador.object)")
            _ = try await client.reserva(reservas[0], token: cenario.membro, status: "confirmada")
        }
    }

    /// Waits until notificacoes has handled the cancellation and the concluded refund of each of
    /// `reservas` (cancelled with their series), then checks none of them sent its own e-mail.
    func semAvisosPorReserva(_ harness: Harness, reservas: [String]) async throws {
        let ids = Set(reservas.map { $0.lowercased() })
        func daReserva(_ event: RecordedEvent) -> Bool {
            ids.contains(String(event.stream.description.lowercased().split(separator: "-", maxSplits: 1).last ?? ""))
        }
        _ = try await eventually("notificacoes handling the bookings' cancellations and refunds") { () -> Bool? in
            let eventos = try await harness.allEvents().filter {
                ($0.type == Reserva.Catalogo.cancelada.type || $0.type == Pagamento.Catalogo.reembolsoConcluido.type) && daReserva($0)
            }
            guard eventos.count == 2 * ids.count else { return nil }
            let tratados = try await harness.store.inboxOutcomes(eventos.map(\.eventId), consumer: NotificacoesService.consumidor)
            return tratados.count == eventos.count ? true : nil
        }
        let avulsos = try harness.emails().filter { $0.subject == "Reserva cancelada" || $0.subject?.hasPrefix("Reembolso concluído") == true }
        #expect(avulsos.isEmpty, "\(avulsos.map { $0.subject ?? "" })")
    }

    @Test("an operator cancels a member's series refunded whole, or with aplicarMulta under the unit's policy; a member cannot choose")
    func operator_cancels_a_series_with_or_without_the_fee() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 23/11 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            // Two series of two weekdays each, today's occurrence hours ahead (inside the
            // policy's 24 h: a member cancelling now pays 50 %), tomorrow's outside.
            func serieConfirmada(_ hora: Int) async throws -> (id: String, reservas: [String]) {
                let corpo = serie(
                    cenario.sala, "2026-11-23T\(hora):00:00-03:00", "2026-11-23T\(hora + 1):00:00-03:00", frequencia: "dias_uteis", ocorrencias: 2)
                let criada = try await client.json(.post, "/api/reservas/series", corpo, token: cenario.membro)
                #expect(criada.status == .created, "\(String(buffer: criada.body))")
                let reservas = (criada.object["ocorrencias"] as? [[String: Any]] ?? []).compactMap { $0["reservaId"] as? String }
                try #require(reservas.count == 2)
                for reserva in reservas { _ = try await client.reserva(reserva, token: cenario.membro, status: "confirmada") }
                return (try #require(criada.object["id"] as? String), reservas)
            }
            func cancelamento(_ reserva: String) async throws -> (multa: Int?, reembolso: Int?) {
                let vista = try await client.reserva(reserva, token: cenario.membro, status: "cancelada")
                let cancelamento = vista["cancelamento"] as? [String: Any]
                return (cancelamento?["multa"] as? Int, cancelamento?["reembolso"] as? Int)
            }
            let primeira = try await serieConfirmada(14)
            let segunda = try await serieConfirmada(16)
            let total = try #require(try await client.reserva(primeira.reservas[0], token: cenario.membro, status: "confirmada")["total"] as? Int)

            // The member may not choose: refused naming the field, nothing cancelled.
            let escolha = try await client.json(
                .post, "/api/reservas/series/\(primeira.id)/cancelamento", #"{"aplicarMulta":false}"#, token: cenario.membro)
            #expect(escolha.status == .unprocessableContent, "\(String(buffer: escolha.body))")
            #expect((escolha.object["detalhes"] as? [String: Any])?["campo"] as? String == "aplicarMulta")
            _ = try await client.reserva(primeira.reservas[0], token: cenario.membro, status: "confirmada")

            // By default the operator's cancellation refunds each booking whole, today's too.
            let inteira = try await client.json(.post, "/api/reservas/series/\(primeira.id)/cancelamento", "{}", token: cenario.admin)
            #expect(inteira.status == .ok, "\(String(buffer: inteira.body))")
            for reserva in primeira.reservas {
                let valores = try await cancelamento(reserva)
                #expect(valores.multa == 0 && valores.reembolso == total, "\(valores)")
            }

            // With aplicarMulta, each as if the member had cancelled: today's pays the fee.
            let comMulta = try await client.json(
                .post, "/api/reservas/series/\(segunda.id)/cancelamento", #"{"aplicarMulta":true,"motivo":"pedido do membro"}"#,
                token: cenario.admin)
            #expect(comMulta.status == .ok, "\(String(buffer: comMulta.body))")
            let hoje = try await cancelamento(segunda.reservas[0])
            #expect(hoje.multa == total / 2 && hoje.reembolso == total - total / 2, "\(hoje)")
            let amanha = try await cancelamento(segunda.reservas[1])
            #expect(amanha.multa == 0 && amanha.reembolso == total, "\(amanha)")
        }
    }

    /// The member's series of three Wednesdays at 14:00 from 25/11, by card, each booking
    /// confirmed: the series' id, its bookings and the member's id.
    func tresQuartasConfirmadas(_ client: any TestClientProtocol, _ cenario: Cenario) async throws -> (String, [String], String) {
        let corpo = serie(cenario.sala, "2026-11-25T14:00:00-03:00", "2026-11-25T15:00:00-03:00", ocorrencias: 3)
        let criada = try await client.json(.post, "/api/reservas/series", corpo, token: cenario.membro)
        #expect(criada.status == .created, "\(String(buffer: criada.body))")
        let reservas = (criada.object["ocorrencias"] as? [[String: Any]] ?? []).compactMap { $0["reservaId"] as? String }
        try #require(reservas.count == 3)
        for reserva in reservas { _ = try await client.reserva(reserva, token: cenario.membro, status: "confirmada") }
        return (try #require(criada.object["id"] as? String), reservas, try #require(criada.object["usuarioId"] as? String))
    }

    @Test("a series whose notice goes after one of its bookings moved (notificacoes behind) still tells and invites it, at its new time")
    func series_notice_after_a_move() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 23/11 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        // notificacoes is down: the series is booked and paid, and its first booking moved.
        try await harness.test(reacting: Contexto.allCases.filter { $0 != .notificacoes }) { client in
            let feito = try await Cenario.make(harness, client)
            let (_, reservas, _) = try await tresQuartasConfirmadas(client, feito)
            let movida = try await client.json(
                .post, "/api/reservas/\(reservas[0])/remarcacao",
                #"{"inicio":"2026-11-25T10:00:00-03:00","fim":"2026-11-25T11:00:00-03:00"}"#, token: feito.membro)
            #expect(movida.status == .ok, "\(String(buffer: movida.body))")
            #expect(try harness.emails().isEmpty)
        }
        // Back: the series' notice names all three, the first at its new time, and invites all
        // three, the moved one at its new time under the move's SEQUENCE.
        try await harness.test { _ in
            let aviso = try await eventually("the series' e-mail") {
                try harness.emails().first { $0.subject?.hasPrefix("Série reservada") == true }
            }
            #expect(aviso.subject == "Série reservada: Sala Ipê, 3 de 3")
            #expect(aviso.text?.contains("reservada (R$ 50,00), mudada para") == true, "\(aviso.text ?? "")")
            let convite = try #require(aviso.attachments.first { $0.filename.hasSuffix(".ics") })
            let calendario = String(decoding: convite.data, as: UTF8.self)
            #expect(calendario.components(separatedBy: "BEGIN:VEVENT").count - 1 == 3, "\(calendario)")
            #expect(calendario.contains("DTSTART:20261125T130000Z") && !calendario.contains("DTSTART:20261125T170000Z"), "\(calendario)")
            #expect(calendario.contains("SEQUENCE:1"), "\(calendario)")
            // And the move's own notice, with the same time.
            _ = try await eventually("the move's e-mail") { try harness.emails().first { $0.subject?.hasPrefix("Reserva remarcada") == true } }
        }
    }

    @Test("a series' cancellation cut short after some bookings is finished by the next, whose one notice names them all")
    func series_cancellation_cut_short() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 23/11 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let (id, reservas, membro) = try await tresQuartasConfirmadas(client, cenario)

            // A cancellation of the series from the second on stopped after the second booking
            // (the process ended before the series recorded it): that booking is cancelled as the
            // series', and no notice went out for it.
            _ = try await harness.backend.reservas.cancelar(
                reservas[1], motivo: nil, usuario: membro, admin: false, daSerie: true, caller: Caller(requestId: "interrompida", usuario: membro))
            #expect(!(try await harness.allEvents().contains { $0.type == SerieDeReservas.Catalogo.cancelada.type }))

            // The member cancels again, from the third (the second reads as cancelled already):
            // the third is cancelled, and the series names both, from the second on.
            let cancelada = try await client.json(.post, "/api/reservas/series/\(id)/cancelamento", #"{"aPartirDe":3}"#, token: cenario.membro)
            #expect(cancelada.status == .ok, "\(String(buffer: cancelada.body))")
            let ultimo = try #require(cancelada.object["ultimoCancelamento"] as? [String: Any])
            #expect((ultimo["reservas"] as? [String])?.map { $0.lowercased() }.sorted() == reservas[1...].map { $0.lowercased() }.sorted())
            #expect(ultimo["aPartirDe"] as? Int == 2)
            let aviso = try await eventually("the series' cancellation e-mail") {
                try harness.emails().first { $0.subject?.hasPrefix("Série cancelada") == true }
            }
            #expect(aviso.subject == "Série cancelada: Sala Ipê, 2 reservas")
            #expect(aviso.text?.contains("- 02/12/2026, 14:00–15:00") == true && aviso.text?.contains("- 09/12/2026, 14:00–15:00") == true)
            try await semAvisosPorReserva(harness, reservas: Array(reservas[1...]))
            _ = try await client.reserva(reservas[0], token: cenario.membro, status: "confirmada")
        }
    }

    @Test("a series' cancellation cut short that nobody repeats is recorded by a timer a while later, whose one notice tells the member")
    func series_cancellation_cut_short_and_left() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 23/11 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let (_, reservas, membro) = try await tresQuartasConfirmadas(client, cenario)

            // A cancellation from the second on stopped after its bookings, before the series
            // recorded them (the process ended), and the member never cancels again.
            for reserva in reservas[1...] {
                _ = try await harness.backend.reservas.cancelar(
                    reserva, motivo: "mudamos de escritório", usuario: membro, admin: false, daSerie: true,
                    caller: Caller(requestId: "interrompida", usuario: membro))
                _ = try await client.reserva(reserva, token: cenario.membro, status: "cancelada")
            }
            // Not yet: the series names its bookings within its request; the timer waits.
            #expect(try await harness.backend.reservas.executarPrazosVencidos() == 0)
            clock.advance(by: 121)
            _ = try await eventually("the timers of the bookings the series did not name") {
                try await harness.backend.reservas.executarPrazosVencidos() > 0 ? true : nil
            }
            let registro = try await eventually("the series' record") {
                try await harness.allEvents().first { $0.type == SerieDeReservas.Catalogo.cancelada.type }
            }
            let gravado = try JSONSerialization.jsonObject(with: registro.data) as? [String: Any]
            #expect((gravado?["canceladas"] as? [String])?.map { $0.lowercased() }.sorted() == reservas[1...].map { $0.lowercased() }.sorted())
            #expect(gravado?["aPartirDe"] as? Int == 2 && gravado?["motivo"] as? String == "mudamos de escritório")
            let aviso = try await eventually("the series' cancellation e-mail") {
                try harness.emails().first { $0.subject?.hasPrefix("Série cancelada") == true }
            }
            #expect(aviso.subject == "Série cancelada: Sala Ipê, 2 reservas")
            try await semAvisosPorReserva(harness, reservas: Array(reservas[1...]))
            // Told once: the record dropped the timers, nothing is due any more.
            _ = try await eventually("the timers dropped") {
                try await harness.backend.reservas.executarPrazosVencidos() == 0 ? true : nil
            }
            #expect(try await harness.allEvents().filter { $0.type == SerieDeReservas.Catalogo.cancelada.type }.count == 1)
            #expect(try harness.emails().filter { $0.subject?.hasPrefix("Série cancelada") == true }.count == 1)
        }
    }

    @Test(
        "a monthly series books the same weekday of each month (from the 29th, the month's last), records one beyond the space's horizon, and the e-mail names the rule"
    )
    func monthly_series() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 23/11 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            // The last Tuesday of December, three months on: the third is past the space's 90 days.
            let corpo = serie(cenario.sala, "2026-12-29T10:00:00-03:00", "2026-12-29T11:00:00-03:00", frequencia: "mensal", ocorrencias: 3)
            let criada = try await client.json(.post, "/api/reservas/series", corpo, token: cenario.membro)
            #expect(criada.status == .created, "\(String(buffer: criada.body))")
            #expect(criada.object["frequencia"] as? String == "mensal")
            let ocorrencias = try #require(criada.object["ocorrencias"] as? [[String: Any]])
            #expect(
                ocorrencias.map { $0["inicio"] as? String } == ["2026-12-29T13:00:00Z", "2027-01-26T13:00:00Z", "2027-02-23T13:00:00Z"])
            #expect(criada.object["reservadas"] as? Int == 2 && criada.object["recusadas"] as? Int == 1)
            #expect(ocorrencias[2]["reservaId"] == nil && (ocorrencias[2]["recusa"] as? [String: Any])?["mensagem"] is String)
            let aviso = try await eventually("the series' e-mail") {
                try harness.emails().first { $0.subject?.hasPrefix("Série reservada") == true }
            }
            #expect(aviso.subject == "Série reservada: Sala Ipê, 2 de 3")
            #expect(aviso.text?.contains("(todo mês, na última terça-feira)") == true, "\(aviso.text ?? "")")
        }
    }

    @Test(
        "a series by the day of the month books the same day each month (a shorter month's last day instead), records one beyond the horizon, and the e-mail names the day"
    )
    func monthly_series_by_day_of_the_month() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 23/11 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            // The 30th: a Monday, a Wednesday, a Saturday, then February's last day, past the space's 90 days.
            let corpo = serie(cenario.sala, "2026-11-30T10:00:00-03:00", "2026-11-30T11:00:00-03:00", frequencia: "mensal_no_dia", ocorrencias: 4)
            let criada = try await client.json(.post, "/api/reservas/series", corpo, token: cenario.membro)
            #expect(criada.status == .created, "\(String(buffer: criada.body))")
            #expect(criada.object["frequencia"] as? String == "mensal_no_dia")
            let ocorrencias = try #require(criada.object["ocorrencias"] as? [[String: Any]])
            #expect(
                ocorrencias.map { $0["inicio"] as? String }
                    == ["2026-11-30T13:00:00Z", "2026-12-30T13:00:00Z", "2027-01-30T13:00:00Z", "2027-02-28T13:00:00Z"])
            #expect(criada.object["reservadas"] as? Int == 3 && criada.object["recusadas"] as? Int == 1)
            #expect(ocorrencias[3]["reservaId"] == nil)
            let aviso = try await eventually("the series' e-mail") {
                try harness.emails().first { $0.subject?.hasPrefix("Série reservada") == true }
            }
            #expect(aviso.subject == "Série reservada: Sala Ipê, 3 de 4")
            #expect(aviso.text?.contains("(todo mês, no dia 30 (ou no último dia dos meses que não o têm))") == true, "\(aviso.text ?? "")")
        }
    }

    @Test(
        "the rest of a series moves together or not at all: a taken slot or a dearer time refuses the whole move and writes nothing; the move frees the old hours, sends one e-mail and keeps the first"
    )
    func moving_the_rest_of_a_series() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 23/11 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            // Four Tuesdays at 10:00, by card, all confirmed.
            let criada = try await client.json(
                .post, "/api/reservas/series", serie(cenario.sala, "2026-11-24T10:00:00-03:00", "2026-11-24T11:00:00-03:00"),
                token: cenario.membro)
            #expect(criada.status == .created, "\(String(buffer: criada.body))")
            let id = try #require(criada.object["id"] as? String)
            let reservas = (criada.object["ocorrencias"] as? [[String: Any]] ?? []).compactMap { $0["reservaId"] as? String }
            #expect(reservas.count == 4)
            for reserva in reservas { _ = try await client.reserva(reserva, token: cenario.membro, status: "confirmada") }
            _ = try await eventually("the series' e-mail") { try harness.emails().first { $0.subject?.hasPrefix("Série reservada") == true } }

            func mover(_ corpo: String, token: String? = nil) async throws -> TestResponse {
                try await client.json(.post, "/api/reservas/series/\(id)/remarcacao", corpo, token: token ?? cenario.membro)
            }
            func corpo(_ aPartirDe: Int, _ inicio: String, _ fim: String) -> String {
                #"{"aPartirDe":\#(aPartirDe),"inicio":"\#(inicio)","fim":"\#(fim)"}"#
            }
            func escritos() async throws -> Int {
                try await harness.allEvents().count { ["serie", "reserva", "agenda", "checkin"].contains($0.stream.category) }
            }
            // Caio holds Wednesday 09/12 14:30; Wednesday evenings cost half as much again.
            #expect(try await client.register("caio@example.com", nome: "Caio").status == .created)
            let caio = try await client.token("caio@example.com")
            let deCaio = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-12-09T14:30:00-03:00", "2026-12-09T15:30:00-03:00"), token: caio)
            #expect(deCaio.status == .created)
            let pico = try await client.json(
                .post, "/api/admin/espacos/\(cenario.sala)/precos/regras",
                #"{"tipo":"horario_de_pico","dias":["quarta"],"inicioMinutos":1080,"fimMinutos":1200,"multiplicadorBP":15000}"#, token: cenario.admin)
            #expect(pico.status == .created || pico.status == .ok, "\(String(buffer: pico.body))")
            let antes = try await escritos()

            // Bad input: a clear error naming the field.
            for (errado, campo) in [
                (corpo(9, "2026-12-02T14:00:00-03:00", "2026-12-02T15:00:00-03:00"), "aPartirDe"),
                (corpo(2, "2026-12-09T14:00:00-03:00", "2026-12-09T15:00:00-03:00"), "inicio"),  // eight days on
                (corpo(2, "2026-12-02T15:00:00-03:00", "2026-12-02T14:00:00-03:00"), "fim"),
                (#"{"aPartirDe":2,"inicio":"amanhã","fim":"2026-12-02T15:00:00-03:00"}"#, "inicio"),
            ] {
                let recusado = try await mover(errado)
                #expect(recusado.status == .unprocessableContent || recusado.status == .badRequest, "\(errado): \(String(buffer: recusado.body))")
                #expect((recusado.object["detalhes"] as? [String: Any])?["campo"] as? String == campo, "\(errado): \(recusado.object)")
            }
            // Another member neither sees nor moves it.
            #expect(try await mover(corpo(2, "2026-12-02T16:00:00-03:00", "2026-12-02T17:00:00-03:00"), token: caio).status == .notFound)
            // From the second on to Wednesdays at 14:00: the third's Wednesday is taken, so none moves.
            let ocupado = try await mover(corpo(2, "2026-12-02T14:00:00-03:00", "2026-12-02T15:00:00-03:00"))
            #expect(ocupado.status == .conflict && ocupado.erro == "horario_indisponivel", "\(String(buffer: ocupado.body))")
            #expect((ocupado.object["mensagem"] as? String)?.hasPrefix("a ocorrência 3 (08/12/2026) não pode mudar:") == true, "\(ocupado.object)")
            #expect((ocupado.object["detalhes"] as? [String: Any])?["ocorrencia"] as? String == "3", "\(ocupado.object)")
            // To Wednesday evenings: dearer, so the member cannot (the desk could).
            let cara = try await mover(corpo(2, "2026-12-02T18:00:00-03:00", "2026-12-02T19:00:00-03:00"))
            #expect(cara.status == .conflict && cara.erro == "remarcacao_mais_cara", "\(String(buffer: cara.body))")
            #expect(try await escritos() == antes)

            // To Wednesdays at 16:00: the second, third and fourth move; the first stays.
            let movida = try await mover(corpo(2, "2026-12-02T16:00:00-03:00", "2026-12-02T17:00:00-03:00"))
            #expect(movida.status == .ok, "\(String(buffer: movida.body))")
            let ultima = try #require(movida.object["ultimaRemarcacao"] as? [String: Any])
            #expect(ultima["aPartirDe"] as? Int == 2 && (ultima["reservas"] as? [String])?.sorted() == Array(reservas[1...]).sorted(), "\(ultima)")
            #expect(
                (movida.object["ocorrencias"] as? [[String: Any]])?.map { $0["inicio"] as? String } == [
                    "2026-11-24T13:00:00Z", "2026-12-02T19:00:00Z", "2026-12-09T19:00:00Z", "2026-12-16T19:00:00Z",
                ], "\(movida.object)")
            for (reserva, inicio) in zip(reservas, ["2026-11-24T13:00:00Z", "2026-12-02T19:00:00Z", "2026-12-09T19:00:00Z", "2026-12-16T19:00:00Z"]) {
                let lida = try await eventually("\(reserva) at \(inicio)") {
                    let r = try await client.json(.get, "/api/reservas/\(reserva)", token: cenario.membro).object
                    return r["inicio"] as? String == inicio ? r : nil
                }
                #expect(lida["status"] as? String == "confirmada" && lida["total"] as? Int == 5_000)
            }
            // One write: every booking's move and the series' record in the same append.
            let registro = try #require(try await harness.allEvents().first { $0.type == SerieDeReservas.Catalogo.remarcada.type })
            let movidas = try await harness.allEvents().filter { $0.type == Reserva.Catalogo.remarcada.type }
            #expect(movidas.count == 3 && movidas.allSatisfy { $0.position < registro.position })
            // The old Tuesdays are free again: Caio takes the third's.
            let livre = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-12-08T10:00:00-03:00", "2026-12-08T11:00:00-03:00"), token: caio)
            #expect(livre.status == .created, "\(String(buffer: livre.body))")
            // The new hours are held: Caio cannot take the fourth's.
            let tomado = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-12-16T16:30:00-03:00", "2026-12-16T17:30:00-03:00"), token: caio)
            #expect(tomado.status == .conflict, "\(String(buffer: tomado.body))")
            // The check-in window moved with the booking.
            let janela = try await eventually("the fourth's check-in window at its new time") { () -> String? in
                let r = try await client.json(.get, "/api/reservas/\(reservas[3])/checkin", token: cenario.membro).object
                let abre = (r["janela"] as? [String: Any])?["abreEm"] as? String
                return abre?.hasPrefix("2026-12-16T18:") == true ? abre : nil
            }
            #expect(janela.hasPrefix("2026-12-16T18:"))

            // One e-mail for the move, one invitation moving the three (their UIDs, the next SEQUENCE).
            let aviso = try await eventually("the series' move e-mail") {
                try harness.emails().first { $0.subject?.hasPrefix("Série remarcada") == true }
            }
            #expect(aviso.subject == "Série remarcada: Sala Ipê, 3 reservas")
            let texto = aviso.text ?? ""
            #expect(texto.contains("Você mudou o horário de 3 reservas da sua série de Sala Ipê:\n"), "\(texto)")
            #expect(texto.contains("- era 01/12/2026, 10:00–11:00, agora é 02/12/2026, 16:00–17:00"), "\(texto)")
            let convite = String(decoding: try #require(aviso.attachments.first { $0.filename.hasSuffix(".ics") }).data, as: UTF8.self)
            #expect(convite.components(separatedBy: "BEGIN:VEVENT").count - 1 == 3)
            #expect(convite.contains("DTSTART:20261216T190000Z") && convite.contains("SEQUENCE:1"), "\(convite)")
            #expect(reservas[1...].allSatisfy { convite.lowercased().contains("uid:reserva-\($0.lowercased())@coworkflow") })
            // Not a notice per booking: once notificacoes has handled the three moves, none was sent.
            _ = try await eventually("notificacoes handling the three moves") { () -> Bool? in
                let tratados = try await harness.store.inboxOutcomes(movidas.map(\.eventId), consumer: NotificacoesService.consumidor)
                return tratados.count == 3 ? true : nil
            }
            #expect(!(try harness.emails().contains { $0.subject?.hasPrefix("Reserva remarcada") == true }))

            // Nothing left to move from the second on at that time.
            let deNovo = try await mover(corpo(2, "2026-12-02T16:00:00-03:00", "2026-12-02T17:00:00-03:00"))
            #expect(deNovo.status == .conflict && deNovo.erro == "nada_a_remarcar", "\(String(buffer: deNovo.body))")
        }
    }

    @Test("a Monday-to-Friday series moves to another hour of the same days, not to other days")
    func moving_a_weekday_series() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let criada = try await client.json(
                .post, "/api/reservas/series",
                serie(cenario.sala, "2026-11-25T08:00:00-03:00", "2026-11-25T09:00:00-03:00", frequencia: "dias_uteis", ocorrencias: 3),
                token: cenario.membro)
            #expect(criada.status == .created, "\(String(buffer: criada.body))")
            let id = try #require(criada.object["id"] as? String)
            for ocorrencia in criada.object["ocorrencias"] as? [[String: Any]] ?? [] {
                _ = try await client.reserva(try #require(ocorrencia["reservaId"] as? String), token: cenario.membro, status: "confirmada")
            }
            let outroDia = try await client.json(
                .post, "/api/reservas/series/\(id)/remarcacao",
                #"{"aPartirDe":1,"inicio":"2026-11-26T09:00:00-03:00","fim":"2026-11-26T10:00:00-03:00"}"#,
                token: cenario.membro)
            #expect(outroDia.status == .unprocessableContent, "\(String(buffer: outroDia.body))")
            #expect((outroDia.object["detalhes"] as? [String: Any])?["campo"] as? String == "inicio")
            // An hour on: each day frees 08:00 and takes 09:00 (the same days, one write each).
            let movida = try await client.json(
                .post, "/api/reservas/series/\(id)/remarcacao",
                #"{"aPartirDe":1,"inicio":"2026-11-25T09:00:00-03:00","fim":"2026-11-25T10:00:00-03:00"}"#,
                token: cenario.membro)
            #expect(movida.status == .ok, "\(String(buffer: movida.body))")
            #expect(
                (movida.object["ocorrencias"] as? [[String: Any]])?.map { $0["inicio"] as? String } == [
                    "2026-11-25T12:00:00Z", "2026-11-26T12:00:00Z", "2026-11-27T12:00:00Z",
                ], "\(movida.object)")
            #expect(try await client.register("caio@example.com", nome: "Caio").status == .created)
            let caio = try await client.token("caio@example.com")
            let livre = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-26T08:00:00-03:00", "2026-11-26T09:00:00-03:00"), token: caio)
            #expect(livre.status == .created, "\(String(buffer: livre.body))")
        }
    }

    @Test("without a card only what credits pay is booked; a series nothing of which can be booked is refused and writes nothing")
    func series_paid_by_credits() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let antes = try await harness.allEvents().count
            let semCartao = serie(cenario.sala, "2026-11-25T14:00:00-03:00", "2026-11-25T15:00:00-03:00", ocorrencias: 3, cartao: nil)
            let nada = try await client.json(.post, "/api/reservas/series", semCartao, token: cenario.membro)
            #expect(nada.status == .conflict && nada.object["erro"] as? String == "serie_sem_reservas", "\(String(buffer: nada.body))")
            #expect((nada.object["mensagem"] as? String)?.contains("R$ 50,00") == true, "\(nada.object)")
            #expect(try await harness.allEvents().count == antes)

            // Two hours of credits: the first two Wednesdays are paid with them, the third is not booked.
            let membro = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
            let ajuste = try await client.json(
                .post, "/api/admin/usuarios/\(membro)/creditos/ajustes", #"{"medida":"minutos","quantidade":120,"motivo":"cortesia"}"#,
                token: cenario.admin)
            #expect(ajuste.status == .created || ajuste.status == .ok, "\(String(buffer: ajuste.body))")
            let criada = try await client.json(.post, "/api/reservas/series", semCartao, token: cenario.membro)
            #expect(criada.status == .created, "\(String(buffer: criada.body))")
            let ocorrencias = try #require(criada.object["ocorrencias"] as? [[String: Any]])
            #expect(ocorrencias.map { $0["total"] as? Int } == [0, 0, nil])
            let recusa = try #require(ocorrencias[2]["recusa"] as? [String: Any])
            #expect(recusa["codigo"] as? String == "pagamento_necessario", "\(recusa)")
            for reserva in ocorrencias.compactMap({ $0["reservaId"] as? String }) {
                _ = try await client.reserva(reserva, token: cenario.membro, status: "confirmada")
            }
            #expect(try await client.json(.get, "/api/creditos", token: cenario.membro).object["minutos"] as? Int == 0)
        }
    }

    @Test(
        "a series with a coupon: each occurrence uses it while it has uses, the rest at their own price; a coupon the series cannot use at all is a 422 naming cupom that books nothing; a cancelled occurrence gives its use back"
    )
    func a_series_with_a_coupon() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            try await Self.cupomDeDoisUsos(client, cenario)
            let (inicio, fim) = ("2026-11-24T10:00:00-03:00", "2026-11-24T11:00:00-03:00")
            func comCupom(_ codigo: String) -> String { String(serie(cenario.sala, inicio, fim).dropLast()) + #","cupom":"\#(codigo)"}"# }
            func escritos() async throws -> Int {
                try await harness.allEvents().filter { ["serie", "reserva", "cupom"].contains($0.stream.category) }.count
            }
            // A coupon that does not exist: the series is refused whole, nothing written.
            let antes = try await escritos()
            let inexistente = try await client.json(.post, "/api/reservas/series", comCupom("NATAL"), token: cenario.membro)
            #expect(inexistente.status == .unprocessableContent, "\(String(buffer: inexistente.body))")
            #expect((inexistente.object["detalhes"] as? [String: Any])?["campo"] as? String == "cupom")
            #expect(try await escritos() == antes)

            // Four Tuesdays by card with a coupon of two uses: the first two 10 % off, the others at their price.
            let criada = try await client.json(.post, "/api/reservas/series", comCupom("equipe"), token: cenario.membro)
            #expect(criada.status == .created, "\(String(buffer: criada.body))")
            let ocorrencias = try #require(criada.object["ocorrencias"] as? [[String: Any]])
            #expect(ocorrencias.map { $0["total"] as? Int } == [4_500, 4_500, 5_000, 5_000], "\(ocorrencias)")
            let reservas = ocorrencias.compactMap { $0["reservaId"] as? String }
            for reserva in reservas { _ = try await client.reserva(reserva, token: cenario.membro, status: "confirmada") }
            let usos = try await client.json(.get, "/api/admin/cupons/EQUIPE", token: cenario.admin)
            #expect(usos.object["usos"] as? Int == 2, "\(String(buffer: usos.body))")

            // Used up: another series with it is refused whole.
            let outra = try await client.json(
                .post, "/api/reservas/series",
                String(serie(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00").dropLast()) + #","cupom":"EQUIPE"}"#,
                token: cenario.membro)
            #expect(outra.status == .unprocessableContent, "\(String(buffer: outra.body))")
            #expect((outra.object["detalhes"] as? [String: Any])?["campo"] as? String == "cupom")

            // The first occurrence cancelled: its use comes back.
            let cancelada = try await client.json(.post, "/api/reservas/\(reservas[0])/cancelamento", #"{"motivo":"feriado"}"#, token: cenario.membro)
            #expect(cancelada.status == .ok, "\(String(buffer: cancelada.body))")
            let depois = try await client.json(.get, "/api/admin/cupons/EQUIPE", token: cenario.admin)
            #expect(depois.object["usos"] as? Int == 1, "\(String(buffer: depois.body))")
        }
    }

    @Test(
        "a series with a coupon resumed under its key after a failure half way, whose first bookings used the coupon up, keeps them and books the rest at their price"
    )
    func a_resumed_series_with_its_coupon_used_up_by_itself() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            try await Self.cupomDeDoisUsos(client, cenario)
            let membro = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
            // The first request booked the first two Tuesdays with the coupon (its two uses), then its process died.
            let serieId = SerieDeReservas.ID(Events.derivedId("serie", "\(membro)|serie-cupom"))
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            for (numero, dia) in [(1, "2026-11-24"), (2, "2026-12-01")] {
                let corpo = pedido(cenario.sala, "\(dia)T10:00:00-03:00", "\(dia)T11:00:00-03:00", cupom: "EQUIPE", cartao: "tok_visa")
                let feita = try await harness.backend.reservas.solicitar(
                    try decoder.decode(ReservasService.PedidoDeReserva.self, from: Data(corpo.utf8)), usuario: membro,
                    caller: Caller(requestId: "primeira", usuario: membro, papel: "membro", idempotencyKey: "serie:\(serieId):\(numero)"),
                    serie: Reserva.NaSerie(serieId: serieId, numero: numero))
                #expect(feita.total.centavos == 4_500)
            }
            // Sent again with its key: the coupon is used up, by the series itself.
            let corpo = String(serie(cenario.sala, "2026-11-24T10:00:00-03:00", "2026-11-24T11:00:00-03:00").dropLast()) + #","cupom":"EQUIPE"}"#
            let retomada = try await client.json(.post, "/api/reservas/series", corpo, token: cenario.membro, headers: [Self.chave: "serie-cupom"])
            #expect(retomada.status == .created, "\(String(buffer: retomada.body))")
            #expect(retomada.object["id"] as? String == "\(serieId)")
            let ocorrencias = retomada.object["ocorrencias"] as? [[String: Any]] ?? []
            #expect(ocorrencias.map { $0["total"] as? Int } == [4_500, 4_500, 5_000, 5_000], "\(ocorrencias)")
        }
    }
}
