import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import TestSupport

/// HTTP for the faults harness: AsyncHTTPClient, short timeouts, JSON in and out.
enum FaultHTTP {
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(2), read: .seconds(20))
        configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    struct Answer: Sendable {
        let status: Int
        let body: Data
        let retryAfter: String?
        var object: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    static func send(
        _ method: HTTPMethod, _ url: String, _ body: String? = nil, token: String? = nil, key: String? = nil, client: String? = nil,
        timeout: Duration = .seconds(20)
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let key { request.headers.add(name: "Idempotency-Key", value: key) }
        if let client { request.headers.add(name: "X-Forwarded-For", value: client) }
        let response = try await Self.client.execute(request, timeout: .nanoseconds(Int64(timeout / .nanoseconds(1))))
        let bytes = try await response.body.collect(upTo: 4 * 1024 * 1024)
        return Answer(status: Int(response.status.code), body: Data(buffer: bytes), retryAfter: response.headers.first(name: "Retry-After"))
    }

    /// The status of a GET (0 when nothing answered).
    static func status(_ url: String) async -> Int {
        (try? await send(.GET, url, timeout: .seconds(2)).status) ?? 0
    }
}

/// What the load saw, counted per attempt (a retried request counts each try).
struct LoadCounts: Sendable {
    var sent = 0
    var answered = 0
    var status2xx = 0
    var status4xx = 0
    var conflicts = 0
    var status503 = 0
    var status503WithRetryAfter = 0
    var status5xx = 0
    /// The first few 5xx answers other than 503 (method, path, status), to say which.
    var serverErrors: [String] = []
    /// The 4xx answers other than 409 by route, status and `erro` ("POST /api/reservas/{id}/remarcacao
    /// 422 dados_invalidos"): the load means to send well-formed requests, so these say which are not.
    var clientErrors: [String: Int] = [:]
    var unanswered = 0
    /// Requests that failed (after their retries) although they were well-formed.
    var givenUp = 0
    /// Attempts that failed during a rolling restart of the gateways (none may).
    var failedDuringRollingRestart = 0
    /// The first few of them (method, path, what came back), to say which.
    var rollingFailures: [String] = []
    /// The ids of the bookings answered 201: each must be in the log (an answer is a promise).
    var acknowledged: [String] = []
    var bookings: Int { acknowledged.count }
    var cancellations = 0
    var checkins = 0
    var pixPaid = 0
    /// Bookings moved one at a time (by their member or the front desk), answered 200.
    var moves = 0
    /// Recurring bookings answered 201 (their bookings are in `acknowledged`).
    var series = 0
    /// The rest of a series cancelled, or moved, together (answered 200).
    var seriesCancelled = 0
    var seriesMoved = 0
}

/// The gateways as an ALB sees them: requests go round-robin to those in service; a gateway
/// being replaced is taken out of service first (deregistered), so only its in-flight requests
/// still run on it when it gets `SIGTERM`.
final class Balancer: Sendable {
    private struct State {
        var inService: [String]
        var next = 0
        var rolling = false
        var counts = LoadCounts()
    }
    private let state: Mutex<State>

    init(_ urls: [String]) { state = Mutex(State(inService: urls)) }

    func pick() -> String {
        state.withLock { state in
            state.next += 1
            return state.inService[state.next % max(1, state.inService.count)]
        }
    }

    func deregister(_ url: String) { state.withLock { $0.inService.removeAll { $0 == url } } }
    func register(_ url: String) { state.withLock { if !$0.inService.contains(url) { $0.inService.append(url) } } }
    func rolling(_ on: Bool) { state.withLock { $0.rolling = on } }
    func count(_ change: (inout LoadCounts) -> Void) { state.withLock { change(&$0.counts) } }
    var counts: LoadCounts { state.withLock { $0.counts } }

