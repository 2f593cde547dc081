import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// Whether the implicit transaction of the statement that last answered on a connection
/// committed, read from the messages PostgreSQL sent, without a round trip (ADR 0012).
///
/// PostgresNIO answers a statement at its CommandComplete; outside a transaction block the
/// statement commits after that, at the Sync, and PostgreSQL then sends ReadyForQuery — or an
/// ErrorResponse first when the commit failed (``PostgresConnection/confirmCommit(logger:)``).
/// PostgreSQL holds CommandComplete in its output buffer until the Sync is done, so the two
/// almost always reach the client in one read. ``CommitFrames``, placed before PostgresNIO's
/// handler on a connection the store opens itself, walks the message headers of every read
/// before passing it on unchanged, and counts into a ``CommitLedger``: CommandCompletes, and
/// for each ReadyForQuery whether an ErrorResponse came between it and the CommandComplete
/// before it. When a statement's caller has its rows, the read that carried its CommandComplete
/// has been walked: the ledger tells at once whether it committed, or, when the ReadyForQuery
/// is still on its way, the caller waits for it (or for the connection's close) — the time a
/// round trip would have taken anyway, and no statement sent.
final class CommitLedger: Sendable {
    struct Counts: Equatable {
        /// CommandCompletes seen.
        var completed: UInt64 = 0
        /// `completed` as of the last ReadyForQuery that followed a CommandComplete.
        var settled: UInt64 = 0
        /// Whether an ErrorResponse came between that ReadyForQuery and its CommandComplete.
        var settledFailed = false
        /// Whether an ErrorResponse came after the last CommandComplete (not yet settled).
        var failedSinceCompleted = false
        /// ReadyForQuerys seen (for tests: one per statement sent).
        var readies: UInt64 = 0

        mutating func saw(_ type: UInt8) {
            switch type {
            case UInt8(ascii: "C"):
                completed &+= 1
                failedSinceCompleted = false
            case UInt8(ascii: "E") where completed != settled:
                failedSinceCompleted = true
            case UInt8(ascii: "Z"):
                readies &+= 1
                if completed != settled {
                    settled = completed
                    settledFailed = failedSinceCompleted
                    failedSinceCompleted = false
                }
            default:
                break
            }
        }
    }

    enum Outcome: Equatable {
        case committed
        /// An ErrorResponse came after the statement's CommandComplete: the commit failed.
        case failed
        /// The connection closed (or its messages could not be read) before the outcome came.
        case unknown
    }

    private struct State {
        var counts = Counts()
        var closed = false
        /// The messages could not be read: the counts stopped, so nothing they say is news.
        var broken = false
        var waiting: [(completed: UInt64, continuation: CheckedContinuation<Outcome, Never>)] = []
    }

    private let state = Mutex(State())

    /// The counts now (for tests).
    var counts: Counts { state.withLock { $0.counts } }

    /// Takes the counts a read left (called on the channel's event loop, once per read that
    /// carried a CommandComplete, an ErrorResponse or a ReadyForQuery).
    func publish(_ counts: Counts) {
        let ready = state.withLock { state -> [(CheckedContinuation<Outcome, Never>, Outcome)] in
            state.counts = counts
            guard !state.waiting.isEmpty else { return [] }
            var ready: [(CheckedContinuation<Outcome, Never>, Outcome)] = []
            state.waiting.removeAll { waiter in
                guard let outcome = Self.outcome(of: waiter.completed, in: state.counts) else { return false }
                ready.append((waiter.continuation, outcome))
                return true
            }
            return ready
        }
        for (continuation, outcome) in ready { continuation.resume(returning: outcome) }
    }

    /// The connection closed (`broken`: its stream of messages could not be read): outcomes
    /// not seen are unknown; after a break, every outcome is.
    func close(broken: Bool = false) {
        let waiting = state.withLock { state -> [CheckedContinuation<Outcome, Never>] in
            state.closed = true
            if broken { state.broken = true }
            defer { state.waiting = [] }
            return state.waiting.map(\.continuation)
        }
        for continuation in waiting { continuation.resume(returning: .unknown) }
    }

    /// The outcome of the last statement that answered on this connection: at once when its
    /// ReadyForQuery was in the read that carried its CommandComplete, else when it comes.
    /// Call it after the statement answered and before anything else is written.
    func lastOutcome() async -> Outcome {
        enum Now {
            case known(Outcome)
            case wait(UInt64)
        }
        let now = state.withLock { state -> Now in
            // Counts stopped at a break would answer for an earlier statement.
            if state.broken { return .known(.unknown) }
            let completed = state.counts.completed
            if let outcome = Self.outcome(of: completed, in: state.counts) { return .known(outcome) }
            return state.closed ? .known(.unknown) : .wait(completed)
        }
        switch now {
        case .known(let outcome):
            return outcome
        case .wait(let completed):
            return await withCheckedContinuation { continuation in
                let outcome = state.withLock { state -> Outcome? in
                    if let outcome = Self.outcome(of: completed, in: state.counts) { return outcome }
                    if state.closed { return .unknown }
                    state.waiting.append((completed, continuation))
                    return nil
                }
                if let outcome { continuation.resume(returning: outcome) }
            }
        }
    }

