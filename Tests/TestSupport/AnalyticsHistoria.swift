public import Domain
public import EventStore
public import Foundation
public import Logging
import Projections

/// Histories appended the way the services append them (real payload types where they exist;
/// pagamentos and checkin payloads in their documented shapes).
public struct AnalyticsHistoria {
    public static let unidade = Unidade.ID(UUID(uuidString: "0B5D2A44-7C1B-4E9C-9B0E-2F7A1C3D4E01") ?? UUID())
    public static let sala = Espaco.ID(UUID(uuidString: "5A1E0C0D-1B2C-4D3E-8F40-5A6B7C8D9E02") ?? UUID())
    public static let ana = "a0000000-0000-4000-8000-00000000000a"
    public static let bia = "b0000000-0000-4000-8000-00000000000b"

    public static let logger: Logger = {
        var logger = Logger(label: "analytics-tests")
        logger.logLevel = .critical
        return logger
    }()

    public static func store() throws -> (SQLiteEventStore, String) {
        let path = TemporarySQLite.path("coworkflow-analytics")
        return (try SQLiteEventStore(path: path), path)
    }

    public static func remove(_ path: String) {
        TemporarySQLite.remove(path)
    }

    /// Every analytics document, per collection, in the store's list order.
    public static func snapshot(_ store: any EventStore) async throws -> [String: [String]] {
        var snapshot: [String: [String]] = [:]
        for colecao in AnalyticsReadModel.colecoes {
            snapshot[colecao] = try await store.documents(colecao, grupo: nil, limit: 1_000_000, offset: 0).map {
                String(decoding: $0, as: UTF8.self)
            }
        }
        return snapshot
    }

    /// One line per collection whose documents differ (count, or the first differing pair).
    public static func diferencas(_ a: [String: [String]], _ b: [String: [String]]) -> [String] {
        AnalyticsReadModel.colecoes.compactMap { colecao in
            let (x, y) = (a[colecao] ?? [], b[colecao] ?? [])
            guard x != y else { return nil }
            guard x.count == y.count else { return "\(colecao): \(x.count) documents against \(y.count)" }
            return zip(x, y).first { $0 != $1 }.map { "\(colecao): \($0) vs \($1)" }
        }
    }

    public static func date(_ text: String) throws -> Date { try Date(text, strategy: .iso8601) }

    public static func novo<E: DomainEvent>(_ event: E, _ em: Date) throws -> NewEvent {
        try NewEvent(eventId: UUID(), event: event, occurredAt: em)
    }

    public static func json(_ type: String, _ body: String, _ em: Date) -> NewEvent {
        NewEvent(eventId: UUID(), type: type, data: Data(body.utf8), occurredAt: em)
    }

    public static func solicitada(
        reserva: UUID, usuario: String, inicio: String, fim: String, em: String, espaco: Espaco.ID = sala,
        unidade: Unidade.ID = unidade, fuso: TimeZone = TimeZone(identifier: "America/Sao_Paulo") ?? .gmt
    ) throws -> NewEvent {
        let intervalo = try TimeRange(start: try date(inicio), end: try date(fim))
        let pedido = Reserva.Pedido(
            id: Reserva.ID(reserva), espacoId: espaco.rawValue, unidadeId: unidade.rawValue, usuarioId: usuario, intervalo: intervalo,
            dias: DataLocal.dias(de: intervalo, em: fuso), total: Money(centavos: 10_000),
            linhas: [Reserva.LinhaDePreco(codigo: "hora", descricao: "2 h × R$ 50,00", valor: Money(centavos: 10_000))],
            cupom: nil, expiraEm: try date(em).addingTimeInterval(900))
        return try novo(Reserva.Event.solicitada(Reserva.Solicitada(pedido, em: try date(em))), try date(em))
    }

    public static func pagamento(
        _ tipo: String, reserva: UUID, usuario: String, valor: Int64, em: String, espaco: Espaco.ID = sala,
        unidade: Unidade.ID = unidade
    ) throws -> NewEvent {
        let id = UUID().uuidString.lowercased()
        let extra = tipo == "PagamentoConfirmado" ? #""cobrancaId":"cob_1","metodo":"pix","# : #""reembolsoId":"\#(UUID())","#
        return json(
            tipo,
            """
            {\(extra)"em":"\(em)","espacoId":"\(espaco)","pagamentoId":"\(id)","reservaId":"\(reserva.uuidString.lowercased())",\
            "unidadeId":"\(unidade)","usuarioId":"\(usuario)","valor":\(valor)}
            """, try date(em))
    }

