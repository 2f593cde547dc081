import Crypto
import CryptoExtras
import Dispatch
public import Domain
public import Foundation

/// PBKDF2-HMAC-SHA256 password hashing (OWASP: at least 600,000 rounds), with a random 16-byte
/// salt per password. No length truncation: the whole UTF-8 password is the PBKDF2 input.
///
/// Hashing is deliberately slow (≈ 0.15 s), so it runs on a queue of its own rather than on
/// the cooperative threads that serve requests.
public struct PasswordHasher: Sendable {
    public static let minimumRounds = 600_000
    public let rounds: Int

    /// `rounds` below the OWASP minimum is only for tests that hash many passwords.
    public init(rounds: Int = PasswordHasher.minimumRounds) {
        self.rounds = rounds
    }

    private static let queue = DispatchQueue(label: "coworkflow.passwords", attributes: .concurrent)

    public func hash(_ password: String) async throws -> Usuario.Senha {
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = generator.next() }
        let digest = try await Self.derive(password, salt: salt, rounds: rounds)
        return Usuario.Senha(hash: digest.base64EncodedString(), salt: Data(salt).base64EncodedString(), iteracoes: rounds)
    }

    /// Whether `password` is the one `stored` was made from (constant-time comparison).
    public func verify(_ password: String, against stored: Usuario.Senha) async throws -> Bool {
        guard let salt = Data(base64Encoded: stored.salt), let expected = Data(base64Encoded: stored.hash) else { return false }
        let digest = try await Self.derive(password, salt: [UInt8](salt), rounds: stored.iteracoes)
        guard digest.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(digest, expected) { difference |= left ^ right }
        return difference == 0
    }

    private static func derive(_ password: String, salt: [UInt8], rounds: Int) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(
                    with: Result {
                        let key = try KDF.Insecure.PBKDF2.deriveKey(
                            from: Data(password.utf8), salt: salt, using: .sha256, outputByteCount: 32, rounds: rounds)
                        return key.withUnsafeBytes { Data($0) }
                    })
            }
        }
    }
}

/// The system's clock, for production (the domain only ever sees `WallClock`).
public struct SystemClock: WallClock {
    public init() {}
    public var now: Date { Date() }
}