    /// Sends through a gateway in service, retrying (with the same Idempotency-Key, as a client
    /// of the API should) what an outage answers: no answer, 502, 503 (after its Retry-After,
    /// at most 2 s), 504. Nil when every try failed.
    /// `client`: the caller's address, as the balancer names it to the gateways.
    func call(
        _ method: HTTPMethod, _ path: String, _ body: String? = nil, token: String? = nil, client: String = "10.0.0.1", tries: Int = 12
    ) async -> FaultHTTP.Answer? {
        let key = method == .GET ? nil : UUID().uuidString
        for attempt in 1...tries {
            let base = pick()
            let rollingAtStart = state.withLock { $0.rolling }
            count { $0.sent += 1 }
            var pause = Duration.milliseconds(150 * attempt)
            do {
                let answer = try await FaultHTTP.send(method, base + path, body, token: token, key: key, client: client)
                var clientError: String?
                if (400..<500).contains(answer.status), answer.status != 409 {
                    let route = path.split(separator: "?")[0].split(separator: "/", omittingEmptySubsequences: false)
                        .map { UUID(uuidString: String($0)) == nil ? String($0) : "{id}" }.joined(separator: "/")
                    clientError = "\(method) \(route) \(answer.status) \(answer.object["erro"] as? String ?? "-")"
                }
                count { counts in
                    counts.answered += 1
                    switch answer.status {
                    case 200..<300: counts.status2xx += 1
                    case 409: counts.conflicts += 1
                    case 400..<500:
                        counts.status4xx += 1
                        if let clientError { counts.clientErrors[clientError, default: 0] += 1 }
                    case 503:
                        counts.status503 += 1
                        if answer.retryAfter != nil { counts.status503WithRetryAfter += 1 }
                    default:
                        counts.status5xx += 1
                        if counts.serverErrors.count < 10 { counts.serverErrors.append("\(method) \(path) \(answer.status)") }
                    }
                    if [502, 503, 504].contains(answer.status), rollingAtStart {
                        counts.failedDuringRollingRestart += 1
                        if counts.rollingFailures.count < 10 {
                            counts.rollingFailures.append("\(method) \(path) via \(base): \(answer.status) \(answer.text.prefix(160))")
                        }
                    }
                }
                guard [502, 503, 504].contains(answer.status) else { return answer }
                if let seconds = answer.retryAfter.flatMap(Int.init) { pause = .seconds(min(2, max(seconds, 0))) }
            } catch {
                count { counts in
                    counts.unanswered += 1
                    if rollingAtStart {
                        counts.failedDuringRollingRestart += 1
                        if counts.rollingFailures.count < 10 { counts.rollingFailures.append("\(method) \(path) via \(base): \(error)") }
                    }
                }
            }
            try? await Task.sleep(for: pause)
        }
        count { $0.givenUp += 1 }
        return nil
    }
}

/// The world the load books in, made before any fault: an admin; two units (one whose check-in
/// window closes at the booking's start, for no-shows); a few hot rooms, one shared space of
/// capacity 4, rooms the bookings spread over, and rooms for check-ins and no-shows; members.
struct FaultWorld: Sendable {
    var admin = ""
    var hotRooms: [String] = []
    var sharedSpace = ""
    var spreadRooms: [String] = []
    var checkinRooms: [String] = []
    var noShowRooms: [String] = []
    var members: [String] = []

    /// Member `index`'s address.
    static func address(_ index: Int) -> String { "10.1.\(index / 250).\(index % 250 + 1)" }

