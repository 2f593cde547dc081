public import Foundation
import Logging
import PostgresNIO

extension PostgresEventStore {
    public func recordInInbox(
        _ eventId: UUID, consumer: String, outcome: InboxOutcome, appending writes: [StreamWrite]
    ) async throws -> Bool {
        let logger = self.logger
        let insert: PostgresQuery = """
            INSERT INTO consumer_inbox (consumer, event_id, outcome, reason, attempts)
            VALUES (\(consumer), \(eventId), \(outcome.storedKind), \(outcome.storedReason), \(outcome.storedAttempts))
            ON CONFLICT (consumer, event_id) DO NOTHING
            RETURNING 1
            """
        if writes.isEmpty {
            // Nothing else to commit with it: one statement, no transaction block.
            return try await !fetch(insert, logger: logger).isEmpty
        }
        try AppendValidation.validate(writes)
        let recorded = try await withTransaction { transaction in
            // The primary key makes a concurrent second delivery wait for the first to commit,
            // then find the row: it is skipped, never applied twice.
            let rows = try await transaction.connection.guardedQuery(insert, logger: logger)
            var inserted = false
            for try await _ in rows { inserted = true }
            guard inserted else { return false }
            if !writes.isEmpty { _ = try await transaction.append(writes) }
            return true
        }
        return recorded
    }

    public func recordHandled(_ batch: [HandledEvent], consumer: String) async throws -> Set<UUID> {
        guard !batch.isEmpty else { return [] }
        for event in batch where !event.writes.isEmpty { try AppendValidation.validate(event.writes) }
        let logger = self.logger
        return try await withTransaction { transaction in
            let ids = batch.map(\.eventId)
            let rows = try await transaction.connection.guardedQuery(
                """
                INSERT INTO consumer_inbox (consumer, event_id, outcome)
                SELECT \(consumer), id, 'handled' FROM unnest(\(ids)::uuid[]) AS id
                ON CONFLICT (consumer, event_id) DO NOTHING
                RETURNING event_id
                """, logger: logger)
            var recorded = Set<UUID>()
            for try await id in rows.decode(UUID.self) { recorded.insert(id) }
            let handled = batch.filter { recorded.contains($0.eventId) && !$0.writes.isEmpty }
            let writes = handled.flatMap(\.writes)
            if Set(writes.map(\.stream)).count == writes.count {
                // Every stream once: one append (one savepoint) for the batch, all or nothing.
                if !writes.isEmpty { _ = try await transaction.append(writes) }
            } else {
                for event in handled { _ = try await transaction.append(event.writes) }
            }
            return recorded
        }
    }

    public func inboxOutcomes(_ eventIds: [UUID], consumer: String) async throws -> [UUID: InboxOutcome] {
        guard !eventIds.isEmpty else { return [:] }
        let rows = try await fetch(
            """
            SELECT event_id, outcome, reason, attempts FROM consumer_inbox
            WHERE consumer = \(consumer) AND event_id = ANY(\(eventIds)::uuid[])
            """, logger: logger)
        var outcomes: [UUID: InboxOutcome] = [:]
        for row in rows {
            let (id, kind, reason, attempts) = try row.decode((UUID, String, String?, Int).self)
            outcomes[id] = InboxOutcome(kind: kind, reason: reason, attempts: attempts)
        }
        return outcomes
    }

    public func inboxEntry(_ eventId: UUID, consumer: String) async throws -> InboxEntry? {
        let rows = try await fetch(
            """
            SELECT outcome, reason, attempts, recorded_at FROM consumer_inbox
            WHERE consumer = \(consumer) AND event_id = \(eventId)
            """, logger: logger)
        guard let row = rows.first else { return nil }
        let (kind, reason, attempts, at) = try row.decode((String, String?, Int, Date).self)
        return InboxEntry(
            consumer: consumer, eventId: eventId, outcome: InboxOutcome(kind: kind, reason: reason, attempts: attempts),
            recordedAt: at)
    }

    public func deadLetters(consumer: String, limit: Int) async throws -> [InboxEntry] {
        let rows = try await fetch(
            """
            SELECT event_id, reason, attempts, recorded_at FROM consumer_inbox
            WHERE consumer = \(consumer) AND outcome = 'dead' ORDER BY recorded_at, event_id LIMIT \(limit)
            """, logger: logger)
        return try rows.map { row in
            let (id, reason, attempts, at) = try row.decode((UUID, String?, Int, Date).self)
            return InboxEntry(
                consumer: consumer, eventId: id, outcome: .deadLettered(reason: reason ?? "", attempts: attempts),
                recordedAt: at)
        }
    }

    public func retryDeadLetters(consumer: String, eventIds: [UUID]?) async throws -> [UUID] {
        let logger = self.logger
        return try await withTransaction { transaction in
            let rows = try await transaction.connection.guardedQuery(
                """
                WITH released AS (
                    DELETE FROM consumer_inbox
                    WHERE consumer = \(consumer) AND outcome = 'dead'
                      AND (\(eventIds == nil) OR event_id = ANY(\(eventIds ?? [])::uuid[]))
                    RETURNING event_id
                )
                INSERT INTO consumer_redrive (consumer, event_id) SELECT \(consumer), event_id FROM released
                ON CONFLICT (consumer, event_id) DO NOTHING
                RETURNING event_id
                """, logger: logger)
            var ids: [UUID] = []
            for try await id in rows.decode(UUID.self) { ids.append(id) }
            return ids
        }
    }

