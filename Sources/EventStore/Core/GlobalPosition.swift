/// A place in the store's global order: the writing transaction, then the event's sequence.
///
/// Sequence numbers are taken in one order and committed in another, so the global order is
/// `(transaction, sequence)`: a reader is only handed events whose transaction is older than
/// every transaction still running, and no later commit can ever sort before them. Readers
/// keep the whole pair as their checkpoint.
public struct GlobalPosition: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The writing transaction's id (PostgreSQL `pg_current_xact_id()`; a commit counter in SQLite).
    public let transaction: Int64
    /// The event's unique, ever-increasing sequence number (the `position` column).
    public let sequence: Int64

    public init(transaction: Int64, sequence: Int64) {
        self.transaction = transaction
        self.sequence = sequence
    }

    /// Before the first event.
    public static let start = GlobalPosition(transaction: 0, sequence: 0)

    public static func < (lhs: GlobalPosition, rhs: GlobalPosition) -> Bool {
        (lhs.transaction, lhs.sequence) < (rhs.transaction, rhs.sequence)
    }

    public var description: String { "\(transaction)/\(sequence)" }

    /// Reads ``description`` back; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let transaction = Int64(parts[0]), let sequence = Int64(parts[1]),
            transaction >= 0, sequence >= 0
        else { return nil }
        self.init(transaction: transaction, sequence: sequence)
    }
}
