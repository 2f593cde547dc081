public import Foundation
import GRDB
import Synchronization

extension SQLiteEventStore {
    public func recordInInbox(
        _ eventId: UUID, consumer: String, outcome: InboxOutcome, appending writes: [StreamWrite]
    ) async throws -> Bool {
        if !writes.isEmpty { try AppendValidation.validate(writes) }
        let id = eventId.lowercasedString
        let recorded = try await withTransaction { transaction in
            try transaction.db.cachedStatement(
                sql: """
                    INSERT INTO consumer_inbox (consumer, event_id, outcome, reason, attempts, recorded_at)
                    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (consumer, event_id) DO NOTHING
                    """
            ).execute(arguments: [consumer, id, outcome.storedKind, outcome.storedReason, outcome.storedAttempts, microseconds(Date())])
            guard transaction.db.changesCount == 1 else { return false }
            if !writes.isEmpty { _ = try transaction.append(writes) }
            return true
        }
        return recorded
    }

    public func recordHandled(_ batch: [HandledEvent], consumer: String) async throws -> Set<UUID> {
        guard !batch.isEmpty else { return [] }
        for event in batch where !event.writes.isEmpty { try AppendValidation.validate(event.writes) }
        let now = microseconds(Date())
        return try await withTransaction { transaction in
            var recorded = Set<UUID>()
            for event in batch {
                try transaction.db.cachedStatement(
                    sql: """
                        INSERT INTO consumer_inbox (consumer, event_id, outcome, attempts, recorded_at)
                        VALUES (?, ?, 'handled', 1, ?) ON CONFLICT (consumer, event_id) DO NOTHING
                        """
                ).execute(arguments: [consumer, event.eventId.lowercasedString, now])
                guard transaction.db.changesCount == 1 else { continue }
                recorded.insert(event.eventId)
                if !event.writes.isEmpty { _ = try transaction.append(event.writes) }
            }
            return recorded
        }
    }

    public func inboxOutcomes(_ eventIds: [UUID], consumer: String) async throws -> [UUID: InboxOutcome] {
        guard !eventIds.isEmpty else { return [:] }
        return try await database.snapshot { db in
            var outcomes: [UUID: InboxOutcome] = [:]
            let rows = try Row.fetchAll(
                db.statement(
                    listing: eventIds.count,
                    """
                    SELECT event_id, outcome, reason, attempts FROM consumer_inbox
                    WHERE consumer = ? AND event_id IN (\(databaseQuestionMarks(count: eventIds.count)))
                    """), arguments: StatementArguments([consumer] + eventIds.map { $0.lowercasedString }))
            for row in rows {
                guard let id = UUID(text: row["event_id"] as String) else { continue }
                outcomes[id] = InboxOutcome(kind: row["outcome"], reason: row["reason"], attempts: row["attempts"])
            }
            return outcomes
        }
    }

