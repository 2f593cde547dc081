import Domain
import EventStore
import Foundation
import GRDB
import Gateway
import Hummingbird
import HummingbirdTesting
import Projections
import Services
import Synchronization
import Testing

@Suite("Admin routes and LGPD")
struct AdminAndLGPDTests {
    /// An admin made the way operators do it (register, then promote outside the API).
    func makeAdmin(_ harness: Harness, email: String = "root@example.com") async throws {
        let caller = Caller(requestId: "test")
        let perfil = try await harness.backend.usuarios.registrar(nome: "Root", email: email, senha: "segredo-123", context: caller)
        try await harness.backend.usuarios.promover(usuario: perfil.id, context: caller)
    }

    @Test("admins list, promote and deactivate accounts; members may not; the audit trail shows who did what")
    func admin_flows() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await makeAdmin(harness)
        try await harness.test { client in
            let admin = try await client.token("root@example.com")
            let member = try #require(try await client.register("maria@example.com").object["id"] as? String)
            _ = try await client.register("joao@example.com")
            let memberToken = try await client.token("maria@example.com")

            let forbidden = try await client.json(.get, "/api/admin/usuarios", token: memberToken)
            #expect(forbidden.status == .forbidden)
            let anonymous = try await client.json(.get, "/api/admin/usuarios")
            #expect(anonymous.status == .unauthorized)

            let all = try await client.json(.get, "/api/admin/usuarios", token: admin)
            #expect(all.status == .ok)
            #expect(all.object["total"] as? Int == 3)
            #expect(all.object["pagina"] as? Int == 1)
            let filtered = try await client.json(.get, "/api/admin/usuarios?email=maria", token: admin)
            let items = filtered.object["itens"] as? [[String: Any]]
            #expect(items?.map { $0["email"] as? String } == ["maria@example.com"])
            let badPage = try await client.json(.get, "/api/admin/usuarios?pagina=zero", token: admin)
            #expect(badPage.status == .badRequest)

            let one = try await client.json(.get, "/api/admin/usuarios/\(member)", token: admin)
            #expect(one.status == .ok)
            #expect(one.object["email"] as? String == "maria@example.com")
            #expect(one.object["id"] as? String == member)
            #expect(try await client.json(.get, "/api/admin/usuarios/\(member)", token: memberToken).status == .forbidden)
            #expect(try await client.json(.get, "/api/admin/usuarios/\(UUID().uuidString)", token: admin).status == .notFound)
            #expect(try await client.json(.get, "/api/admin/usuarios/nao-e-um-id", token: admin).status == .notFound)

            #expect(try await client.json(.post, "/api/admin/usuarios/\(member)/promocao", token: admin).status == .noContent)
            let again = try await client.json(.post, "/api/admin/usuarios/\(member)/promocao", token: admin)
            #expect(again.status == .conflict)
            let unknown = try await client.json(.post, "/api/admin/usuarios/\(UUID().uuidString)/desativacao", token: admin)
            #expect(unknown.status == .notFound)

            #expect(try await client.json(.post, "/api/admin/usuarios/\(member)/desativacao", token: admin).status == .noContent)
            let promoteInactive = try await client.json(.post, "/api/admin/usuarios/\(member)/promocao", token: admin)
            #expect(promoteInactive.status == .conflict)
            #expect(promoteInactive.erro == "conta_desativada")
            let blocked = try await client.login("maria@example.com")
            #expect(blocked.status == .forbidden)
            // A wrong password does not reveal that the account is deactivated, and counts
            // towards the lock as on any account: five wrong guesses lock it (423), so its
            // password cannot be guessed without limit.
            for _ in 1...4 { #expect(try await client.login("maria@example.com", senha: "errada-123").status == .unauthorized) }
            #expect(try await client.login("maria@example.com", senha: "errada-123").status.code == 423)
            #expect(try await client.login("maria@example.com").status.code == 423, "the right one too, until the lock ends")
            // Her token (issued as an admin, before) no longer counts: not for admin routes, not at all.
            #expect(try await client.json(.get, "/api/admin/usuarios", token: memberToken).status == .unauthorized)
            let huge = try await client.json(.get, "/api/admin/usuarios?pagina=9223372036854775807", token: admin)
            #expect(huge.status == .badRequest)

            let trail = try await client.json(
                .get, "/api/admin/auditoria?tipo=UsuarioDesativado", token: admin, headers: [.init("X-Request-Id")!: "auditoria-1"])
            let records = trail.object["itens"] as? [[String: Any]]
            #expect(records?.count == 1)
            #expect(records?.first?["stream"] as? String == "usuario-\(member)")
            #expect(records?.first?["ator"] as? String != nil)
            #expect(records?.first?["servico"] as? String == "usuarios")
            let badInstant = try await client.json(.get, "/api/admin/auditoria?desde=ontem", token: admin)
            #expect(badInstant.status == .badRequest)
            #expect((badInstant.object["mensagem"] as? String)?.contains("desde") == true)
            let backwards = try await client.json(.get, "/api/admin/auditoria?desde=2026-12-01T00:00:00Z&ate=2026-01-01T00:00:00Z", token: admin)
            #expect(backwards.status == .badRequest)
            #expect((backwards.object["mensagem"] as? String)?.contains("'desde' deve ser anterior") == true)
        }
    }