    public static func checkin(_ tipo: String, reserva: UUID, usuario: String, inicio: String, fim: String, em: String) throws -> NewEvent {
        json(
            tipo,
            """
            {"em":"\(em)","espacoId":"\(sala)","fim":"\(fim)","inicio":"\(inicio)","reservaId":"\(reserva.uuidString.lowercased())",\
            "unidadeId":"\(unidade)","usuarioId":"\(usuario)"}
            """, try date(em))
    }

    /// A block of `espaco` over `de..<fim` (a lease to Ana unless `motivo` says otherwise).
    public static func bloqueio(
        _ id: UUID, espaco: Espaco.ID, de: String, ate: String, em: String, motivo: Espaco.Bloqueio.Motivo = .locacao
    ) throws -> NewEvent {
        let locatario = motivo == .locacao ? Espaco.Bloqueio.Locatario(usuarioId: UUID(uuidString: ana), empresaId: nil) : nil
        let bloqueio = Espaco.Bloqueio(
            id: id, intervalo: try TimeRange(start: try date(de), end: try date(ate)), motivo: motivo, descricao: "contrato 12",
            locatario: locatario)
        return try novo(Espaco.Event.bloqueioAgendado(Espaco.BloqueioAgendado(espacoId: espaco, bloqueio: bloqueio, em: try date(em))), try date(em))
    }

    public static func encurtado(_ id: UUID, espaco: Espaco.ID, fim: String, em: String) throws -> NewEvent {
        try novo(
            Espaco.Event.bloqueioEncurtado(Espaco.BloqueioEncurtado(espacoId: espaco, bloqueioId: id, fim: try date(fim), em: try date(em))),
            try date(em))
    }

    public static func removido(_ id: UUID, espaco: Espaco.ID, em: String) throws -> NewEvent {
        try novo(Espaco.Event.bloqueioRemovido(Espaco.BloqueioRemovido(espacoId: espaco, bloqueioId: id, em: try date(em))), try date(em))
    }

    public static func append(_ store: any EventStore, _ stream: StreamName, _ events: [NewEvent]) async throws {
        try await store.append(to: stream, expected: .any, events: events)
    }

