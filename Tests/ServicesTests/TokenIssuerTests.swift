import Foundation
import Testing

@testable import Services

/// A token verified once is taken at its word afterwards (kept in memory): it still ends when it
/// expires, and nothing else passes for it.
@Suite("Token issuer")
struct TokenIssuerTests {
    let now = Date(timeIntervalSince1970: 1_796_112_000)

    @Test("a token verified before is still refused once expired, by the clock it is checked with")
    func a_kept_token_expires() async throws {
        let issuer = try await TokenIssuer(secret: String(repeating: "s", count: 32), lifetime: 60)
        let (token, expiry) = try await issuer.issue(usuario: "u1", papel: "membro", now: now)
        #expect(await issuer.verify(token, now: now)?.usuario == "u1")
        #expect(await issuer.verify(token, now: now.addingTimeInterval(59))?.papel == "membro")
        #expect(await issuer.verify(token, now: expiry) == nil)
        #expect(await issuer.verify(token, now: expiry.addingTimeInterval(3_600)) == nil)
        // Kept or not, a token used before it was issued is as valid as it was.
        #expect(await issuer.verify(token, now: now.addingTimeInterval(-10))?.usuario == "u1")
    }

    @Test("a token changed by one character, or signed with another secret, fails though the real one was verified")
    func nothing_else_passes_for_a_kept_token() async throws {
        let issuer = try await TokenIssuer(secret: String(repeating: "s", count: 32))
        let other = try await TokenIssuer(secret: String(repeating: "o", count: 32))
        let (token, _) = try await issuer.issue(usuario: "u1", papel: "membro", now: now)
        #expect(await issuer.verify(token, now: now) != nil)
        let forged = try await other.issue(usuario: "u1", papel: "admin", now: now).token
        #expect(await issuer.verify(forged, now: now) == nil)
        var changed = Array(token)
        changed[changed.count - 2] = changed[changed.count - 2] == "A" ? "B" : "A"
        #expect(await issuer.verify(String(changed), now: now) == nil)
        #expect(await issuer.verify(token + " ", now: now) == nil)
    }

    @Test("more tokens than it keeps: each still verifies")
    func full_keeps_verifying() async throws {
        let issuer = try await TokenIssuer(secret: String(repeating: "s", count: 32))
        var tokens: [String] = []
        for index in 0..<(TokenIssuer.verifiedCapacity + 5) {
            tokens.append(try await issuer.issue(usuario: "u\(index)", papel: "membro", now: now.addingTimeInterval(Double(index % 7))).token)
        }
        for _ in 0..<2 {
            var wrong = 0
            for (index, token) in tokens.enumerated() where await issuer.verify(token, now: now)?.usuario != "u\(index)" { wrong += 1 }
            #expect(wrong == 0)
        }
    }
}
