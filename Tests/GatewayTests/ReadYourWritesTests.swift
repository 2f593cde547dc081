import Crypto
import EventStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import Gateway

@Suite("Read-your-writes: which requests wait for the read models")
struct ReadYourWritesTests {
    @Test("a POST that only computes (a quote) neither waits for the read models nor keeps its Idempotency-Key answer; a command does both")
    func a_quote_waits_for_nothing() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-ryw-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteEventStore(path: path)
        let settles = Mutex(0)
        let router = Router(context: GatewayContext.self)
        // The edge turns a refused request into its 4xx answer.
        router.add(middleware: EdgeMiddleware(drain: DrainState(), metrics: Metrics(), allowedOrigins: .none, routes: RouteTable()))
        let api = API(
            router: router,
            idempotency: Idempotency(keys: store, fingerprintKey: SymmetricKey(data: Data(repeating: 3, count: 32))),
            settle: { _, _ in settles.withLock { $0 += 1 } })
        api.add(Operation(method: .post, path: "/cotar", summary: "quote", tag: "t", writes: false)) { _, _, _ in try .json(["total": 1]) }
        api.add(Operation(method: .post, path: "/fazer", summary: "command", tag: "t")) { _, _, _ in try .json(["feito": true]) }
        try await Application(router: api.router).test(.router) { client in
            func post(_ uri: String, _ body: String) async throws -> HTTPResponse.Status {
                try await client.execute(
                    uri: uri, method: .post, headers: [.contentType: "application/json", .init("Idempotency-Key")!: "k-1"],
                    body: ByteBuffer(string: body)
                ).status
            }
            let quoted = try await post("/cotar", #"{"a":1}"#)
            // Nothing kept under the key: the same key with another body is simply another quote.
            let quotedAgain = try await post("/cotar", #"{"a":2}"#)
            #expect(quoted == .ok && quotedAgain == .ok)
            #expect(settles.withLock { $0 } == 0, "a quote waits for no read model")

            let done = try await post("/fazer", #"{"a":1}"#)
            #expect(done == .ok)
            #expect(settles.withLock { $0 } == 1, "a command waits for its read models")
            let reused = try await post("/fazer", #"{"a":2}"#)
            #expect(reused == .unprocessableContent, "the command's key is kept")
        }
    }
}