    /// One room open 08–18 every day in São Paulo; four bookings (see the test for the sums).
    /// Returns the booking that was a no-show.
    @discardableResult
    public static func pequena(_ store: any EventStore) async throws -> UUID {
        let sp = "America/Sao_Paulo"
        try await append(
            store, StreamNames.unidade(unidade),
            [
                try novo(
                    Unidade.Event.cadastrada(
                        Unidade.Cadastrada(
                            unidadeId: unidade, nome: "Paulista",
                            endereco: Unidade.Endereco(logradouro: "Av. Paulista", numero: "1000", cidade: "São Paulo", uf: "SP", cep: "01310-100"),
                            fusoHorario: sp, politica: .padrao, em: try date("2026-03-01T11:00:00Z"))), try date("2026-03-01T11:00:00Z"))
            ])
        let todoDia = [Espaco.Faixa(abre: 480, fecha: 1_080)]
        let horario = try Espaco.HorarioSemanal(Dictionary(uniqueKeysWithValues: DiaDaSemana.allCases.map { ($0, todoDia) }))
        try await append(
            store, StreamNames.espaco(sala),
            [
                try novo(
                    Espaco.Event.cadastrado(
                        Espaco.Cadastrado(
                            espacoId: sala, unidadeId: unidade, nome: "Sala Ipê", tipo: .salaReuniao, capacidade: 8, comodidades: [], fotos: [],
                            regras: .padrao, horario: horario, em: try date("2026-03-01T12:00:00Z"))), try date("2026-03-01T12:00:00Z"))
            ])

        let (r1, r2, r3, r4) = (UUID(), UUID(), UUID(), UUID())
        func reserva(_ id: UUID, _ events: [NewEvent]) async throws { try await append(store, StreamNames.reserva(Reserva.ID(id)), events) }
        func confirmada(_ id: UUID, _ em: String) throws -> NewEvent {
            try novo(Reserva.Event.confirmada(Reserva.Confirmada(reservaId: Reserva.ID(id), pagamentoId: "p", em: try date(em))), try date(em))
        }
        func cancelada(_ id: UUID, pago: Int64, _ em: String) throws -> NewEvent {
            try novo(
                Reserva.Event.cancelada(
                    Reserva.Cancelada(
                        reservaId: Reserva.ID(id), por: "membro", motivo: nil, pago: Money(centavos: pago), multa: .zero,
                        reembolso: Money(centavos: pago), em: try date(em))), try date(em))
        }
        // R1 (Ana): 03-10 10:00–12:00 local, requested 216 h ahead, paid 100,00, checked in.
        try await reserva(
            r1, [try solicitada(reserva: r1, usuario: ana, inicio: "2026-03-10T13:00:00Z", fim: "2026-03-10T15:00:00Z", em: "2026-03-01T13:00:00Z")])
        try await append(
            store, StreamName(category: "pagamento", id: "r1"),
            [try pagamento("PagamentoConfirmado", reserva: r1, usuario: ana, valor: 10_000, em: "2026-03-01T13:05:00Z")])
        try await reserva(r1, [try confirmada(r1, "2026-03-01T13:05:00Z")])
        // R2 (Bia): requested, cancelled unpaid. (A coupon had made it free: its payment is
        // R$ 0, which is no payment to count.)
        try await reserva(
            r2, [try solicitada(reserva: r2, usuario: bia, inicio: "2026-03-10T17:00:00Z", fim: "2026-03-10T18:00:00Z", em: "2026-03-02T12:00:00Z")])
        try await append(
            store, StreamName(category: "pagamento", id: "r2"),
            [try pagamento("PagamentoConfirmado", reserva: r2, usuario: bia, valor: 0, em: "2026-03-02T12:01:00Z")])
        try await reserva(r2, [try cancelada(r2, pago: 0, "2026-03-02T12:30:00Z")])
        // R4 (Ana): 03-12 16:00–18:00, 168 h ahead, paid 50,00, cancelled and refunded on 03-06.
        try await reserva(
            r4, [try solicitada(reserva: r4, usuario: ana, inicio: "2026-03-12T19:00:00Z", fim: "2026-03-12T21:00:00Z", em: "2026-03-05T19:00:00Z")])
        try await append(
            store, StreamName(category: "pagamento", id: "r4"),
            [try pagamento("PagamentoConfirmado", reserva: r4, usuario: ana, valor: 5_000, em: "2026-03-05T19:02:00Z")])
        try await reserva(r4, [try confirmada(r4, "2026-03-05T19:02:00Z")])
        try await reserva(r4, [try cancelada(r4, pago: 5_000, "2026-03-06T10:00:00Z")])
        try await append(
            store, StreamName(category: "pagamento", id: "r4"),
            [try pagamento("ReembolsoConcluido", reserva: r4, usuario: ana, valor: 5_000, em: "2026-03-06T10:05:00Z")])
        // R3 (Bia): 03-11 08:00–09:00, 48 h ahead, paid 80,00, no-show.
        try await reserva(
            r3,
            [
                try solicitada(
                    reserva: r3, usuario: bia.uppercased(), inicio: "2026-03-11T11:00:00Z", fim: "2026-03-11T12:00:00Z", em: "2026-03-09T11:00:00Z")
            ])
        try await append(
            store, StreamName(category: "pagamento", id: "r3"),
            [try pagamento("PagamentoConfirmado", reserva: r3, usuario: bia, valor: 8_000, em: "2026-03-09T11:01:00Z")])
        try await reserva(r3, [try confirmada(r3, "2026-03-09T11:01:00Z")])
        try await append(
            store, StreamName(category: "checkin", id: r1.uuidString.lowercased()),
            [
                try checkin(
                    "CheckinRealizado", reserva: r1, usuario: ana, inicio: "2026-03-10T13:00:00Z", fim: "2026-03-10T15:00:00Z",
                    em: "2026-03-10T13:02:00Z")
            ])
        try await append(
            store, StreamName(category: "checkin", id: r3.uuidString.lowercased()),
            [
                try checkin(
                    "NoShowRegistrado", reserva: r3, usuario: bia, inicio: "2026-03-11T11:00:00Z", fim: "2026-03-11T12:00:00Z",
                    em: "2026-03-11T11:30:00Z")
            ])
        // From 03-12 the room opens 08–12 only; on 03-13 it is deactivated.
        let manhas = try Espaco.HorarioSemanal(
            Dictionary(uniqueKeysWithValues: DiaDaSemana.allCases.map { ($0, [Espaco.Faixa(abre: 480, fecha: 720)]) }))
        try await append(
            store, StreamNames.espaco(sala),
            [
                try novo(
                    Espaco.Event.horarioDefinido(Espaco.HorarioDefinido(espacoId: sala, horario: manhas, em: try date("2026-03-12T12:00:00Z"))),
                    try date("2026-03-12T12:00:00Z")),
                try novo(
                    Espaco.Event.desativado(Espaco.Desativado(espacoId: sala, motivo: "reforma", em: try date("2026-03-13T12:00:00Z"))),
                    try date("2026-03-13T12:00:00Z")),
            ])
        return r3
    }