    public func redriveRequests(consumer: String, limit: Int) async throws -> [RecordedEvent] {
        try await read(PostgresStatements.ReadRedrives(consumer: consumer, limit: Int64(limit)))
    }

    public func finishRedrive(_ eventId: UUID, consumer: String) async throws {
        _ = try await fetch(
            "DELETE FROM consumer_redrive WHERE consumer = \(consumer) AND event_id = \(eventId)", logger: logger)
    }

    /// A session-level advisory lock on a connection of its own: PostgreSQL frees it the moment
    /// that connection ends, so a killed holder hands over without waiting for a timeout.
    public func whileHolding<T: Sendable>(
        lease name: String, retryEvery interval: Duration, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let logger = self.logger
        var refused = 0
        while true {
            try Task.checkCancellation()
            let connection: PostgresConnection
            do {
                connection = try await PostgresConnection.connect(
                    configuration: settings.connectionConfiguration(), id: 0, logger: logger)
            } catch {
                logger.warning("lease \(name): cannot reach PostgreSQL", metadata: ["error": "\(String(reflecting: error))"])
                try await Task.sleep(for: interval)
                continue
            }
            do {
                // A holder whose host dies or is cut off without a reset would keep the lock
                // until the server's own TCP keepalive noticed (two hours by default): the
                // server probes this connection after 10 s of silence and drops it ~25 s later.
                try await connection.guardedQuery(
                    """
                    SELECT set_config('tcp_keepalives_idle', '10', false), set_config('tcp_keepalives_interval', '5', false),
                           set_config('tcp_keepalives_count', '3', false), set_config('tcp_user_timeout', '25000', false)
                    """, logger: logger)
                if try await Self.tryLock(name, on: connection, logger: logger) {
                    logger.info("lease \(name): held")
                    let result: T
                    do {
                        result = try await Self.hold(connection, name: name, interval: interval, logger: logger, body)
                    } catch {
                        await Self.release(name, connection, logger: logger)
                        throw error
                    }
                    await Self.release(name, connection, logger: logger)
                    return result
                }
                refused += 1
                // Said once, then every minute or so: a lease nobody seems to take back is
                // otherwise a silent wait (which holder has it: `pg_locks`, objid).
                if refused == 5 || refused % 60 == 0 {
                    logger.notice("lease \(name): held elsewhere; still waiting", metadata: ["attempts": "\(refused)"])
                }
                try? await connection.close()
            } catch {
                try? await connection.close()
                throw error
            }
            try await Task.sleep(for: interval)
        }
    }

    /// Unlocks before closing, also when the body failed: if closing does not end the server's
    /// session (a connection left in a state its close cannot finish), the lock would stay with
    /// that session and every later holder would wait for ever.
    private static func release(_ name: String, _ connection: PostgresConnection, logger: Logger) async {
        // Bounded: a connection that died silently does not answer (and is closed then).
        _ = await PostgresConnection.answers(
            connection, "SELECT pg_advisory_unlock(hashtextextended(\(name), 0))", within: .seconds(5), logger: logger)
        do {
            try await connection.close()
        } catch {
            logger.warning("lease \(name): its connection did not close cleanly", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    private static func tryLock(_ name: String, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let rows = try await connection.guardedQuery("SELECT pg_try_advisory_lock(hashtextextended(\(name), 0))", logger: logger)
        for try await held in rows.decode(Bool.self) { return held }
        return false
    }

    /// Runs `body` and, beside it, checks every `interval` that the lock's connection lives:
    /// open, and answering `SELECT 1` within five intervals (at least 5 s).
    ///
    /// PostgresNIO 1.33 drops a query written to a connection that has already closed without
    /// ever answering it: a check that queried a connection the database had closed (a restart)
    /// waited for ever, the lease was never reported lost, and the process could not shut
    /// down. So a closed connection is lost without a query, and a query that does not answer
    /// in time (a connection that died silently) closes the connection and loses the lease.
    private static func hold<T: Sendable>(
        _ connection: PostgresConnection, name: String, interval: Duration, logger: Logger,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                let deadline = max(interval * 5, .seconds(5))
                while true {
                    try await Task.sleep(for: interval)
                    if await !PostgresConnection.answers(connection, within: deadline, logger: logger) {
                        if Task.isCancelled { throw CancellationError() }
                        logger.error("lease \(name): lost (its connection closed or stopped answering)")
                        throw EventStoreError(.leaseLost, "lease '\(name)' was lost: its PostgreSQL connection closed or stopped answering")
                    }
                }
            }
            defer { group.cancelAll() }
            while let next = try await group.next() {
                if let result = next { return result }
            }
            throw CancellationError()
        }
    }
}
