import EventStore
import Foundation
import Testing

@Suite("Request keys (Idempotency-Key records)")
struct RequestKeyTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    func claim(_ store: any EventStore, _ key: String, _ fingerprint: String, at offset: TimeInterval = 0) async throws -> RequestKeyClaim {
        let at = now.addingTimeInterval(offset)
        return try await store.claimRequestKey(
            key, fingerprint: fingerprint, at: at, expireBefore: at.addingTimeInterval(-86_400), staleBefore: at.addingTimeInterval(-120))
    }

    @Test(
        "a key is claimed once; while it runs a retry hears in-progress; then the stored answer replays; another body is a mismatch",
        arguments: Backend.allCases)
    func claim_run_replay(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let key = "k-\(UUID().uuidString)"
            #expect(try await claim(store, key, "f1") == .claimed)
            #expect(try await claim(store, key, "f1", at: 1) == .inProgress)
            #expect(try await claim(store, key, "f2", at: 1) == .mismatch)
            let reply = StoredReply(status: 201, body: Data("{\"id\":\"x\"}".utf8), headers: ["Location": "/x"])
            try await store.completeRequestKey(key, reply: reply)
            #expect(try await claim(store, key, "f1", at: 2) == .replay(reply))
            #expect(try await claim(store, key, "f2", at: 2) == .mismatch)
        }
    }

    @Test(
        "a released key runs again; a stale running one is taken over; an expired answer is forgotten; purge removes old records",
        arguments: Backend.allCases)
    func release_stale_expire(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let released = "r-\(UUID().uuidString)"
            #expect(try await claim(store, released, "f") == .claimed)
            try await store.completeRequestKey(released, reply: nil)
            #expect(try await claim(store, released, "f", at: 1) == .claimed)

            let stale = "s-\(UUID().uuidString)"
            #expect(try await claim(store, stale, "f") == .claimed)
            #expect(try await claim(store, stale, "f", at: 60) == .inProgress)
            #expect(try await claim(store, stale, "f", at: 121) == .claimed)

            let old = "o-\(UUID().uuidString)"
            #expect(try await claim(store, old, "f") == .claimed)
            try await store.completeRequestKey(old, reply: StoredReply(status: 200, body: nil))
            #expect(try await claim(store, old, "g", at: 86_401) == .claimed)

            let purged = "p-\(UUID().uuidString)"
            #expect(try await claim(store, purged, "f", at: -10 * 86_400) == .claimed)
            #expect(try await store.purgeRequestKeys(before: now.addingTimeInterval(-9 * 86_400)) >= 1)
            #expect(try await claim(store, purged, "other") == .claimed)
        }
    }

    @Test("the records whose answer mentions a text are forgotten (an erased person's), and no others", arguments: Backend.allCases)
    func forget_mentioning(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let pessoa = UUID().uuidString.lowercased()
            let dela = "d-\(UUID().uuidString)", outra = "o-\(UUID().uuidString)"
            #expect(try await claim(store, dela, "f") == .claimed)
            try await store.completeRequestKey(
                dela, reply: StoredReply(status: 201, body: Data(#"{"id":"\#(pessoa)","nome":"Lia","email":"lia@example.com"}"#.utf8)))
            #expect(try await claim(store, outra, "f") == .claimed)
            let reply = StoredReply(status: 201, body: Data(#"{"id":"\#(UUID().uuidString.lowercased())"}"#.utf8))
            try await store.completeRequestKey(outra, reply: reply)
            #expect(try await store.forgetRequestKeys(mentioning: pessoa) == 1)
            #expect(try await claim(store, dela, "g", at: 1) == .claimed)
            #expect(try await claim(store, outra, "f", at: 1) == .replay(reply))
        }
    }
}