    // MARK: A larger random history

    private var estado: UInt64
    private var unidades: [(Unidade.ID, String)] = []
    private var espacos: [(Espaco.ID, Unidade.ID, String)] = []
    private var dia = 0

    public init(seed: UInt64) { estado = seed }

    private mutating func aleatorio(_ limite: Int) -> Int {
        estado = estado &+ 0x9E37_79B9_7F4A_7C15
        var z = estado
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(limite))
    }

    /// Two units in different time zones, five spaces (one shared), schedule changes, and
    /// `reservas` bookings by `membros` members with every outcome, appended in many
    /// transactions; a second call adds bookings on later days.
    public mutating func gerar(_ store: any EventStore, reservas: Int, membros: Int) async throws {
        func iso(_ segundos: Int) -> String { Date(timeIntervalSince1970: TimeInterval(segundos)).formatted(.iso8601) }
        let base = 1_767_225_600  // 2026-01-01T00:00:00Z
        if unidades.isEmpty {
            for (indice, fuso) in ["America/Sao_Paulo", "America/Manaus"].enumerated() {
                let id = Unidade.ID(UUID())
                unidades.append((id, fuso))
                let em = Date(timeIntervalSince1970: TimeInterval(base - 86_400 * 30 + indice))
                try await AnalyticsHistoria.append(
                    store, StreamNames.unidade(id),
                    [
                        try AnalyticsHistoria.novo(
                            Unidade.Event.cadastrada(
                                Unidade.Cadastrada(
                                    unidadeId: id, nome: "Unidade \(indice)",
                                    endereco: Unidade.Endereco(
                                        logradouro: "Rua \(indice)", numero: "1", cidade: "Cidade", uf: "SP", cep: "01000-000"),
                                    fusoHorario: fuso, politica: .padrao, em: em)), em)
                    ])
            }
            let tipos: [(Espaco.Tipo, Int)] = [(.salaReuniao, 8), (.estacaoCompartilhada, 3), (.salaPrivativa, 4), (.auditorio, 80), (.mesaFixa, 1)]
            for (indice, (tipo, capacidade)) in tipos.enumerated() {
                let id = Espaco.ID(UUID())
                let (unidade, fuso) = unidades[indice % 2]
                espacos.append((id, unidade, fuso))
                let util = [Espaco.Faixa(abre: 480, fecha: 1_200)]
                let horario = try Espaco.HorarioSemanal([
                    .segunda: util, .terca: util, .quarta: util, .quinta: util, .sexta: util, .sabado: [Espaco.Faixa(abre: 540, fecha: 780)],
                ])
                let em = Date(timeIntervalSince1970: TimeInterval(base - 86_400 * 20 + indice))
                try await AnalyticsHistoria.append(
                    store, StreamNames.espaco(id),
                    [
                        try AnalyticsHistoria.novo(
                            Espaco.Event.cadastrado(
                                Espaco.Cadastrado(
                                    espacoId: id, unidadeId: unidade, nome: "Espaço \(indice)", tipo: tipo, capacidade: capacidade, comodidades: [],
                                    fotos: [], regras: .padrao, horario: horario, em: em)), em)
                    ])
            }
        }
        var pendentes: [(Int, StreamName, NewEvent)] = []
        for n in 0..<reservas {
            dia += aleatorio(3) == 0 ? 1 : 0
            let (espaco, unidade, fuso) = espacos[aleatorio(espacos.count)]
            let offset = fuso == "America/Manaus" ? 4 * 3_600 : 3 * 3_600
            // 07:00–21:00 local starts, 1–5 h, a few overnight or over several days.
            let inicio = base + dia * 86_400 + offset + (7 + aleatorio(14)) * 3_600 + aleatorio(4) * 900
            let duracao = aleatorio(25) == 0 ? 86_400 * (1 + aleatorio(3)) + 1_800 : (1 + aleatorio(5)) * 3_600
            let pedido = inicio - 3_600 * (1 + aleatorio(24 * 20))
            let usuario = String(format: "%08lx-0000-4000-8000-%012lx", aleatorio(membros), n % 7)
            let reserva = UUID()
            let stream = StreamNames.reserva(Reserva.ID(reserva))
            let pagamentos = StreamName(category: "pagamento", id: reserva.uuidString.lowercased())
            let checkins = StreamName(category: "checkin", id: reserva.uuidString.lowercased())
            pendentes.append(
                (
                    pedido, stream,
                    try AnalyticsHistoria.solicitada(
                        reserva: reserva, usuario: aleatorio(4) == 0 ? usuario.uppercased() : usuario, inicio: iso(inicio),
                        fim: iso(inicio + duracao),
                        em: iso(pedido), espaco: espaco, unidade: unidade, fuso: TimeZone(identifier: fuso) ?? .gmt)
                ))
            pendentes.append(
                (pedido + 1, StreamName(category: "agenda", id: "\(espaco)-\(n)"), AnalyticsHistoria.json("AgendaOcupada", #"{"x":1}"#, Date())))
            let valor = Int64(5_000 + aleatorio(20) * 500)
            switch aleatorio(10) {
            case 0:
                pendentes.append(
                    (
                        pedido + 900, stream,
                        try AnalyticsHistoria.novo(
                            Reserva.Event.expirada(
                                Reserva.Expirada(
                                    reservaId: Reserva.ID(reserva), em: Date(timeIntervalSince1970: TimeInterval(pedido + 900)))), Date())
                    ))
            case 1:
                pendentes.append(
                    (
                        pedido + 300, stream,
                        try AnalyticsHistoria.novo(
                            Reserva.Event.cancelada(
                                Reserva.Cancelada(
                                    reservaId: Reserva.ID(reserva), por: "membro", motivo: nil, pago: .zero, multa: .zero, reembolso: .zero,
                                    em: Date(timeIntervalSince1970: TimeInterval(pedido + 300)))), Date())
                    ))
            default:
                let pago = pedido + 60
                pendentes.append(
                    (
                        pago, pagamentos,
                        try AnalyticsHistoria.pagamento(
                            "PagamentoConfirmado", reserva: reserva, usuario: usuario, valor: valor, em: iso(pago), espaco: espaco, unidade: unidade)
                    ))
                pendentes.append(
                    (
                        pago + 1, stream,
                        try AnalyticsHistoria.novo(
                            Reserva.Event.confirmada(
                                Reserva.Confirmada(
                                    reservaId: Reserva.ID(reserva), pagamentoId: nil, em: Date(timeIntervalSince1970: TimeInterval(pago + 1)))),
                            Date())
                    ))
                switch aleatorio(8) {
                case 0:
                    let cancelamento = pago + (inicio - pago) / 2
                    pendentes.append(
                        (
                            cancelamento, stream,
                            try AnalyticsHistoria.novo(
                                Reserva.Event.cancelada(
                                    Reserva.Cancelada(
                                        reservaId: Reserva.ID(reserva), por: "membro", motivo: "mudou de ideia", pago: Money(centavos: valor),
                                        multa: .zero, reembolso: Money(centavos: valor), em: Date(timeIntervalSince1970: TimeInterval(cancelamento)))),
                                Date())
                        ))
                    pendentes.append(
                        (
                            cancelamento + 60, pagamentos,
                            try AnalyticsHistoria.pagamento(
                                "ReembolsoConcluido", reserva: reserva, usuario: usuario, valor: valor, em: iso(cancelamento + 60), espaco: espaco,
                                unidade: unidade)
                        ))
                case 1:
                    pendentes.append(
                        (
                            inicio + 1_800, checkins,
                            AnalyticsHistoria.json(
                                "NoShowRegistrado",
                                """
                                {"em":"\(iso(inicio + 1_800))","reservaId":"\(reserva)","usuarioId":"\(usuario)"}
                                """, Date())
                        ))
                default:
                    pendentes.append(
                        (
                            inicio + 120, checkins,
                            AnalyticsHistoria.json(
                                "CheckinRealizado",
                                """
                                {"em":"\(iso(inicio + 120))","reservaId":"\(reserva)","usuarioId":"\(usuario)"}
                                """, Date())
                        ))
                    pendentes.append((inicio + duracao, checkins, AnalyticsHistoria.json("CheckoutRealizado", #"{"x":1}"#, Date())))
                }
            }
        }
        if let espaco = espacos.first?.0 {
            let horario = try Espaco.HorarioSemanal([
                .segunda: [Espaco.Faixa(abre: 420, fecha: 1_320)], .domingo: [Espaco.Faixa(abre: 600, fecha: 960)],
            ])
            pendentes.append(
                (
                    base + dia * 43_200, StreamNames.espaco(espaco),
                    try AnalyticsHistoria.novo(
                        Espaco.Event.horarioDefinido(
                            Espaco.HorarioDefinido(
                                espacoId: espaco, horario: horario, em: Date(timeIntervalSince1970: TimeInterval(base + dia * 43_200)))), Date())
                ))
        }
        if espacos.count > 2 {
            let espaco = espacos[2].0
            pendentes.append(
                (
                    base + dia * 30_000, StreamNames.espaco(espaco),
                    try AnalyticsHistoria.novo(
                        Espaco.Event.desativado(
                            Espaco.Desativado(espacoId: espaco, motivo: nil, em: Date(timeIntervalSince1970: TimeInterval(base + dia * 30_000)))),
                        Date())
                ))
            pendentes.append(
                (
                    base + dia * 50_000, StreamNames.espaco(espaco),
                    try AnalyticsHistoria.novo(
                        Espaco.Event.reativado(
                            Espaco.Reativado(espacoId: espaco, em: Date(timeIntervalSince1970: TimeInterval(base + dia * 50_000)))), Date())
                ))
        }
        // Leases: the desk's, ended early; the office's, removed before it began; and a
        // maintenance block, which is no lease.
        if espacos.count > 4 {
            let (escritorio, mesa) = (espacos[2].0, espacos[4].0)
            let (l1, l2, b3) = (UUID(), UUID(), UUID())
            let inicio = base + (dia / 3) * 86_400 + 3 * 3_600
            pendentes.append(
                (
                    inicio - 86_400, StreamNames.espaco(mesa),
                    try Self.bloqueio(l1, espaco: mesa, de: iso(inicio), ate: iso(inicio + 40 * 86_400), em: iso(inicio - 86_400))
                ))
            pendentes.append(
                (
                    inicio + 86_400, StreamNames.espaco(mesa),
                    try Self.encurtado(l1, espaco: mesa, fim: iso(inicio + 9 * 86_400 + 5 * 3_600), em: iso(inicio + 86_400))
                ))
            pendentes.append(
                (
                    inicio, StreamNames.espaco(escritorio),
                    try Self.bloqueio(l2, espaco: escritorio, de: iso(inicio + 86_400), ate: iso(inicio + 20 * 86_400), em: iso(inicio))
                ))
            pendentes.append((inicio + 600, StreamNames.espaco(escritorio), try Self.removido(l2, espaco: escritorio, em: iso(inicio + 600))))
            pendentes.append(
                (
                    inicio + 700, StreamNames.espaco(escritorio),
                    try Self.bloqueio(
                        b3, espaco: escritorio, de: iso(inicio + 2 * 86_400), ate: iso(inicio + 3 * 86_400), em: iso(inicio + 700),
                        motivo: .manutencao)
                ))
        }
        // In time order (a stream's events keep their order), several streams per append.
        let ordenados = pendentes.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
        var inicioDoLote = 0
        while inicioDoLote < ordenados.count {
            let tamanho = 1 + aleatorio(12)
            var porStream: [StreamName: [NewEvent]] = [:]
            var ordem: [StreamName] = []
            for (_, stream, evento) in ordenados[inicioDoLote..<min(ordenados.count, inicioDoLote + tamanho)] {
                if porStream[stream] == nil { ordem.append(stream) }
                porStream[stream, default: []].append(evento)
            }
            try await store.append(ordem.map { StreamWrite(stream: $0, expected: .any, events: porStream[$0] ?? []) })
            inicioDoLote += tamanho
        }
    }
}
