public import App
import AsyncHTTPClient
import EventStore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Services
import Synchronization
import Telemetry
import Tracing

/// What one process serves.
public enum Role: Sendable {
    /// Everything, in this process (`coworkflow serve`).
    case allInOne
    /// The distributed edge: commands of the services the forwarder knows go to them over
    /// HTTP; queries (and the commands of services it does not know) are answered here.
    case gateway(Forwarder)
    /// One service of the distributed mode: its routes, `/saude`, `/metrics` and the docs.
    case service(Deployable)
    /// No service's routes: `/saude`, `/metrics` and the docs (`--service projections`).
    case operations
}

/// Sends a command to the service that owns it (distributed gateway), with the caller's
/// token, idempotency key, request id and address; answers what the service answered.
public final class Forwarder: Sendable {
    /// Base URLs per service; several replicas of one are taken in turn.
    public let targets: [Deployable: [String]]
    private let client: HTTPClient
    private let turn = Atomic<Int>(0)
    /// Until when each replica that failed to answer is passed over.
    private let failures = Mutex<[Replica: ContinuousClock.Instant]>([:])
    static let timeout: TimeAmount = .seconds(30)

    public init(targets: [Deployable: [String]]) {
        self.targets = targets
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        configuration.timeout = .init(connect: .seconds(2), read: Self.timeout)
        configuration.redirectConfiguration = .disallow
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// `SERVICE_<NAME>_URL` of every built service (a comma-separated list for replicas).
    /// A service without one is served by the gateway itself.
    public static func fromEnvironment(_ environment: [String: String]) throws -> Forwarder {
        var targets: [Deployable: [String]] = [:]
        for service in Deployable.built {
            guard let text = environment[service.urlVariable], !text.isEmpty else { continue }
            var urls: [String] = []
            for part in text.split(separator: ",") {
                let url = part.trimmingCharacters(in: .whitespaces)
                guard let components = URLComponents(string: url), ["http", "https"].contains(components.scheme ?? ""),
                    let host = components.host, !host.isEmpty, components.query == nil
                else {
                    throw ForwardingError(description: "\(service.urlVariable): '\(url)' is not an http(s)://host[:port] URL")
                }
                urls.append(url.hasSuffix("/") ? String(url.dropLast()) : url)
            }
            targets[service] = urls
        }
        return Forwarder(targets: targets)
    }

    /// Closes the connections (required before the process ends).
    public func shutdown() async throws {
        try await client.shutdown()
    }

    /// The last position a service's write appended at (`GlobalPosition.description`), for the
    /// gateway's read-your-writes wait; the gateway keeps it to itself.
    static let positionHeader = "Coworkflow-Posicao"
    static let positionField = HTTPField.Name(positionHeader)!
    /// The stored types of the events that write appended, each with the last position it took
    /// (`ReservaSolicitada=12/345,AgendaOcupada=12/346`): the gateway waits only for the read
    /// models that project one of them, each up to its own types' last event (absent: for all
    /// of them, up to the position).
    static let typesHeader = "Coworkflow-Tipos"
    static let typesField = HTTPField.Name(typesHeader)!
    /// Present when the write is someone else's to read next (``WriteReceipt/shared``): the
    /// gateway then waits before answering, whoever wrote it.
    static let sharedHeader = "Coworkflow-Compartilhada"
    static let sharedField = HTTPField.Name(sharedHeader)!

    static func typesValue(_ types: [String: GlobalPosition]) -> String {
        types.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }

    /// ``typesValue(_:)`` read back; nil for anything else (the gateway then waits for all).
    static func types(parsing value: String) -> [String: GlobalPosition]? {
        var types: [String: GlobalPosition] = [:]
        for entry in value.split(separator: ",") {
            let parts = entry.split(separator: "=")
            guard parts.count == 2, let position = GlobalPosition(parsing: String(parts[1])) else { return nil }
            types[String(parts[0])] = position
        }
        return types.isEmpty ? nil : types
    }

    /// Headers the caller sent that the service needs.
    static let passed: [HTTPField.Name] = [.authorization, .contentType, .accept, .acceptLanguage, .idempotencyKey, .sandboxSignature]
    /// Headers the gateway sets itself, and hop-by-hop ones.
    static let dropped: Set<String> = [
        "connection", "keep-alive", "transfer-encoding", "content-length", "x-request-id", "access-control-allow-origin",
        "access-control-allow-headers", "access-control-allow-methods", "access-control-expose-headers", "server", "date",
    ]

    /// The replica for a command about one space (a body with `espacoId`): always the same one,
    /// so that commands contending for the same agendas take turns inside one process
    /// (``Services``' stream turns) instead of colliding in the store, where each collision
    /// costs a refused append and a fresh read. Nil (taken in turn) for any other command. Any
    /// replica would be correct: the store's expected versions decide, whichever runs it.
    ///
    /// A replica that failed to answer lately (`down`) is passed over for the next one in the
    /// list, so the spaces it had go on being booked on another until it is back (commands taken
    /// in turn pass it over too).
    static func replica(for body: Data, among count: Int, down: Set<Int> = []) -> Int? {
        guard count > 1, !body.isEmpty, body.count <= 4_096,
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let espaco = object["espacoId"] as? String
        else { return nil }
        // FNV-1a: the same replica from every gateway replica (String's hash is seeded per process).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in espaco.lowercased().utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return live(from: Int(hash % UInt64(count)), among: count, down: down)
    }

    /// `first`, or the next replica after it that is not `down` (`first` when all are).
    static func live(from first: Int, among count: Int, down: Set<Int>) -> Int {
        (0..<count).lazy.map { (first + $0) % count }.first { !down.contains($0) } ?? first
    }

    /// How long a replica that failed to answer is passed over by ``replica(for:among:down:)``.
    static let downFor: Duration = .seconds(5)

    /// The replicas of `service` that failed to answer within ``downFor``.
    private func down(_ service: Deployable) -> Set<Int> {
        let now = ContinuousClock.now
        return failures.withLock { failures in Set(failures.compactMap { $0.key.service == service && $0.value > now ? $0.key.index : nil }) }
    }

    private struct Replica: Hashable {
        let service: Deployable
        let index: Int
    }

    func forward(
        _ request: Request, body: Data, context: GatewayContext, client address: String, to service: Deployable
    ) async throws -> Response {
        guard let urls = targets[service], !urls.isEmpty else {
            throw ServiceError.indisponivel("o serviço \(service.rawValue) não está configurado", retryAfter: 5)
        }
        let down = urls.count > 1 ? down(service) : []
        let index =
            Self.replica(for: body, among: urls.count, down: down)
            ?? Self.live(from: (turn.add(1, ordering: .relaxed).oldValue & Int.max) % urls.count, among: urls.count, down: down)
        let base = urls[index]
        var outgoing = HTTPClientRequest(url: base + request.uri.description)
        outgoing.method = .init(rawValue: request.method.rawValue)
        for name in Self.passed {
            if let value = request.headers[name] { outgoing.headers.add(name: name.rawName, value: value) }
        }
        outgoing.headers.add(name: "X-Request-Id", value: context.requestId)
        let forwarded = request.headers[.xForwardedFor].map { "\($0), \(address)" } ?? address
        outgoing.headers.add(name: "X-Forwarded-For", value: forwarded)
        outgoing.body = .bytes(ByteBuffer(bytes: body))
        let answer: HTTPClientResponse
        let bytes: ByteBuffer
        do {
            // A client span, whose `traceparent` the service continues (only a hop of ours carries one).
            (answer, bytes) = try await Traces.withSpan("\(request.method) \(service.rawValue)", ofKind: .client) { span in
                if Traces.enabled {
                    span.attributes["http.request.method"] = request.method.rawValue
                    span.attributes["server.address"] = base
                    span.attributes["coworkflow.service"] = service.rawValue
                    if let traceparent = Traces.traceparent(of: span.context) {
                        outgoing.headers.add(name: EdgeMiddleware.traceparent.rawName, value: traceparent)
                    }
                }
                let answer = try await client.execute(outgoing, timeout: Self.timeout)
                span.attributes["http.response.status_code"] = Int(answer.status.code)
                return (answer, try await answer.body.collect(upTo: 16 * 1024 * 1024))
            }
        } catch {
            // This request is not sent again (the service may have run it); the next ones of
            // its spaces go to another replica for a while.
            failures.withLock { $0[Replica(service: service, index: index)] = ContinuousClock.now + Self.downFor }
            context.logger.error("forwarding to \(service.rawValue) at \(base) failed: \(error)", metadata: ["requestId": "\(context.requestId)"])
            throw ServiceError.indisponivel("o serviço \(service.rawValue) não respondeu; tente de novo em instantes", retryAfter: 2)
        }
        var headers = HTTPFields()
        for header in answer.headers where !Self.dropped.contains(header.name.lowercased()) {
            if let name = HTTPField.Name(header.name) { headers.append(HTTPField(name: name, value: header.value)) }
        }
        return Response(
            status: HTTPResponse.Status(code: Int(answer.status.code)), headers: headers,
            body: ResponseBody(byteBuffer: bytes))
    }
}

struct ForwardingError: Error, CustomStringConvertible {
    let description: String
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    /// The payment provider's webhook signature (the webhook is pagamentos' command).
    static let sandboxSignature = HTTPField.Name(AssinaturaDeWebhook.cabecalho)!
}

/// The caller's address: behind the load balancer (or the gateway) the peer is the balancer,
/// and the address it appended (the last one not itself a proxy) is the client it saw. Earlier
/// entries come from the client and prove nothing, and so does the header from a peer that is
/// not a trusted proxy.
func clientAddress(_ request: Request, _ context: GatewayContext, proxies: TrustedProxies) -> String {
    proxies.client(peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[.xForwardedFor])
}
