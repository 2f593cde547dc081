import Domain
import EventStore
import Foundation
import Logging
import Projections
import Services
import Testing

/// The booking invariant on PostgreSQL: two independent service instances, each with its own
/// connection pool (as two reservas processes would be), race for the same slots.
@Suite("Booking race on PostgreSQL", .serialized)
struct PostgresBookingRaceTests {
    static let logger: Logger = {
        var logger = Logger(label: "pg-booking")
        logger.logLevel = .critical
        return logger
    }()

    /// Services over their own store (own pool), like one reservas process.
    struct Instance: Sendable {
        let store: PostgresEventStore
        let espacos: EspacosService
        let precos: PrecosService
        let reservas: ReservasService
        let checkin: CheckinService

        init(_ settings: PostgresSettings, clock: ManualClock) {
            store = PostgresEventStore(settings: settings, logger: PostgresBookingRaceTests.logger)
            espacos = EspacosService(store: store, clock: clock)
            precos = PrecosService(store: store, clock: clock)
            reservas = ReservasService(store: store, clock: clock, precos: precos)
            checkin = CheckinService(
                store: store, clock: clock, vault: PersonalDataVault(keys: PostgresKeyStore(store: store, logger: PostgresBookingRaceTests.logger)))
        }

        /// A unit named `nome`, made by an admin.
        func unidade(_ nome: String) async throws -> String {
            try await espacos.cadastrarUnidade(
                try JSONDecoder().decode(
                    EspacosService.NovaUnidade.self,
                    from: Data(
                        #"""
                        {"nome":"\#(nome)","endereco":{"logradouro":"Rua","numero":"1","cidade":"São Paulo","uf":"SP","cep":"01000-000"}}
                        """#.utf8)), caller: Self.admin
            ).id
        }

        /// A space of `tipo` in `unidade`, open the default hours, with a price table.
        func espaco(_ unidade: String, tipo: String, capacidade: Int) async throws -> String {
            let espaco = try await espacos.cadastrarEspaco(
                try JSONDecoder().decode(
                    EspacosService.NovoEspaco.self,
                    from: Data(
                        #"""
                        {"unidadeId":"\#(unidade)","nome":"\#(tipo)","tipo":"\#(tipo)","capacidade":\#(capacidade)}
                        """#.utf8)), caller: Self.admin)
            _ = try await precos.definirTabela(
                espaco.id, TabelaDePreco.Valores(porHora: .reais(50), meioPeriodo: .reais(180), diaria: .reais(300), duracaoMinimaMinutos: 30),
                caller: Self.admin)
            return espaco.id
        }

        static let admin = Caller(requestId: "race", usuario: "admin")
    }

    /// Two instances over a migrated database, their stores running while `body` races them.
    func withTwoInstances(_ body: @escaping @Sendable (Instance, Instance) async throws -> Void) async throws {
        let settings = try PostgresSettings.fromEnvironment()
        try await PostgresMigrator(settings: settings, logger: Self.logger).migrate()
        let clock = ManualClock(segundaDeManha)
        let a = Instance(settings, clock: clock)
        let b = Instance(settings, clock: clock)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await a.store.run() }
            group.addTask { await b.store.run() }
            defer { group.cancelAll() }
            try await body(a, b)
        }
    }

    @Test("50 concurrent bookings from two instances: one room booking, three desk bookings, and the agenda holds exactly those")
    func two_instances_never_double_book() async throws {
        try await withTwoInstances { a, b in
            let unidade = try await a.unidade("Race")
            let sala = try await a.espaco(unidade, tipo: "sala_privativa", capacidade: 4)
            let mesas = try await a.espaco(unidade, tipo: "estacao_compartilhada", capacidade: 3)
            for (espaco, vagas) in [(sala, 1), (mesas, 3)] {
                // Friday 2026-11-27, 14:00–16:00 São Paulo: inside the default hours.
                let pedido = try JSONDecoder.iso.decode(
                    ReservasService.PedidoDeReserva.self,
                    from: Data(
                        #"""
                        {"espacoId":"\#(espaco)","inicio":"2026-11-27T14:00:00-03:00","fim":"2026-11-27T16:00:00-03:00"}
                        """#.utf8))
                let outcomes = try await withThrowingTaskGroup(of: Int.self) { race in
                    for index in 0..<50 {
                        let instance = index.isMultiple(of: 2) ? a : b
                        race.addTask {
                            do {
                                _ = try await instance.reservas.solicitar(pedido, usuario: "membro-\(index)", caller: Caller(requestId: "r\(index)"))
                                return 201
                            } catch let error as ServiceError {
                                return error.status
                            }
                        }
                    }
                    return try await race.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(outcomes.filter { $0 == 201 }.count == vagas)
                #expect(outcomes.filter { $0 == 409 }.count == 50 - vagas)
                let id = try #require(UUID(uuidString: espaco))
                let agenda = try await a.store.readStream(StreamNames.agenda(id, try #require(DataLocal("2026-11-27"))))
                #expect(agenda.count == vagas)
                #expect(Set(agenda.map(\.type)) == ["AgendaOcupada"])
            }
        }
    }

    @Test("twelve paid bookings moved at once from two instances onto one hour, with twelve new bookings of it: one of the 24 gets it")
    func two_instances_never_move_two_bookings_onto_one_hour() async throws {
        try await withTwoInstances { a, b in
            let unidade = try await a.unidade("Moves")
            let sala = try await a.espaco(unidade, tipo: "sala_privativa", capacidade: 4)
            let salaId = try #require(UUID(uuidString: sala))
            func pedido(_ inicio: String, _ fim: String) throws -> ReservasService.PedidoDeReserva {
                try JSONDecoder.iso.decode(
                    ReservasService.PedidoDeReserva.self, from: Data(#"{"espacoId":"\#(sala)","inicio":"\#(inicio)","fim":"\#(fim)"}"#.utf8))
            }
            // Twelve bookings of Thursday 26/11, 08:00 to 20:00 São Paulo, confirmed, with their codes.
            var ids: [String] = []
            for hora in 8..<20 {
                let (de, ate) = (String(format: "%02d", hora), String(format: "%02d", hora + 1))
                let feita = try await a.reservas.solicitar(
                    try pedido("2026-11-26T\(de):00:00-03:00", "2026-11-26T\(ate):00:00-03:00"), usuario: "membro-\(hora)",
                    caller: Caller(requestId: "r\(hora)"))
                _ = try await a.reservas.confirmar(feita.id, pagamentoId: nil, caller: Instance.admin)
                let reservaId = try #require(Reserva.ID(feita.id))
                let eventos = try await a.store.readStream(StreamNames.reserva(reservaId))
                let confirmada = try #require(eventos.last { $0.type == "ReservaConfirmada" })
                _ = try await a.store.append(try await a.checkin.reagir(confirmada))
                ids.append(feita.id)
            }
            let (inicio, fim) = (try Date("2026-11-27T14:00:00-03:00", strategy: .iso8601), try Date("2026-11-27T15:00:00-03:00", strategy: .iso8601))
            let novo = try pedido("2026-11-27T14:00:00-03:00", "2026-11-27T15:00:00-03:00")
            let outcomes = try await withThrowingTaskGroup(of: (String, Int).self) { race in
                for (index, id) in ids.enumerated() {
                    let instance = index.isMultiple(of: 2) ? a : b
                    let membro = "membro-\(index + 8)"
                    race.addTask {
                        do {
                            _ = try await instance.reservas.remarcar(
                                id, inicio: inicio, fim: fim, usuario: membro, admin: false, caller: Caller(requestId: "m\(index)", usuario: membro))
                            return ("move", 200)
                        } catch let error as ServiceError {
                            return ("move", error.status)
                        }
                    }
                    race.addTask {
                        do {
                            _ = try await instance.reservas.solicitar(novo, usuario: "novo-\(index)", caller: Caller(requestId: "n\(index)"))
                            return ("book", 201)
                        } catch let error as ServiceError {
                            return ("book", error.status)
                        }
                    }
                }
                return try await race.reduce(into: [(String, Int)]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0.1 == 200 || $0.1 == 201 }.count == 1, "\(outcomes)")
            #expect(outcomes.filter { $0.1 == 409 }.count == 23, "\(outcomes)")
            // Friday's agenda holds one booking; Thursday's still holds every booking that did not move.
            func ocupacoes(_ dia: String) async throws -> Set<UUID> {
                let data = try #require(DataLocal(dia))
                let events = try await a.store.readStream(StreamNames.agenda(salaId, data))
                let decider = Agenda.decider(espacoId: salaId, data: data)
                return Set(
                    decider.fold(try events.compactMap { try Agenda.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }).ocupacoes
                        .keys)
            }
            let sexta = try await ocupacoes("2026-11-27")
            let quinta = try await ocupacoes("2026-11-26")
            #expect(sexta.count == 1)
            let movidas = outcomes.contains { $0 == ("move", 200) } ? 1 : 0
            #expect(quinta.count == 12 - movidas)
            #expect(quinta.isDisjoint(with: sexta))
        }
    }

    @Test(
        "50 sign-ups at once from two instances for an event of ten places: ten have one, the others wait or are told to try again, nobody twice"
    )
    func two_instances_never_give_more_places_than_an_event_has() async throws {
        try await withTwoInstances { a, b in
            let unidade = try await a.unidade("Race encontro")
            let pedido = try JSONDecoder.iso.decode(
                CheckinService.PedidoDeEncontro.self,
                from: Data(
                    #"""
                    {"unidadeId":"\#(unidade)","titulo":"Café","inicio":"2026-11-27T19:00:00-03:00","fim":"2026-11-27T21:00:00-03:00","vagas":10}
                    """#.utf8))
            let id = try await a.checkin.publicarEncontro(pedido, caller: Instance.admin).id
            let outcomes = try await withThrowingTaskGroup(of: (String?, String?).self) { race in
                for index in 0..<50 {
                    let instance = index.isMultiple(of: 2) ? a : b
                    race.addTask {
                        do {
                            let view = try await instance.checkin.inscrever(id, caller: Caller(requestId: "e\(index)", usuario: "membro-\(index)"))
                            return (view.minhaInscricao?.rawValue, nil)
                        } catch let error as ServiceError {
                            return (nil, error.codigo)
                        }
                    }
                }
                return try await race.reduce(into: [(String?, String?)]()) { $0.append($1) }
            }
            // A sign-up that lost five times in a row to the other instance is a 409 to try again.
            #expect(outcomes.allSatisfy { $0.0 != nil || $0.1 == "conflito_de_versao" })
            #expect(outcomes.filter { $0.0 == "confirmada" }.count == 10)
            let stream = try await a.store.readStream(StreamNames.encontro(try #require(Encontro.ID(id))))
            let inscritos = try stream.filter { $0.type == Encontro.Catalogo.inscrito.type }
                .map { try EventJSON.decoder.decode(Encontro.Inscrito.self, from: $0.data) }
            #expect(inscritos.filter { !$0.naEspera }.count == 10)
            #expect(Set(inscritos.map(\.usuarioId)).count == inscritos.count)
            #expect(inscritos.count == outcomes.filter { $0.0 != nil }.count)
        }
    }

    @Test("30 prospects at once from two instances for a tour time a unit receives three at: three are booked, the day holds those three")
    func two_instances_never_book_more_tours_than_a_time_takes() async throws {
        try await withTwoInstances { a, b in
            let unidade = try await a.unidade("Race tour")
            let uid = try #require(UUID(uuidString: unidade))
            _ = try await a.checkin.configurarTours(
                unidade: unidade,
                CheckinService.PedidoDeConfiguracaoDeTours(
                    ativo: true, duracaoMinutos: 60, simultaneos: 3,
                    horario: try Espaco.HorarioSemanal([.segunda: [Espaco.Faixa(abre: 9 * 60, fecha: 18 * 60)]])),
                caller: Caller(requestId: "race", usuario: "admin", papel: "admin"))
            let pedido = try JSONDecoder.iso.decode(
                CheckinService.PedidoDeTour.self,
                from: Data(#"{"unidadeId":"\#(unidade)","inicio":"2026-11-23T15:00:00-03:00","nome":"Bruno","email":"bruno@example.com"}"#.utf8))
            let outcomes = try await withThrowingTaskGroup(of: String.self) { race in
                for index in 0..<30 {
                    let instance = index.isMultiple(of: 2) ? a : b
                    race.addTask {
                        do {
                            _ = try await instance.checkin.agendarTour(pedido, caller: Caller(requestId: "t\(index)", idempotencyKey: "ip|t\(index)"))
                            return "ok"
                        } catch let error as ServiceError {
                            return error.codigo
                        }
                    }
                }
                return try await race.reduce(into: [String]()) { $0.append($1) }
            }
            // One that lost five times in a row to the other instance is a 409 to try again.
            #expect(outcomes.filter { $0 == "ok" }.count == 3, "\(outcomes)")
            #expect(outcomes.allSatisfy { ["ok", "horario_de_tour_lotado", "conflito_de_versao"].contains($0) }, "\(outcomes)")
            let dia = try await a.store.readStream(StreamNames.agendaDeTours(unidade: uid, dia: try #require(DataLocal("2026-11-23"))))
            #expect(dia.filter { $0.type == AgendaDeTours.Catalogo.ocupado.type }.count == 3)
        }
    }

    @Test("twelve boleto bookings by one member at once, from two instances: exactly three hold, and the member's stream records those three")
    func two_instances_keep_the_boleto_limit() async throws {
        try await withTwoInstances { a, b in
            let espacoId = try await a.espaco(try await a.unidade("Race boleto"), tipo: "sala_privativa", capacidade: 4)
            let membro = "membro-boleto-\(UUID().uuidString.lowercased())"
            // Weekdays from Thursday 2026-11-26 on, 10:00–11:00 São Paulo: two days ahead or more.
            let dias = ["26", "27", "30"].map { "2026-11-\($0)" } + ["01", "02", "03", "04", "07", "08", "09", "10", "11"].map { "2026-12-\($0)" }
            let outcomes = try await withThrowingTaskGroup(of: (Int, String?).self) { race in
                for (index, dia) in dias.enumerated() {
                    let instance = index.isMultiple(of: 2) ? a : b
                    let pedido = try JSONDecoder.iso.decode(
                        ReservasService.PedidoDeReserva.self,
                        from: Data(
                            #"""
                            {"espacoId":"\#(espacoId)","inicio":"\#(dia)T10:00:00-03:00","fim":"\#(dia)T11:00:00-03:00","pagamento":{"metodo":"boleto"}}
                            """#.utf8))
                    race.addTask {
                        do {
                            _ = try await instance.reservas.solicitar(pedido, usuario: membro, caller: Caller(requestId: "b\(index)"))
                            return (201, nil)
                        } catch let error as ServiceError {
                            return (error.status, error.codigo)
                        }
                    }
                }
                return try await race.reduce(into: [(Int, String?)]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0.0 == 201 }.count == BoletosPendentes.limite)
            #expect(outcomes.filter { $0.0 == 409 && $0.1 == "boletos_pendentes" }.count == dias.count - BoletosPendentes.limite)
            let registrados = try await a.store.readStream(StreamNames.boletos(membro))
            #expect(registrados.count == BoletosPendentes.limite)
            #expect(Set(registrados.map(\.type)) == ["BoletoPendenteRegistrado"])
        }
    }
}

extension PostgresBookingRaceTests {
    @Test(
        "twelve bookings by one member at once, from two instances, against 3 hours of credits: exactly three spend them, the wallet ends at zero and never below"
    )
    func two_instances_never_spend_one_credit_twice() async throws {
        try await withTwoInstances { a, b in
            let espacoId = try await a.espaco(try await a.unidade("Race créditos"), tipo: "sala_privativa", capacidade: 4)
            let membro = UUID().uuidString.lowercased()
            let lote = Carteira.Lote(
                loteId: UUID(), medida: .minutos, quantidade: 180, tipos: [.salaPrivativa], origem: .ajuste, descricao: "3 h de sala")
            let concedidos = Carteira.Event.concedidos(Carteira.Concedidos(titular: membro, lote: lote, por: "admin", em: segundaDeManha))
            _ = try await a.store.append(
                to: StreamNames.creditos(membro), expected: .noStream,
                events: [try NewEvent(eventId: UUID(), event: concedidos, occurredAt: segundaDeManha)])
            // One hour each, on twelve days: every quote counts on the credits (total 0); a
            // booking that finds them spent is refused (409), never charged in their place.
            let dias = ["26", "27", "30"].map { "2026-11-\($0)" } + ["01", "02", "03", "04", "07", "08", "09", "10", "11"].map { "2026-12-\($0)" }
            let outcomes = try await withThrowingTaskGroup(of: (Int, String?).self) { race in
                for (index, dia) in dias.enumerated() {
                    let instance = index.isMultiple(of: 2) ? a : b
                    let pedido = try JSONDecoder.iso.decode(
                        ReservasService.PedidoDeReserva.self,
                        from: Data(
                            #"""
                            {"espacoId":"\#(espacoId)","inicio":"\#(dia)T10:00:00-03:00","fim":"\#(dia)T11:00:00-03:00","totalEsperado":0}
                            """#.utf8))
                    race.addTask {
                        do {
                            let reserva = try await instance.reservas.solicitar(pedido, usuario: membro, caller: Caller(requestId: "c\(index)"))
                            return (reserva.total == .zero && reserva.creditos?.minutos == 60 ? 201 : 500, nil)
                        } catch let error as ServiceError {
                            return (error.status, error.codigo)
                        }
                    }
                }
                return try await race.reduce(into: [(Int, String?)]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0.0 == 201 }.count == 3, "\(outcomes)")
            #expect(
                outcomes.filter { $0.0 == 409 && ["creditos_insuficientes", "preco_alterado"].contains($0.1) }.count == dias.count - 3,
                "\(outcomes)")
            let carteira = try await a.store.readStream(StreamNames.creditos(membro))
            let eventos = try carteira.compactMap { try Carteira.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
            #expect(eventos.filter { if case .consumidos = $0 { true } else { false } }.count == 3)
            var saldo: Int64 = 180
            for event in eventos {
                if case .consumidos(let e) = event { saldo -= e.partes.reduce(0) { $0 + $1.quantidade } }
                #expect(saldo >= 0)
            }
            #expect(saldo == 0)
            #expect(Carteira.decider.fold(eventos).saldo(.minutos, em: segundaDeManha) == 0)
        }
    }
}

extension JSONDecoder {
    static var iso: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

extension PostgresBookingRaceTests {
    @Test(
        "twelve bookings at once by three people of one company, from two instances, against its 3 pooled hours (one person capped at 1 h a month): exactly three spend them, the capped one at most one, the pool ends at zero and never below"
    )
    func two_instances_never_spend_one_pooled_credit_twice() async throws {
        try await withTwoInstances { a, b in
            let espacoId = try await a.espaco(try await a.unidade("Race empresa"), tipo: "sala_privativa", capacidade: 4)
            let empresa = UUID()
            let pessoas = (0..<3).map { _ in UUID().uuidString.lowercased() }
            let empresaStream = StreamName(category: Empresa.Catalogo.category, id: empresa.uuidString.lowercased())
            func evento(_ kind: EventKind, _ json: String) -> NewEvent {
                NewEvent(eventId: UUID(), type: kind.type, schemaVersion: kind.schemaVersion, data: Data(json.utf8), occurredAt: segundaDeManha)
            }
            let em = "2026-11-23T11:00:00Z"
            let id = empresa.uuidString
            // The company (the first person its manager), the two others joined by invitation,
            // the third capped at one hour a month; each person's Vinculo; three pooled hours.
            var eventos = [
                evento(
                    Empresa.Catalogo.cadastrada,
                    #"{"empresaId":"\#(id)","cadastro":{"razaoSocial":"Race Ltda","cnpj":"11222333000181","emailDeCobranca":"f@race.test","endereco":{"logradouro":"R","numero":"1","cidade":"SP","uf":"SP","cep":"01000-000"}},"gestor":"\#(pessoas[0])","por":"admin","em":"\#(em)"}"#
                )
            ]
            for (n, pessoa) in pessoas.dropFirst().enumerated() {
                let convite = UUID().uuidString
                eventos.append(
                    evento(
                        Empresa.Catalogo.conviteEnviado,
                        #"{"empresaId":"\#(id)","convite":{"conviteId":"\#(convite)","email":"pii:v1:x","token":"pii:v1:y","tokenHash":"h\#(n)","papel":"membro","expiraEm":"2026-12-30T00:00:00Z","por":"\#(pessoas[0])","em":"\#(em)"}}"#
                    ))
                eventos.append(
                    evento(
                        Empresa.Catalogo.conviteAceito,
                        #"{"empresaId":"\#(id)","conviteId":"\#(convite)","usuarioId":"\#(pessoa)","papel":"membro","em":"\#(em)"}"#))
            }
            eventos.append(
                evento(
                    Empresa.Catalogo.limiteDefinido,
                    #"{"empresaId":"\#(id)","usuarioId":"\#(pessoas[2])","limite":{"minutosPorMes":60},"por":"\#(pessoas[0])","em":"\#(em)"}"#))
            _ = try await a.store.append(to: empresaStream, expected: .noStream, events: eventos)
            for pessoa in pessoas {
                _ = try await a.store.append(
                    to: StreamName(category: Vinculo.Catalogo.category, id: pessoa), expected: .noStream,
                    events: [
                        evento(Vinculo.Catalogo.criado, #"{"usuarioId":"\#(pessoa)","empresaId":"\#(id)","em":"\#(em)"}"#)
                    ])
            }
            let pool = "empresa-\(empresa.uuidString.lowercased())"
            let lote = Carteira.Lote(
                loteId: UUID(), medida: .minutos, quantidade: 180, tipos: [.salaPrivativa], origem: .plano, descricao: "3 h de sala")
            let concedidos = Carteira.Event.concedidos(Carteira.Concedidos(titular: pool, lote: lote, por: "admin", em: segundaDeManha))
            _ = try await a.store.append(
                to: StreamNames.creditos(pool), expected: .noStream,
                events: [try NewEvent(eventId: UUID(), event: concedidos, occurredAt: segundaDeManha)])
            // One hour each, on twelve days of December, four by each person, half on each instance.
            let dias = ["01", "02", "03", "04", "07", "08", "09", "10", "11", "14", "15", "16"].map { "2026-12-\($0)" }
            let outcomes = try await withThrowingTaskGroup(of: (Int, String?, String).self) { race in
                for (index, dia) in dias.enumerated() {
                    let instance = index.isMultiple(of: 2) ? a : b
                    let pessoa = pessoas[index % 3]
                    let pedido = try JSONDecoder.iso.decode(
                        ReservasService.PedidoDeReserva.self,
                        from: Data(
                            #"""
                            {"espacoId":"\#(espacoId)","inicio":"\#(dia)T10:00:00-03:00","fim":"\#(dia)T11:00:00-03:00","totalEsperado":0}
                            """#.utf8))
                    race.addTask {
                        do {
                            let reserva = try await instance.reservas.solicitar(pedido, usuario: pessoa, caller: Caller(requestId: "e\(index)"))
                            return (reserva.total == .zero && reserva.creditos?.minutos == 60 ? 201 : 500, nil, pessoa)
                        } catch let error as ServiceError {
                            return (error.status, error.codigo, pessoa)
                        }
                    }
                }
                return try await race.reduce(into: [(Int, String?, String)]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0.0 == 201 }.count == 3, "\(outcomes)")
            #expect(outcomes.filter { $0.0 == 201 && $0.2 == pessoas[2] }.count <= 1, "\(outcomes)")
            #expect(
                outcomes.filter { $0.0 == 409 && ["creditos_insuficientes", "preco_alterado", "limite_do_mes"].contains($0.1) }.count == dias.count
                    - 3,
                "\(outcomes)")
            let carteira = try await a.store.readStream(StreamNames.creditos(pool))
            let lidos = try carteira.compactMap { try Carteira.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
            var saldo: Int64 = 180
            var doLimitado: Int64 = 0
            for event in lidos {
                if case .consumidos(let e) = event {
                    saldo -= e.partes.reduce(0) { $0 + $1.quantidade }
                    if e.beneficiario == pessoas[2] { doLimitado += e.partes.reduce(0) { $0 + $1.quantidade } }
                    #expect(e.mes == "2026-12")
                }
                #expect(saldo >= 0)
            }
            #expect(saldo == 0 && doLimitado <= 60)
        }
    }
}