    public func inboxEntry(_ eventId: UUID, consumer: String) async throws -> InboxEntry? {
        try await database.snapshot { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT outcome, reason, attempts, recorded_at FROM consumer_inbox WHERE consumer = ? AND event_id = ?
                            """), arguments: [consumer, eventId.lowercasedString])
            else { return nil }
            return InboxEntry(
                consumer: consumer, eventId: eventId,
                outcome: InboxOutcome(kind: row["outcome"], reason: row["reason"], attempts: row["attempts"]),
                recordedAt: date(row["recorded_at"]))
        }
    }

    public func deadLetters(consumer: String, limit: Int) async throws -> [InboxEntry] {
        try await database.snapshot { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT event_id, reason, attempts, recorded_at FROM consumer_inbox
                        WHERE consumer = ? AND outcome = 'dead' ORDER BY recorded_at, event_id LIMIT ?
                        """), arguments: [consumer, limit]
            ).compactMap { row -> InboxEntry? in
                guard let id = UUID(text: row["event_id"] as String) else { return nil }
                return InboxEntry(
                    consumer: consumer, eventId: id,
                    outcome: .deadLettered(reason: row["reason"] ?? "", attempts: row["attempts"]),
                    recordedAt: date(row["recorded_at"]))
            }
        }
    }

    public func retryDeadLetters(consumer: String, eventIds: [UUID]?) async throws -> [UUID] {
        let wanted = eventIds.map { Set($0.map { $0.lowercasedString }) }
        let now = microseconds(Date())
        return try await withTransaction { transaction in
            let dead = try String.fetchAll(
                transaction.db.cachedStatement(
                    sql: "SELECT event_id FROM consumer_inbox WHERE consumer = ? AND outcome = 'dead' ORDER BY recorded_at, event_id"),
                arguments: [consumer])
            var ids: [UUID] = []
            for id in dead where wanted?.contains(id) ?? true {
                try transaction.db.cachedStatement(sql: "DELETE FROM consumer_inbox WHERE consumer = ? AND event_id = ?")
                    .execute(arguments: [consumer, id])
                try transaction.db.cachedStatement(
                    sql: "INSERT INTO consumer_redrive (consumer, event_id, requested_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
                )
                .execute(arguments: [consumer, id, now])
                if let uuid = UUID(text: id) { ids.append(uuid) }
            }
            return ids
        }
    }

    public func redriveRequests(consumer: String, limit: Int) async throws -> [RecordedEvent] {
        try await read(
            """
            SELECT \(Self.columns) FROM events WHERE event_id IN (SELECT event_id FROM consumer_redrive WHERE consumer = ?)
            ORDER BY tx_id, position LIMIT ?
            """, [consumer, limit])
    }

    public func finishRedrive(_ eventId: UUID, consumer: String) async throws {
        try await database.write { db in
            try db.cachedStatement(sql: "DELETE FROM consumer_redrive WHERE consumer = ? AND event_id = ?")
                .execute(arguments: [consumer, eventId.lowercasedString])
        }
    }

    /// One holder per name among every process that opens this store's file (`serve`, and a
    /// `coworkflow replay` beside it): within a process a set of the names held, across
    /// processes an exclusive `flock` on a file per name in `<database>-leases/`, which the
    /// kernel lets go the moment its holder ends, however it ends. The others wait.
    public func whileHolding<T: Sendable>(
        lease name: String, retryEvery interval: Duration, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        while !leases.withLock({ $0.insert(name).inserted }) {
            try await Task.sleep(for: interval)
        }
        defer { _ = leases.withLock { $0.remove(name) } }
        var lock = try LeaseFile(database: database.path, lease: name)
        while !lock.take() {
            do {
                try await Task.sleep(for: interval)
            } catch {
                lock.close()
                throw error
            }
        }
        defer { lock.close() }
        return try await body()
    }
}

/// An exclusive `flock` on `<database>-leases/<lease>`; nothing for an in-memory database.
struct LeaseFile {
    private var descriptor: Int32?

    init(database: String, lease: String) throws {
        guard !database.isEmpty, database != ":memory:", !database.hasPrefix("file::memory:") else { return }
        let directory = database + "-leases"
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw EventStoreError(.unavailable, "cannot make the lease folder \(directory): \(String(cString: strerror(errno)))")
        }
        // A file name from any lease name: letters, digits and "-" as they are, the rest as %XX.
        var file = ""
        for byte in lease.utf8 {
            if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D {
                file.append(Character(UnicodeScalar(byte)))
            } else {
                file += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        let path = directory + "/" + file
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw EventStoreError(.unavailable, "cannot open the lease file \(path): \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
    }

    /// True when this process now holds the lock (always, for an in-memory database).
    mutating func take() -> Bool {
        guard let descriptor else { return true }
        return flock(descriptor, LOCK_EX | LOCK_NB) == 0
    }

    mutating func close() {
        guard let descriptor else { return }
        closeDescriptor(descriptor)  // lets go of the lock
        self.descriptor = nil
    }
}

private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