    /// The outcome for the statement whose CommandComplete was the `completed`th, once settled.
    private static func outcome(of completed: UInt64, in counts: Counts) -> Outcome? {
        if counts.settled == completed { return counts.settledFailed ? .failed : .committed }
        // A later statement settled first: cannot happen while the caller holds the connection.
        if counts.settled > completed { return .unknown }
        return nil
    }

    // MARK: The store's connections

    /// The ledgers of the connections the store opened with one, by identity.
    private static let ledgers = Mutex<[ObjectIdentifier: (connection: Weak, ledger: CommitLedger)]>([:])

    struct Weak: @unchecked Sendable {
        weak var connection: PostgresConnection?
    }

    /// The ledger of `connection`, when it was opened with one (``connect(configuration:id:logger:)``).
    static func of(_ connection: PostgresConnection) -> CommitLedger? {
        ledgers.withLock { ledgers in
            guard let entry = ledgers[ObjectIdentifier(connection)], entry.connection.connection === connection else { return nil }
            return entry.ledger
        }
    }

    /// Opens a connection with a ledger. The store's connections are plain TCP (TLS is off,
    /// `PostgresSettings`); a configuration with TLS, a socket path or a channel of its own is
    /// opened by PostgresNIO as it is, without a ledger: its commits are confirmed by a
    /// statement.
    static func connect(configuration: PostgresConnection.Configuration, id: Int, logger: Logger) async throws -> PostgresConnection {
        guard !configuration.tls.isAllowed, let host = configuration.host, let port = configuration.port else {
            return try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
        }
        let ledger = CommitLedger()
        let channel = try await ClientBootstrap(group: PostgresConnection.defaultEventLoopGroup)
            .connectTimeout(configuration.options.connectTimeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(CommitFrames(ledger))
                }
            }
            .connect(host: host, port: port).get()
        var established = PostgresConnection.Configuration(
            establishedChannel: channel, username: configuration.username, password: configuration.password,
            database: configuration.database)
        established.options = configuration.options
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(on: channel.eventLoop, configuration: established, id: id, logger: logger)
        } catch {
            try? await channel.close()
            throw error
        }
        // Kept while the connection object lives, closed or not: PostgresNIO closes it on the
        // very ErrorResponse of a failed commit, before the caller asks, and the ledger is what
        // still knows the write is not stored. Entries of freed connections go at the next open.
        ledgers.withLock { ledgers in
            ledgers = ledgers.filter { $0.value.connection.connection != nil }
            ledgers[ObjectIdentifier(connection)] = (Weak(connection: connection), ledger)
        }
        return connection
    }
}

/// Walks the headers of PostgreSQL's messages (a type byte and a 4-byte length that counts
/// itself) in every read, passes the read on unchanged, and tells a ``CommitLedger`` of the
/// CommandCompletes, ErrorResponses and ReadyForQuerys. A message may span reads; the walk
/// keeps its place. Sits first in the pipeline of a plain TCP connection, so it sees every
/// byte the server sent, from the startup on (a server sends no untyped message unless asked
/// for TLS).
final class CommitFrames: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let ledger: CommitLedger
    private var counts = CommitLedger.Counts()
    /// The current message's type, and how many of its header's 5 bytes were read.
    private var type: UInt8 = 0
    private var headerRead = 0
    private var length: UInt32 = 0
    /// The current message's body bytes still to pass over.
    private var skip = 0
    private var broken = false

    init(_ ledger: CommitLedger) {
        self.ledger = ledger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !broken { walk(unwrapInboundIn(data)) }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        ledger.close()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        ledger.close()
    }

    func walk(_ buffer: ByteBuffer) {
        let before = counts
        buffer.withUnsafeReadableBytes { bytes in
            var index = 0
            while index < bytes.count {
                if skip > 0 {
                    let passed = min(skip, bytes.count - index)
                    index += passed
                    skip -= passed
                    continue
                }
                let byte = bytes[index]
                index += 1
                if headerRead == 0 {
                    type = byte
                    length = 0
                } else {
                    length = length << 8 | UInt32(byte)
                }
                headerRead += 1
                guard headerRead == 5 else { continue }
                headerRead = 0
                guard length >= 4 else {
                    // Not PostgreSQL's framing: PostgresNIO will fail the connection; this
                    // ledger knows nothing more.
                    broken = true
                    return
                }
                skip = Int(length) - 4
                counts.saw(type)
            }
        }
        if counts != before { ledger.publish(counts) }
        if broken { ledger.close(broken: true) }
    }
}

extension CommitLedger.Counts: Sendable {}