    static func create(_ balancer: Balancer, members count: Int) async throws -> FaultWorld {
        var world = FaultWorld()
        func must(_ answer: FaultHTTP.Answer?, _ what: String) throws -> [String: Any] {
            guard let answer, (200..<300).contains(answer.status) else {
                throw ValidationError("set-up: \(what) failed: \(answer.map { "\($0.status) \($0.text)" } ?? "no answer")")
            }
            return answer.object
        }
        let login = try must(
            await balancer.call(.POST, "/api/auth/login", #"{"email":"faults@coworkflow.dev","senha":"faults-admin-password"}"#), "admin login")
        world.admin = login["token"] as? String ?? ""
        func unit(_ nome: String, janela: String) async throws -> String {
            let body = #"""
                {"nome":"\#(nome)","endereco":{"logradouro":"Av. Paulista","numero":"1000","cidade":"São Paulo","uf":"SP","cep":"01310-100"},
                 "politicaDeCancelamento":{"horasSemMulta":24,"multaBP":5000},"operacao":{"aliquotaISSBP":200,"janelaDeCheckin":\#(janela)}}
                """#
            return try must(await balancer.call(.POST, "/api/admin/unidades", body, token: world.admin), "unit")["id"] as? String ?? ""
        }
        let paulista = try await unit("Paulista", janela: #"{"antesMinutos":15,"depoisMinutos":30}"#)
        let pinheiros = try await unit("Pinheiros", janela: #"{"antesMinutos":0,"depoisMinutos":0}"#)
        let allDay = "[{\"abre\":0,\"fecha\":1440}]"
        let horario =
            "{" + ["domingo", "segunda", "terca", "quarta", "quinta", "sexta", "sabado"].map { "\"\($0)\":\(allDay)" }.joined(separator: ",") + "}"
        func space(_ unidade: String, _ nome: String, tipo: String = "sala_reuniao", capacidade: Int = 6) async throws -> String {
            let body = """
                {"unidadeId":"\(unidade)","nome":"\(nome)","tipo":"\(tipo)","capacidade":\(capacidade),"horario":\(horario),
                 "regras":{"duracaoMinimaMinutos":30,"duracaoMaximaMinutos":600,"antecedenciaMinimaMinutos":0,"antecedenciaMaximaDias":120}}
                """
            let id = try must(await balancer.call(.POST, "/api/admin/espacos", body, token: world.admin), "space")["id"] as? String ?? ""
            _ = try must(
                await balancer.call(
                    .PUT, "/api/admin/espacos/\(id)/precos", #"{"porHora":6000,"meioPeriodo":20000,"diaria":40000,"duracaoMinimaMinutos":30}"#,
                    token: world.admin), "prices")
            return id
        }
        for index in 0..<3 { world.hotRooms.append(try await space(paulista, "Quente \(index)")) }
        world.sharedSpace = try await space(paulista, "Salão", tipo: "estacao_compartilhada", capacidade: 4)
        for index in 0..<6 { world.spreadRooms.append(try await space(paulista, "Sala \(index)")) }
        for index in 0..<6 { world.checkinRooms.append(try await space(paulista, "Entrada \(index)")) }
        for index in 0..<3 { world.noShowRooms.append(try await space(pinheiros, "Ausência \(index)")) }
        for index in 0..<count {
            let email = "membro\(index)@faults.test"
            _ = try must(
                await balancer.call(
                    .POST, "/api/auth/registro", #"{"nome":"Membro \#(index)","email":"\#(email)","senha":"faults-member-\#(index)"}"#,
                    client: Self.address(index)),
                "registration")
            let token = try must(
                await balancer.call(
                    .POST, "/api/auth/login", #"{"email":"\#(email)","senha":"faults-member-\#(index)"}"#, client: Self.address(index)),
                "member login")
            world.members.append(token["token"] as? String ?? "")
        }
        return world
    }
}

/// One member's part of the load: book (many on a few hot rooms and slots, some on the shared
/// space, the rest spread), pay by PIX at the sandbox or by card (some declined), cancel, move a
/// booking to another time (the member on the spread rooms, the front desk on the hot ones,
/// where moves contend with bookings), book a weekly series and later cancel or move the rest of
/// it together, check in, and book in the no-show unit without coming.
struct MemberLoad: Sendable {
    let index: Int
    let token: String
    let world: FaultWorld
    let balancer: Balancer
    /// Midnight UTC of the day after the run started: the hot slots are on it.
    let tomorrow: Int

    /// A booking of this member's: the space it holds, whether its PIX is still unpaid.
    private struct Mine {
        let id: String
        var pix: Bool
        let space: String
    }

    /// A weekly series of this member's: its first occurrence's start, and how many it has.
    private struct MySeries {
        let id: String
        var start: Int
        let count: Int
    }

    func run(seed: UInt64, until stop: @Sendable () -> Bool) async {
        var random = SplitMix64(seed: seed &+ UInt64(index) &* 7919)
        let address = FaultWorld.address(index)
        var mine: [Mine] = []
        var series: [MySeries] = []
        let formatter = ISO8601DateFormatter()
        func slot(_ start: Int, minutes: Int) -> (String, String) {
            (
                formatter.string(from: Date(timeIntervalSince1970: Double(start))),
                formatter.string(from: Date(timeIntervalSince1970: Double(start + minutes * 60)))
            )
        }
        /// A start the spread rooms take: 1 to 89 days ahead, on the half hour.
        func spreadStart(days: Range<Int> = 1..<90) -> Int {
            tomorrow + 86_400 * Int.random(in: days, using: &random) + Int.random(in: 0..<48, using: &random) * 1800
        }
        /// A start on a hot room (6 hourly slots tomorrow) or the shared space (4).
        func hotStart(_ slots: Int) -> Int { tomorrow + 8 * 3600 + Int.random(in: 0..<slots, using: &random) * 3600 }
        while !stop() {
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 52 {
                // A booking: hot rooms on 6 hourly slots, the shared space, or spread out.
                let (space, start): (String, Int)
                let kind = Int.random(in: 0..<100, using: &random)
                if kind < 45 {
                    space = world.hotRooms[Int.random(in: 0..<world.hotRooms.count, using: &random)]
                    start = hotStart(6)
                } else if kind < 60 {
                    space = world.sharedSpace
                    start = hotStart(4)
                } else {
                    space = world.spreadRooms[Int.random(in: 0..<world.spreadRooms.count, using: &random)]
                    start = spreadStart()
                }
                let payment = Int.random(in: 0..<100, using: &random)
                let (pagamento, pix): (String, Bool) =
                    payment < 40
                    ? ("", true)
                    : payment < 80
                        ? (#","pagamento":{"metodo":"cartao","cartaoToken":"tok_visa"}"#, false)
                        : (#","pagamento":{"metodo":"cartao","cartaoToken":"tok_sandbox_recusado"}"#, false)
                let (inicio, fim) = slot(start, minutes: 60)
                let answer = await balancer.call(
                    .POST, "/api/reservas", #"{"espacoId":"\#(space)","inicio":"\#(inicio)","fim":"\#(fim)"\#(pagamento)}"#, token: token,
                    client: address)
                if let answer, answer.status == 201, let id = answer.object["id"] as? String {
                    balancer.count { $0.acknowledged.append(id) }
                    mine.append(Mine(id: id, pix: pix, space: space))
                }
            } else if roll < 65, let booking = mine.filter(\.pix).randomElement(using: &random) {
                // Pay a PIX booking at the sandbox (the provider then notifies the gateway).
                let pagamento = await balancer.call(.GET, "/api/reservas/\(booking.id)/pagamento", token: token, client: address)
                if let cobranca = pagamento?.object["cobrancaId"] as? String, pagamento?.object["status"] as? String == "pendente" {
                    if let paid = await balancer.call(.POST, "/api/sandbox/cobrancas/\(cobranca)/pagamento", client: address), paid.status == 200 {
                        balancer.count { $0.pixPaid += 1 }
                    }
                }
                if let index = mine.firstIndex(where: { $0.id == booking.id }) { mine[index].pix = false }
            } else if roll < 76, let booking = mine.randomElement(using: &random) {
                let answer = await balancer.call(
                    .POST, "/api/reservas/\(booking.id)/cancelamento", #"{"motivo":"teste de faltas"}"#, token: token, client: address)
                if answer?.status == 200 { balancer.count { $0.cancellations += 1 } }
                mine.removeAll { $0.id == booking.id }
            } else if roll < 81, let booking = mine.filter({ !$0.pix }).randomElement(using: &random) {
                // Move a paid booking to another hour of its space, the same length (ADR 0021). On the hot
                // rooms and the shared space (tomorrow: inside the member's free window no more) the front
                // desk moves it, and the move contends with the bookings of those slots; on the spread
                // rooms the member does. Unconfirmed, taken or declined moves answer 409.
                let hot = world.hotRooms.contains(booking.space) || booking.space == world.sharedSpace
                let start = hot ? hotStart(booking.space == world.sharedSpace ? 4 : 6) : spreadStart()
                let (inicio, fim) = slot(start, minutes: 60)
                let answer = await balancer.call(
                    .POST, "/api/reservas/\(booking.id)/remarcacao", #"{"inicio":"\#(inicio)","fim":"\#(fim)"}"#,
                    token: hot ? world.admin : token, client: address)
                if answer?.status == 200 { balancer.count { $0.moves += 1 } }
            } else if roll < 84 {
                if series.isEmpty || Int.random(in: 0..<100, using: &random) < 50 {
                    // Book a weekly series of 3 on a spread room by card (ADR 0014): a taken occurrence is
                    // recorded as refused, the others are booked.
                    let space = world.spreadRooms[Int.random(in: 0..<world.spreadRooms.count, using: &random)]
                    let start = spreadStart(days: 1..<60)
                    let (inicio, fim) = slot(start, minutes: 60)
                    let answer = await balancer.call(
                        .POST, "/api/reservas/series",
                        #"{"espacoId":"\#(space)","inicio":"\#(inicio)","fim":"\#(fim)","frequencia":"semanal","ocorrencias":3,"#
                            + #""pagamento":{"metodo":"cartao","cartaoToken":"tok_visa"}}"#,
                        token: token, client: address)
                    if let answer, answer.status == 201, let id = answer.object["id"] as? String {
                        let reservas = (answer.object["ocorrencias"] as? [[String: Any]] ?? []).compactMap { $0["reservaId"] as? String }
                        balancer.count {
                            $0.series += 1
                            $0.acknowledged += reservas
                        }
                        mine += reservas.map { Mine(id: $0, pix: false, space: space) }
                        series.append(MySeries(id: id, start: start, count: 3))
                    }
                } else if let serie = series.randomElement(using: &random) {
                    // The rest of a series, from one of its occurrences on: cancelled, or moved by up to
                    // two days and two hours either way (all or none).
                    let numero = Int.random(in: 1...serie.count, using: &random)
                    if Int.random(in: 0..<100, using: &random) < 40 {
                        let answer = await balancer.call(
                            .POST, "/api/reservas/series/\(serie.id)/cancelamento", #"{"aPartirDe":\#(numero)}"#, token: token, client: address)
                        if answer?.status == 200 { balancer.count { $0.seriesCancelled += 1 } }
                        series.removeAll { $0.id == serie.id }
                    } else {
                        let shift = Int.random(in: 0...2, using: &random) * 86_400 + Int.random(in: -4...4, using: &random) * 1800
                        let (inicio, fim) = slot(serie.start + (numero - 1) * 7 * 86_400 + shift, minutes: 60)
                        let answer = await balancer.call(
                            .POST, "/api/reservas/series/\(serie.id)/remarcacao",
                            #"{"aPartirDe":\#(numero),"inicio":"\#(inicio)","fim":"\#(fim)"}"#, token: token, client: address)
                        if answer?.status == 200 {
                            balancer.count { $0.seriesMoved += 1 }
                            if numero == 1, let index = series.firstIndex(where: { $0.id == serie.id }) { series[index].start += shift }
                        }
                    }
                }
            } else if roll < 93 {
                // Book a few minutes ahead by card (the window opens 15 minutes before), then check in.
                let room = world.checkinRooms[Int.random(in: 0..<world.checkinRooms.count, using: &random)]
                let now = Int(Date().timeIntervalSince1970)
                let start = (now / 60 + 2 + Int.random(in: 0..<10, using: &random)) * 60
                let (inicio, fim) = slot(start, minutes: 30)
                let answer = await balancer.call(
                    .POST, "/api/reservas",
                    #"{"espacoId":"\#(room)","inicio":"\#(inicio)","fim":"\#(fim)","pagamento":{"metodo":"cartao","cartaoToken":"tok_visa"}}"#,
                    token: token, client: address)
                guard let answer, answer.status == 201, let id = answer.object["id"] as? String else { continue }
                balancer.count { $0.acknowledged.append(id) }
                for _ in 0..<20 where !stop() {
                    let codigo = await balancer.call(.GET, "/api/reservas/\(id)/checkin", token: token, client: address)?.object["codigo"] as? String
                    if let codigo {
                        // Only a booking whose check-in window is open today takes it; later ones answer 4xx.
                        if await balancer.call(.POST, "/api/checkin", #"{"codigo":"\#(codigo)"}"#, token: token, client: address)?.status == 200 {
                            balancer.count { $0.checkins += 1 }
                        }
                        break
                    }
                    try? await Task.sleep(for: .milliseconds(300))
                }
            } else {
                // A paid booking a few seconds ahead in the unit whose window closes at the start:
                // nobody comes, the no-show timer fires.
                let room = world.noShowRooms[Int.random(in: 0..<world.noShowRooms.count, using: &random)]
                let now = Int(Date().timeIntervalSince1970)
                let (inicio, fim) = slot(now + 5 + Int.random(in: 0..<30, using: &random), minutes: 30)
                let answer = await balancer.call(
                    .POST, "/api/reservas",
                    #"{"espacoId":"\#(room)","inicio":"\#(inicio)","fim":"\#(fim)","pagamento":{"metodo":"cartao","cartaoToken":"tok_visa"}}"#,
                    token: token, client: address)
                if answer?.status == 201, let id = answer?.object["id"] as? String {
                    balancer.count { $0.acknowledged.append(id) }
                }
            }
            try? await Task.sleep(for: .milliseconds(Int.random(in: 20..<120, using: &random)))
        }
    }
}
