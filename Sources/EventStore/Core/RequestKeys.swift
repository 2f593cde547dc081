public import Foundation

/// The first answer to a request sent with an `Idempotency-Key`, kept to be replayed.
public struct StoredReply: Sendable, Equatable, Codable {
    public var status: Int
    public var body: Data?
    public var headers: [String: String]

    public init(status: Int, body: Data? = nil, headers: [String: String] = [:]) {
        self.status = status
        self.body = body
        self.headers = headers
    }
}

/// What the store says when a request asks for its key.
public enum RequestKeyClaim: Sendable, Equatable {
    /// The key is this request's now: run it, then ``RequestKeys/completeRequestKey(_:reply:)``.
    case claimed
    /// Answered before: send this again.
    case replay(StoredReply)
    /// Another request with the key is still running.
    case inProgress
    /// The key was used for another request (another fingerprint).
    case mismatch
}

/// `Idempotency-Key` records (table `request_keys`), shared by every process on the store, so
/// a retry that lands on another replica still gets the first answer.
public protocol RequestKeys: Sendable {
    /// Claims `key` for the request with `fingerprint`. A record older than `expireBefore` is
    /// forgotten; one still running since before `staleBefore` (its process died) is taken over.
    func claimRequestKey(
        _ key: String, fingerprint: String, at now: Date, expireBefore: Date, staleBefore: Date
    ) async throws
        -> RequestKeyClaim

    /// Stores the answer of a claimed key, or (nil) releases the key so a retry runs again.
    func completeRequestKey(_ key: String, reply: StoredReply?) async throws

    /// Removes records created before `date`; returns how many.
    @discardableResult
    func purgeRequestKeys(before date: Date) async throws -> Int

    /// Removes the records whose stored answer contains `text` (an erased person's id: an
    /// answer may hold their name and e-mail in clear, which erasure must not leave behind);
    /// returns how many.
    @discardableResult
    func forgetRequestKeys(mentioning text: String) async throws -> Int
}

extension Date {
    /// Milliseconds since 1970, as the key tables store time.
    var epochMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
}
