/// A stream was not at the version the writer expected. Nothing was appended.
public struct WrongExpectedVersion: Error, Equatable, Sendable, CustomStringConvertible {
    public let stream: StreamName
    public let expected: ExpectedVersion
    /// The stream's version when the append was refused (0 = no stream). Inside a caller's
    /// transaction too: the append runs under a savepoint, so the version can still be read.
    public let actual: Int64

    public init(stream: StreamName, expected: ExpectedVersion, actual: Int64) {
        self.stream = stream
        self.expected = expected
        self.actual = actual
    }

    public var description: String {
        "wrong expected version for stream '\(stream)': expected \(expected), actual \(actual)"
    }
}

/// Any other event store failure: what went wrong and where.
public struct EventStoreError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// The append named no events, a stream twice, or an invalid expected version.
        case invalidAppend
        /// Some of the event ids already exist, others do not: not a clean retry.
        case partialDuplicate
        /// An event id already exists with another stream or type.
        case eventIdReused
        /// The schema is older than this code; run `coworkflow migrate`.
        case schemaOutdated
        /// The store answered with something this code cannot read.
        case corruptRow
        /// The database failed.
        case backend
        /// The database cannot be reached now (refused, closed or reset connections, a server
        /// shutting down or starting): nothing was decided, try again later.
        case unavailable
        /// A lease (see ``ConsumerSupport/whileHolding(lease:retryEvery:_:)``) was lost while held.
        case leaseLost
        /// A fenced read-model commit found its checkpoint moved by another reader.
        case checkpointMoved
        /// A promotion found no staged checkpoint: nothing was built beside the live read model.
        case nothingStaged
        /// A promotion found the build behind the live read model's checkpoint.
        case stagedBehind
    }

    public let code: Code
    public let message: String
    public let underlying: (any Error)?

    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    public var description: String {
        if let underlying { return "\(message): \(String(reflecting: underlying))" }
        return message
    }

    static func checkpointMoved(_ name: String, expected: CheckpointMark) -> EventStoreError {
        EventStoreError(
            .checkpointMoved,
            "checkpoint '\(name)' is no longer as it was at \(expected): another reader (a replica or a rebuild) wrote it meanwhile; this batch was not written"
        )
    }
}