    @Test("an admin deactivated a moment ago, still active in the lagging accounts list, does not count as the other admin (409 ultimo_admin)")
    func the_last_admin_against_a_lagging_list() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let caller = Caller(requestId: "test", usuario: "sistema")
        let usuarios = harness.backend.usuarios
        let a = try await usuarios.registrar(nome: "Ana", email: "ana@example.com", senha: "segredo-123", context: caller)
        let b = try await usuarios.registrar(nome: "Bia", email: "bia@example.com", senha: "segredo-123", context: caller)
        try await usuarios.promover(usuario: a.id, context: caller)
        try await usuarios.promover(usuario: b.id, context: caller)
        // The accounts list as of now: two active admins. No runner follows after this.
        let contas = try #require(harness.backend.projections.first { $0.projection.name == "usuarios" })
        try await contas.catchUp()
        try await usuarios.desativar(usuario: b.id, context: caller)
        await #expect {
            try await usuarios.apagar(usuario: a.id, context: caller)
        } throws: { error in
            (error as? ServiceError)?.codigo == "ultimo_admin"
        }
        await #expect {
            try await usuarios.desativar(usuario: a.id, context: caller)
        } throws: { error in
            (error as? ServiceError)?.codigo == "ultimo_admin"
        }
    }

    @Test("the only active admin can be neither deactivated nor erased (409); once another admin exists, it can")
    func the_last_admin_stays() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await makeAdmin(harness)
        try await harness.test { client in
            let admin = try await client.token("root@example.com")
            let root = try #require(try await client.json(.get, "/api/auth/me", token: admin).object["id"] as? String)
            let self_ = try await client.json(.post, "/api/admin/usuarios/\(root)/desativacao", token: admin)
            #expect(self_.status == .conflict && self_.erro == "ultimo_admin", "\(String(buffer: self_.body))")
            let erased = try await client.json(.delete, "/api/auth/me", token: admin)
            #expect(erased.status == .conflict && erased.erro == "ultimo_admin", "\(String(buffer: erased.body))")
            #expect(try await client.json(.get, "/api/auth/me", token: admin).status == .ok)

            let other = try #require(try await client.register("maria@example.com").object["id"] as? String)
            #expect(try await client.json(.post, "/api/admin/usuarios/\(other)/promocao", token: admin).status == .noContent)
            try await eventually("the new admin in the list") {
                let list = try await client.json(.get, "/api/admin/usuarios", token: admin).object["itens"] as? [[String: Any]]
                return list?.contains { $0["id"] as? String == other && $0["papel"] as? String == "admin" } == true ? true : nil
            }
            #expect(try await client.json(.delete, "/api/auth/me", token: admin).status == .noContent)
        }
    }

    @Test("an operator exports and erases a deactivated account's data on its owner's request; members cannot; erasing again finishes an erasure")
    func operator_erases_a_deactivated_account() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await makeAdmin(harness)
        try await harness.test { client in
            let admin = try await client.token("root@example.com")
            let id = try #require(try await client.register("ivo@example.com", nome: "Ivo Lima").object["id"] as? String)
            let membro = try await client.token("ivo@example.com")
            #expect(try await client.json(.delete, "/api/admin/usuarios/\(id)/dados", token: membro).status == .forbidden)
            #expect(try await client.json(.post, "/api/admin/usuarios/\(id)/desativacao", token: admin).status == .noContent)
            // Deactivated: the member has no token that works any more.
            #expect(try await client.json(.get, "/api/auth/me/dados", token: membro).status == .unauthorized)

            // The id in upper case is the same account (the export finds its own events).
            let export = try await client.json(.get, "/api/admin/usuarios/\(id.uppercased())/dados", token: admin)
            #expect((export.object["conta"] as? [Any])?.isEmpty == false, "\(String(buffer: export.body))")
            #expect(export.status == .ok && String(buffer: export.body).contains("ivo@example.com"), "\(String(buffer: export.body))")
            #expect(try await client.json(.delete, "/api/admin/usuarios/\(id)/dados", token: admin).status == .noContent)
            #expect(try await client.json(.get, "/api/admin/usuarios/\(id)/dados", token: admin).status == .notFound)
            // Again: the account is erased already; its key is deleted again (nothing left), 204.
            #expect(try await client.json(.delete, "/api/admin/usuarios/\(id)/dados", token: admin).status == .noContent)
            #expect(try await client.json(.delete, "/api/admin/usuarios/nao-e-um-id/dados", token: admin).status == .notFound)
            #expect(try await client.register("ivo@example.com", nome: "Outro Ivo").status == .created)
        }
        let events = try await harness.allEvents()
        let apagado = try #require(events.first { $0.type == "DadosPessoaisApagados" })
        #expect(apagado.metadata.actor.map { !apagado.stream.rawValue.hasSuffix($0) } == true, "the operator is the actor")
        let registro = try #require(events.first { $0.type == "UsuarioRegistrado" && $0.stream == apagado.stream })
        let sealed = try #require((try JSONSerialization.jsonObject(with: registro.data) as? [String: Any])?["email"] as? String)
        let vault = PersonalDataVault(keys: SQLiteKeyStore(database: harness.store.database))
        #expect(try await vault.open(SealedField(rawValue: sealed)) == .erased)
    }

    @Test("an erasure whose process stopped between its event and its key is finished by the usuarios timer, once")
    func an_interrupted_erasure_is_finished() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let usuarios = harness.backend.usuarios
        let perfil = try await usuarios.registrar(nome: "Ana Dias", email: "ana@example.com", senha: "segredo-123", context: Caller(requestId: "t"))
        let id = try #require(Usuario.ID(perfil.id))
        let stream = StreamName(category: "usuario", id: id.description)
        // What `apagar` appends, with the process gone before the key: the event alone.
        let apagado = Usuario.Event.dadosPessoaisApagados(.init(usuarioId: id, em: Date()))
        try await harness.store.append(
            to: stream, expected: .any,
            events: [try NewEvent(eventId: UUID(), event: apagado, occurredAt: Date())])
        let registro = try #require(try await harness.store.readStream(stream).first { $0.type == "UsuarioRegistrado" })
        let sealed = try #require((try JSONSerialization.jsonObject(with: registro.data) as? [String: Any])?["email"] as? String)
        let vault = PersonalDataVault(keys: SQLiteKeyStore(database: harness.store.database))
        #expect(try await vault.open(SealedField(rawValue: sealed)) == .clear("ana@example.com"), "the key outlived its erasure")

        let timer = try #require(harness.backend.temporizadores().first { $0.lease == UsuariosService.apagamentos })
        try await timer.tick()
        #expect(try await vault.open(SealedField(rawValue: sealed)) == .erased)
        let checkpoint = try await harness.store.checkpoint(UsuariosService.apagamentos)
        #expect(checkpoint == (try await harness.store.readStream(stream).last?.position))
        // Nothing new: the next tick reads nothing and leaves the checkpoint where it was.
        try await timer.tick()
        #expect(try await harness.store.checkpoint(UsuariosService.apagamentos) == checkpoint)
    }

    @Test("stored data that does not decode is our 500 (logged, with the request id), never a 400 blaming the request")
    func undecodable_stored_data_is_a_500() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let id = UUID().uuidString.lowercased()
            try await harness.store.commit(
                [ReadModelChange(collection: ReservasReadModel.reservas, key: id, grupo: "x", doc: Data(#"{"inesperado":true}"#.utf8))],
                checkpoint: "teste-corrompido", at: .start, from: nil)
            let answer = try await client.json(.get, "/api/reservas/\(id)", token: cenario.admin)
            #expect(answer.status == .internalServerError && answer.erro == "erro_interno", "\(String(buffer: answer.body))")
        }
    }

    @Test("an operator cannot erase a member who holds a booking, whatever the case of the id in the path (409)")
    func operator_erase_waits_for_bookings() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let id = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
            let booked = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: cenario.membro)
            #expect(booked.status == .created)
            for forma in [id, id.uppercased()] {
                let erase = try await client.json(.delete, "/api/admin/usuarios/\(forma)/dados", token: cenario.admin)
                #expect(erase.status == .conflict && erase.erro == "reservas_ativas", "\(forma): \(String(buffer: erase.body))")
            }
        }
    }

    @Test("export everything about me; erase my data: login fails, the e-mail can register again, events stay without personal data")
    func export_and_erase() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test { client in
            // Registered with an Idempotency-Key: its answer (name and e-mail in clear) is kept for retries.
            let registro = try await client.json(
                .post, "/api/auth/registro", #"{"nome":"Lia Souza","email":"lia@example.com","senha":"segredo-123"}"#,
                headers: [.init("Idempotency-Key")!: "registro-lia"])
            #expect(registro.status == .created)
            func guardadas() async throws -> Int? {
                try await harness.store.database.read {
                    try Int.fetchOne($0, sql: "SELECT count(*) FROM request_keys WHERE instr(body, 'lia@example.com') > 0")
                }
            }
            #expect(try await guardadas() == 1)
            let token = try await client.token("lia@example.com")
            let export = try await client.json(.get, "/api/auth/me/dados", token: token)
            #expect(export.status == .ok)
            let text = String(buffer: export.body)
            #expect(text.contains("lia@example.com") && text.contains("Lia Souza"))
            #expect(!text.contains("\"senha\""), "password hashes are not exported")
            #expect((export.object["conta"] as? [Any])?.count == 2)

            #expect(try await client.json(.delete, "/api/auth/me", token: token).status == .noContent)
            #expect(try await guardadas() == 0, "the kept answer goes with the erasure")
            #expect(try await client.login("lia@example.com").status == .unauthorized)
            // The erased account's token stops working at once.
            #expect(try await client.json(.get, "/api/auth/me", token: token).status == .unauthorized)
            #expect(try await client.register("lia@example.com", nome: "Outra Lia").status == .created)
        }
        let events = try await harness.allEvents()
        #expect(events.map(\.type).contains("DadosPessoaisApagados"))
        #expect(events.map(\.type).contains("EmailLiberado"))
        let first = try #require(events.first { $0.type == "UsuarioRegistrado" })
        let sealed = try #require((try JSONSerialization.jsonObject(with: first.data) as? [String: Any])?["email"] as? String)
        let vault = PersonalDataVault(keys: SQLiteKeyStore(database: harness.store.database))
        #expect(try await vault.open(SealedField(rawValue: sealed)) == .erased)
    }

    @Test("the export holds what happened about my bookings too: the payment, the check-in code, the e-mails, the invoice")
    func export_includes_what_happened_about_me() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let cartao = pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00", cartao: "tok_visa")
            let id = try #require(try await client.json(.post, "/api/reservas", cartao, token: cenario.membro).object["id"] as? String)
            _ = try await client.reserva(id, token: cenario.membro, status: "confirmada")
            let tipos = try await eventually("the export has the booking's story") {
                let atividade = try await client.json(.get, "/api/auth/me/dados", token: cenario.membro).object["atividade"] as? [[String: Any]] ?? []
                let tipos = Set(atividade.compactMap { $0["tipo"] as? String })
                return tipos.isSuperset(of: ["ReservaSolicitada", "PagamentoConfirmado", "CheckinLiberado", "FaturaEmitida", "NotificacaoEnviada"])
                    ? tipos : nil
            }
            // Nothing about another member's booking.
            #expect(try await client.register("bia@example.com").status == .created)
            let bia = try await client.token("bia@example.com")
            let outra = try await client.json(.post, "/api/reservas", cartao.replacingOccurrences(of: "2026-11-25", with: "2026-11-26"), token: bia)
            #expect(outra.status == .created)
            let dela = try await client.json(.get, "/api/auth/me/dados", token: cenario.membro)
            #expect(!String(buffer: dela.body).lowercased().contains(try #require(outra.object["id"] as? String).lowercased()), "\(tipos)")
        }
    }

    @Test("erasing my data waits until my bookings are over: 409 with the active bookings, nothing erased; after cancelling, 204")
    func erase_waits_for_active_bookings() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let passada = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-23T09:00:00-03:00", "2026-11-23T10:00:00-03:00"), token: cenario.membro)
            let futura = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: cenario.membro)
            #expect(passada.status == .created && futura.status == .created, "\(String(buffer: futura.body))")
            let id = try #require(futura.object["id"] as? String)
            let pago = try #require(passada.object["id"] as? String)
            #expect(try await client.json(.post, "/api/admin/reservas/\(pago)/confirmacao", "{}", token: cenario.admin).status == .ok)
            // The first booking is over (its hour has passed); the second still holds its slot.
            harness.clock.advance(by: 3 * 3_600)
            let refused = try await client.json(.delete, "/api/auth/me", token: cenario.membro)
            #expect(refused.status == .conflict)
            #expect(refused.erro == "reservas_ativas")
            #expect((refused.object["detalhes"] as? [String: Any])?["reservas"] as? String == id)
            #expect(try await client.json(.get, "/api/auth/me", token: cenario.membro).status == .ok)
            #expect(try await harness.allEvents().contains { $0.type == "DadosPessoaisApagados" } == false)

            #expect(try await client.json(.post, "/api/reservas/\(id)/cancelamento", "{}", token: cenario.membro).status == .ok)
            #expect(try await client.json(.delete, "/api/auth/me", token: cenario.membro).status == .noContent)
            #expect(try await client.login("ana@example.com").status == .unauthorized)
        }
    }

    @Test("a booking that slips past the erasure's check ends refunded in full; one decided after the erasure is declined, never charged")
    func erasure_racing_bookings() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        let sala = Mutex<String?>(nil)
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            sala.withLock { $0 = cenario.sala }
            let usuario = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
            let cartao = pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00", cartao: "tok_visa")
            let paga = try #require(try await client.json(.post, "/api/reservas", cartao, token: cenario.membro).object["id"] as? String)
            _ = try await client.reserva(paga, token: cenario.membro, status: "confirmada")
            // The erasure as if its check had not seen the booking (made in the same instant).
            try await harness.backend.usuarios.apagar(usuario: usuario, context: Caller(requestId: "corrida"))
            let cancelada = try await client.reserva(paga, token: cenario.admin, status: "cancelada")
            let termos = try #require(cancelada["cancelamento"] as? [String: Any], "\(cancelada)")
            #expect(termos["multa"] as? Int == 0 && termos["reembolso"] as? Int == 5_000)
            let reembolsado = try await eventually("refunded") {
                let p = try await client.json(.get, "/api/reservas/\(paga)/pagamento", token: cenario.admin).object
                return p["reembolsado"] as? Int == 5_000 ? p : nil
            }
            #expect(reembolsado["status"] as? String == "confirmado")

            // A booking whose request was checked before the erasure and decided after it.
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let pedido = try decoder.decode(
                ReservasService.PedidoDeReserva.self, from: Data(cartao.replacingOccurrences(of: "2026-11-25", with: "2026-11-26").utf8))
            let tardia = try await harness.backend.reservas.solicitar(pedido, usuario: usuario, caller: Caller(requestId: "tardia", usuario: usuario))
            _ = try await client.reserva(tardia.id, token: cenario.admin, status: "cancelada")
            let recusado = try await client.pagamento(tardia.id, token: cenario.admin, status: "recusado")
            #expect(recusado["cobrancaId"] == nil || recusado["cobrancaId"] is NSNull, "\(recusado)")
            let cobrancas = try await harness.allEvents().filter {
                $0.type == "PagamentoIniciado" && String(decoding: $0.data, as: UTF8.self).lowercased().contains(tardia.id.lowercased())
            }
            #expect(cobrancas.count == 1)
            #expect(
                try await harness.allEvents().contains {
                    $0.type == "PagamentoConfirmado" && String(decoding: $0.data, as: UTF8.self).lowercased().contains(tardia.id.lowercased())
                } == false)
        }
        // Out of the router nothing projects: a booking made now is only in the log, and the
        // erasure's check (like the reaction) finds it there, past the read model's checkpoint.
        let outro = try await harness.backend.usuarios.registrar(
            nome: "Caio", email: "caio@example.com", senha: "segredo-123", context: Caller(requestId: "t"))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let corpo = #"{"espacoId":"\#(try #require(sala.withLock { $0 }))","inicio":"2026-11-27T10:00:00-03:00","fim":"2026-11-27T11:00:00-03:00"}"#
        let recente = try await harness.backend.reservas.solicitar(
            try decoder.decode(ReservasService.PedidoDeReserva.self, from: Data(corpo.utf8)), usuario: outro.id,
            caller: Caller(requestId: "recente", usuario: outro.id))
        #expect(try await harness.backend.reservas.ativas(usuario: outro.id).isEmpty)
        #expect(try await harness.backend.reservas.ativas(usuario: outro.id, emDia: true).map(\.id) == [recente.id])
        // Once projected and then cancelled, the document still says it holds its slot: the
        // check reads the log past the checkpoint and lets the member go.
        for runner in harness.backend.projections where runner.projection.name == ReservasReadModel.projection.name {
            try await runner.catchUp()
        }
        #expect(try await harness.backend.reservas.ativas(usuario: outro.id).map(\.id) == [recente.id])
        _ = try await harness.backend.reservas.cancelar(
            recente.id, motivo: nil, usuario: outro.id, admin: false, caller: Caller(requestId: "cancelada", usuario: outro.id))
        #expect(try await harness.backend.reservas.ativas(usuario: outro.id).map(\.id) == [recente.id])
        #expect(try await harness.backend.reservas.ativas(usuario: outro.id, emDia: true).isEmpty)

        // A no-show (the check-in's stream) recorded after the read model's checkpoint ends the
        // booking as well: the check reads it past the checkpoint too.
        let faltou = try await harness.backend.reservas.solicitar(
            try decoder.decode(
                ReservasService.PedidoDeReserva.self, from: Data(corpo.replacingOccurrences(of: "2026-11-27", with: "2026-11-28").utf8)),
            usuario: outro.id, caller: Caller(requestId: "faltou", usuario: outro.id))
        for runner in harness.backend.projections where runner.projection.name == ReservasReadModel.projection.name {
            try await runner.catchUp()
        }
        #expect(try await harness.backend.reservas.ativas(usuario: outro.id, emDia: true).map(\.id) == [faltou.id])
        let ocorrencia = try decoder.decode(
            Checkin.Ocorrencia.self,
            from: Data(
                (#"{"reservaId":"\#(faltou.id)","usuarioId":"\#(outro.id)","espacoId":"\#(UUID())","unidadeId":"\#(UUID())","#
                    + #""inicio":"2026-11-28T13:00:00Z","fim":"2026-11-28T14:00:00Z","por":"system:checkin","em":"2026-11-28T13:30:00Z"}"#).utf8))
        try await harness.store.append(
            to: StreamName(category: "checkin", id: faltou.id), expected: .any,
            events: [try NewEvent(eventId: UUID(), event: Checkin.Event.noShowRegistrado(ocorrencia), occurredAt: Date())])
        #expect(try await harness.backend.reservas.ativas(usuario: outro.id).map(\.id) == [faltou.id])
        #expect(try await harness.backend.reservas.ativas(usuario: outro.id, emDia: true).isEmpty)
    }
}
