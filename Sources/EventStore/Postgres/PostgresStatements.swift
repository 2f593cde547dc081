import Foundation
import NIOCore
import PostgresNIO

/// The store's hot statements, prepared once per connection: the server plans them once
/// instead of on every append or read.
enum PostgresStatements {
    typealias InsertedRow = (UUID, String, Int64, Int64, Int64)

    /// A condition that is always true and, when the boolean `parameter` is, queues the store's
    /// `NOTIFY` in the append's own transaction: an append that carries it (ADR 0001 §2) needs
    /// no second transaction. The notice goes out only if the append commits; an append that
    /// its guard refused may still send it (the planner orders conditions by cost), which wakes
    /// listeners for nothing and harms no one.
    static func notifyIf(_ parameter: String) -> String {
        "(NOT \(parameter)::boolean OR pg_notify('\(PostgresEventStore.channel)', '') IS NOT NULL)"
    }

    /// One stream: `.exact(N)` needs version N to exist and takes N+1…; `.noStream` takes 1…;
    /// `.any` takes max+1…. Concurrent writers collide on the unique keys.
    ///
    /// Answers with ONE row, or none when nothing was inserted: the stream's new version, the
    /// writing transaction, and the events' positions in the order given (versions follow
    /// that order). One row of an array costs the client far less than a row per event.
    struct AppendOne: PostgresPreparedStatement {
        static let name = "coworkflow_append_one_v4"
        static let sql = """
            WITH inserted AS (
                INSERT INTO events AS e (stream_id, stream_version, event_id, event_type, schema_version, data, metadata, occurred_at)
                SELECT $1, b.base + u.ord, u.id, u.t, u.sv, u.d::jsonb, u.m::json, u.o
                FROM (SELECT CASE WHEN $2::bigint = -1
                                  THEN (SELECT coalesce(max(v.stream_version), 0) FROM events v WHERE v.stream_id = $1)
                                  ELSE $2::bigint END AS base) b,
                     unnest($3::uuid[], $4::text[], $5::integer[], $6::text[], $7::text[], $8::timestamptz[])
                         WITH ORDINALITY AS u(id, t, sv, d, m, o, ord)
                WHERE ($2::bigint <= 0
                       OR EXISTS (SELECT 1 FROM events w WHERE w.stream_id = $1 AND w.stream_version = $2::bigint))
                  AND \(PostgresStatements.notifyIf("$9"))
                ORDER BY u.ord
                RETURNING e.stream_version, e.tx_id, e.position)
            SELECT max(stream_version), max(tx_id), array_agg(position ORDER BY stream_version)
            FROM inserted HAVING count(*) > 0
            """
        typealias Row = (Int64, Int64, [Int64])

        let stream: String
        let expected: Int64
        let columns: PostgresEventStore.AppendColumns
        let notify: Bool

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 9)
            bindings.append(stream)
            bindings.append(expected)
            columns.bindEvents(into: &bindings)
            bindings.append(notify)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// One event to one stream, the commonest append, with plain parameters: no arrays to
    /// encode, unnest and aggregate (on a bare insert that is a fifth of the server's time).
    /// Same rules as ``AppendOne``; answers with one row, or none when nothing was inserted.
    struct AppendSingle: PostgresPreparedStatement {
        static let name = "coworkflow_append_single_v3"
        static let sql = """
            INSERT INTO events AS e (stream_id, stream_version, event_id, event_type, schema_version, data, metadata, occurred_at)
            SELECT $1, CASE WHEN $2::bigint = -1
                            THEN (SELECT coalesce(max(v.stream_version), 0) FROM events v WHERE v.stream_id = $1) + 1
                            ELSE $2::bigint + 1 END,
                   $3, $4, $5, $6::jsonb, $7::json, $8
            WHERE ($2::bigint <= 0
                   OR EXISTS (SELECT 1 FROM events w WHERE w.stream_id = $1 AND w.stream_version = $2::bigint))
              AND \(PostgresStatements.notifyIf("$9"))
            RETURNING e.stream_version, e.tx_id, e.position
            """
        typealias Row = (Int64, Int64, Int64)

        let stream: String
        let expected: Int64
        let event: NewEvent
        let notify: Bool

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 9)
            bindings.append(stream)
            bindings.append(expected)
            bindings.append(event.eventId)
            bindings.append(event.type)
            bindings.append(Int32(event.schemaVersion))
            bindings.append(String(decoding: event.data, as: UTF8.self))
            bindings.append(MetadataJSON.encode(event.metadata))
            bindings.append(event.occurredAt)
            bindings.append(notify)
            return bindings
        }

        /// Read cell by cell: PostgresNIO's tuple decoding instantiates the tuple's generic
        /// metadata at run time on every row, a few per cent of a one-writer append's client time.
        func decodeRow(_ row: PostgresRow) throws -> Row {
            var cells = row.makeIterator()
            return (try Self.int8(cells.next(), "stream_version"), try Self.int8(cells.next(), "tx_id"), try Self.int8(cells.next(), "position"))
        }

        private static func int8(_ cell: PostgresCell?, _ name: String) throws -> Int64 {
            guard let cell, cell.dataType == .int8, cell.format == .binary, let bytes = cell.bytes, bytes.readableBytes == 8,
                let value = bytes.getInteger(at: bytes.readerIndex, as: Int64.self)
            else { throw EventStoreError(.corruptRow, "an append's \(name) is not an int8") }
            return value
        }
    }

    /// Several streams in one statement, each with its own expectation (all or nothing).
    struct AppendMany: PostgresPreparedStatement {
        static let name = "coworkflow_append_many_v4"
        static let sql = """
            INSERT INTO events AS e (stream_id, stream_version, event_id, event_type, schema_version, data, metadata, occurred_at)
            SELECT s.name, s.base + row_number() OVER (PARTITION BY u.s ORDER BY u.ord), u.id, u.t, u.sv, u.d::jsonb, u.m::json, u.o
            FROM unnest($3::integer[], $4::uuid[], $5::text[], $6::integer[], $7::text[], $8::text[], $9::timestamptz[])
                     WITH ORDINALITY AS u(s, id, t, sv, d, m, o, ord)
            JOIN (SELECT x.i, x.name,
                         CASE WHEN x.expected = -1
                              THEN (SELECT coalesce(max(v.stream_version), 0) FROM events v WHERE v.stream_id = x.name)
                              ELSE x.expected END AS base
                  FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS x(name, expected, i)) s ON s.i = u.s
            WHERE NOT EXISTS (
                SELECT 1 FROM unnest($1::text[], $2::bigint[]) AS c(name, expected)
                WHERE c.expected > 0
                  AND NOT EXISTS (SELECT 1 FROM events w WHERE w.stream_id = c.name AND w.stream_version = c.expected OFFSET 0))
              AND \(PostgresStatements.notifyIf("$10"))
            ORDER BY u.ord
            RETURNING e.event_id, e.stream_id, e.stream_version, e.tx_id, e.position
            """
        typealias Row = InsertedRow

        let streams: [String]
        let expected: [Int64]
        let columns: PostgresEventStore.AppendColumns
        let notify: Bool

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 10)
            bindings.append(streams)
            bindings.append(expected)
            bindings.append(columns.streamIndex)
            columns.bindEvents(into: &bindings)
            bindings.append(notify)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// A projection's batch of read-model writes and its checkpoint, in one statement (so in one
    /// transaction, and one round trip instead of BEGIN, a statement per document, the
    /// checkpoint and COMMIT). The upserted and the deleted keys must be disjoint: the caller
    /// keeps only the last change of each key.
    struct CommitReadModels: PostgresPreparedStatement {
        static let name = "coworkflow_commit_read_models_v4"
        /// The checkpoint moves first; the documents are written only when it did (they read its
        /// RETURNING). With $12 (fenced), it moves only from the mark $13/$14/$15, checked on the
        /// row as locked: the row's position and `xmin`, the transaction that wrote it last (so a
        /// reader that lost its lease cannot write over a newer batch, nor over a rebuild that
        /// came back to the same position). Mark 0 (never saved) lets it only insert the row.
        /// Answers the row's new `xmin`, the next commit's mark. Deleted documents are looked up
        /// by key, one at a time, and deleted by their row ids: a join of the keys with
        /// `read_models` can plan as a hash join over the whole table (ADR 0001 §3). No other
        /// transaction writes these rows meanwhile: the lease and the fence above keep every
        /// other writer of the projection out.
        static let sql = """
            WITH moved AS (
                INSERT INTO subscription_checkpoints (name, tx_id, position)
                SELECT $9, $10, $11
                WHERE NOT $12 OR $15 = 0 OR EXISTS (SELECT 1 FROM subscription_checkpoints WHERE name = $9)
                ON CONFLICT (name) DO UPDATE SET tx_id = excluded.tx_id, position = excluded.position, updated_at = now()
                    WHERE NOT $12 OR (subscription_checkpoints.xmin = $15::bigint::text::xid
                                      AND subscription_checkpoints.tx_id = $13 AND subscription_checkpoints.position = $14)
                RETURNING xmin::text::bigint AS token
            ), upserted AS (
                INSERT INTO read_models (collection, key, grupo, ordem, doc)
                SELECT u.collection, u.key, CASE WHEN u.has_grupo THEN u.grupo END, u.ordem, u.doc
                FROM unnest($1::text[], $2::text[], $3::text[], $4::bool[], $5::text[], $6::text[])
                    AS u(collection, key, grupo, has_grupo, ordem, doc)
                WHERE EXISTS (SELECT 1 FROM moved)
                ON CONFLICT (collection, key) DO UPDATE SET grupo = excluded.grupo, ordem = excluded.ordem, doc = excluded.doc
            ), deleted AS (
                DELETE FROM read_models r
                WHERE r.ctid = ANY (ARRAY(
                        SELECT x.ctid FROM unnest($7::text[], $8::text[]) AS d(collection, key)
                        CROSS JOIN LATERAL (SELECT ctid FROM read_models WHERE collection = d.collection AND key = d.key OFFSET 0) AS x))
                  AND EXISTS (SELECT 1 FROM moved)
            )
            SELECT token FROM moved
            """
        typealias Row = Int64

        private(set) var documents = ReadModelArrays()
        let checkpoint: String
        let position: GlobalPosition
        let previous: CheckpointMark?

        /// The last change of each key, split into upserts and deletes.
        init(_ changes: [ReadModelChange], checkpoint: String, at position: GlobalPosition, from previous: CheckpointMark?) {
            self.checkpoint = checkpoint
            self.position = position
            self.previous = previous
            var last: [ReadModelKey: Int] = [:]
            for (index, change) in changes.enumerated() { last[ReadModelKey(collection: change.collection, key: change.key)] = index }
            for (index, change) in changes.enumerated() where last[ReadModelKey(collection: change.collection, key: change.key)] == index {
                documents.append(change)
            }
        }

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 15)
            documents.bindUpserts(into: &bindings)
            documents.bindDeletes(into: &bindings)
            bindings.append(checkpoint)
            bindings.append(position.transaction)
            bindings.append(position.sequence)
            let previous = self.previous ?? .none
            bindings.append(self.previous != nil)
            bindings.append(previous.position.transaction)
            bindings.append(previous.position.sequence)
            bindings.append(previous.token)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }

        private struct ReadModelKey: Hashable {
            let collection: String
            let key: String
        }
    }

    /// Read-model writes as the commit statements bind them: upserts as six arrays (collection,
    /// key, group, whether it has one, order, document), deletes as two (collection, key).
    struct ReadModelArrays: Sendable {
        private(set) var collections: [String] = [], keys: [String] = [], grupos: [String] = [], hasGrupo: [Bool] = []
        private(set) var ordens: [String] = [], docs: [String] = []
        private(set) var deletedCollections: [String] = [], deletedKeys: [String] = []

        /// Every document written or deleted, as `collection NUL key`.
        var written: [String] {
            zip(collections + deletedCollections, keys + deletedKeys).map { "\($0)\u{0}\($1)" }
        }

        mutating func append(_ change: ReadModelChange) {
            if let doc = change.doc {
                collections.append(change.collection)
                keys.append(change.key)
                grupos.append(change.grupo ?? "")
                hasGrupo.append(change.grupo != nil)
                ordens.append(change.ordem)
                docs.append(String(decoding: doc, as: UTF8.self))
            } else {
                deletedCollections.append(change.collection)
                deletedKeys.append(change.key)
            }
        }

        mutating func append(contentsOf other: ReadModelArrays) {
            collections += other.collections
            keys += other.keys
            grupos += other.grupos
            hasGrupo += other.hasGrupo
            ordens += other.ordens
            docs += other.docs
            deletedCollections += other.deletedCollections
            deletedKeys += other.deletedKeys
        }

        func bindUpserts(into bindings: inout PostgresBindings) {
            bindings.append(collections)
            bindings.append(keys)
            bindings.append(grupos)
            bindings.append(hasGrupo)
            bindings.append(ordens)
            bindings.append(docs)
        }

        func bindDeletes(into bindings: inout PostgresBindings) {
            bindings.append(deletedCollections)
            bindings.append(deletedKeys)
        }
    }

    /// Several projections' batches, each fenced on its checkpoint's mark, in one statement: one
    /// transaction and one flush of the WAL where each batch would take its own
    /// (``PostgresEventStore/commit(_:checkpoint:at:from:)`` gathers the commits that arrive
    /// while one is in flight). The checkpoints are locked first, in the order of their names,
    /// skipping any another transaction holds (a promotion, a stale reader elsewhere): a batch
    /// whose row is busy is answered without a token and commits alone, so it holds up nobody.
    /// Each locked checkpoint moves only from its mark, as ``CommitReadModels`` checks it; a
    /// batch's documents are written only when its own checkpoint moved, so one batch fenced out
    /// leaves the others to commit. Only batches fenced on a saved mark come here (the row exists:
    /// an update, never an insert). The batches must name distinct checkpoints and write distinct
    /// documents. Answers each locked checkpoint's name and, when it moved, its new `xmin`.
    struct CommitReadModelGroup: PostgresPreparedStatement {
        static let name = "coworkflow_commit_read_model_group_v2"
        static let sql = """
            WITH locked AS MATERIALIZED (
                SELECT name FROM subscription_checkpoints WHERE name = ANY($11::text[]) ORDER BY name FOR UPDATE SKIP LOCKED
            ), moved AS (
                UPDATE subscription_checkpoints c SET tx_id = m.tx_id, position = m.position, updated_at = now()
                FROM unnest($11::text[], $12::bigint[], $13::bigint[], $14::bigint[], $15::bigint[], $16::bigint[])
                    AS m(name, tx_id, position, from_tx, from_position, from_token)
                WHERE c.name = m.name AND c.name IN (SELECT name FROM locked)
                  AND c.xmin = m.from_token::text::xid AND c.tx_id = m.from_tx AND c.position = m.from_position
                RETURNING c.name, c.xmin::text::bigint AS token
            ), upserted AS (
                INSERT INTO read_models (collection, key, grupo, ordem, doc)
                SELECT u.collection, u.key, CASE WHEN u.has_grupo THEN u.grupo END, u.ordem, u.doc
                FROM unnest($1::text[], $2::text[], $3::text[], $4::bool[], $5::text[], $6::text[], $7::text[])
                    AS u(collection, key, grupo, has_grupo, ordem, doc, owner)
                WHERE u.owner IN (SELECT name FROM moved)
                ON CONFLICT (collection, key) DO UPDATE SET grupo = excluded.grupo, ordem = excluded.ordem, doc = excluded.doc
            ), deleted AS (
                DELETE FROM read_models r
                WHERE r.ctid = ANY (ARRAY(
                        SELECT x.ctid FROM unnest($8::text[], $9::text[], $10::text[]) AS d(collection, key, owner)
                        CROSS JOIN LATERAL (SELECT ctid FROM read_models WHERE collection = d.collection AND key = d.key OFFSET 0) AS x
                        WHERE d.owner IN (SELECT name FROM moved)))
            )
            SELECT l.name, m.token FROM locked l LEFT JOIN moved m ON m.name = l.name
            """
        typealias Row = (String, Int64?)

        var documents = ReadModelArrays()
        /// Each upserted and each deleted document's checkpoint.
        var owners: [String] = [], deletedOwners: [String] = []
        var names: [String] = [], transactions: [Int64] = [], sequences: [Int64] = []
        var fromTransactions: [Int64] = [], fromSequences: [Int64] = [], fromTokens: [Int64] = []

        /// Each batch as ``CommitReadModels`` would write it, tagged with its checkpoint.
        init(_ batches: [CommitReadModels]) {
            for batch in batches {
                documents.append(contentsOf: batch.documents)
                owners += Array(repeating: batch.checkpoint, count: batch.documents.keys.count)
                deletedOwners += Array(repeating: batch.checkpoint, count: batch.documents.deletedKeys.count)
                let from = batch.previous ?? .none
                names.append(batch.checkpoint)
                transactions.append(batch.position.transaction)
                sequences.append(batch.position.sequence)
                fromTransactions.append(from.position.transaction)
                fromSequences.append(from.position.sequence)
                fromTokens.append(from.token)
            }
        }

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 16)
            documents.bindUpserts(into: &bindings)
            bindings.append(owners)
            documents.bindDeletes(into: &bindings)
            bindings.append(deletedOwners)
            bindings.append(names)
            bindings.append(transactions)
            bindings.append(sequences)
            bindings.append(fromTransactions)
            bindings.append(fromSequences)
            bindings.append(fromTokens)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// An event row, as five cells (read by ``PostgresRowReader``, ADR 0001 §5): the
    /// fixed-width fields packed into one `bytea` (``eventFixedLength`` bytes), then the stream
    /// id, the type, the payload and the metadata.
    static let columns = """
        int8send(position) || int8send(tx_id) || int8send(stream_version) || int4send(schema_version) || uuid_send(event_id) \
        || timestamptz_send(occurred_at) || timestamptz_send(recorded_at), stream_id, event_type, data, metadata
        """
    static let eventFixedLength = 8 + 8 + 8 + 4 + 16 + 8 + 8

    /// All streams in global order after a position, never past an open writer (ADR 0001).
    struct ReadAll: GlobalOrderRead {
        static let name = "coworkflow_read_all_v3"
        static let sql = globalOrder(selecting: PostgresStatements.columns)
        let after: GlobalPosition
        let limit: Int64

        func decodeRow(_ row: PostgresRow) throws -> RecordedEvent { try PostgresStatements.event(row) }
    }

    /// ``ReadAll`` without the envelope: position, stream, version, type, schema version and
    /// payload (a rebuild's read; about half the columns to decode).
    struct ReadAllPayloads: GlobalOrderRead {
        static let name = "coworkflow_read_all_payloads_v3"
        static let sql = globalOrder(selecting: columns)
        static let columns =
            "int8send(position) || int8send(tx_id) || int8send(stream_version) || int4send(schema_version), stream_id, event_type, data"
        let after: GlobalPosition
        let limit: Int64

        func decodeRow(_ row: PostgresRow) throws -> EventPayload { try Self.decode(row) }

        @Sendable static func decode(_ row: PostgresRow) throws -> EventPayload {
            try PostgresRowReader.read(row) { cells in
                let (sequence, transaction, version, schemaVersion) = try cells.fixed(length: 8 + 8 + 8 + 4) { fields in
                    (fields.int64(), fields.int64(), fields.int64(), fields.int32())
                }
                return EventPayload(
                    position: GlobalPosition(transaction: transaction, sequence: sequence), stream: StreamName(try cells.string()),
                    version: version, type: try cells.string(), schemaVersion: Int(schemaVersion), data: try cells.jsonb())
            }
        }
    }

    /// One category in global order after a position, with the same guard.
    struct ReadCategory: PostgresPreparedStatement {
        static let name = "coworkflow_read_category_v3"
        static let sql = """
            SELECT \(PostgresStatements.columns) FROM events
            WHERE category = $1 AND (tx_id, position) > ($2, $3)
              AND tx_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
            ORDER BY tx_id, position LIMIT $4
            """
        let category: String
        let after: GlobalPosition
        let limit: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(category)
            bindings.append(after.transaction)
            bindings.append(after.sequence)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> RecordedEvent { try PostgresStatements.event(row) }
    }

    /// One stream from a version, oldest first (no horizon: deciders read their own writes).
    struct ReadStream: PostgresPreparedStatement {
        static let name = "coworkflow_read_stream_v3"
        static let sql = """
            SELECT \(PostgresStatements.columns) FROM events
            WHERE stream_id = $1 AND stream_version >= $2
            ORDER BY stream_version LIMIT $3
            """
        let stream: String
        let from: Int64
        let limit: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(stream)
            bindings.append(from)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> RecordedEvent { try PostgresStatements.event(row) }
    }

    /// Several streams, each from a version, oldest first within each (one round trip for the
    /// aggregates a command folds).
    struct ReadStreams: PostgresPreparedStatement {
        static let name = "coworkflow_read_streams_v4"
        /// `OFFSET 0` keeps the subquery from being flattened into a join of the array with
        /// `events`, so its one plan is an index lookup per stream (ADR 0001 §3): flattened, the
        /// generic plan turned into a hash join over a sequential scan of `events` once the
        /// table's statistics changed, in the middle of a benchmark run.
        static let sql = """
            SELECT \(PostgresStatements.columns) FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS r(stream, from_version, n)
            CROSS JOIN LATERAL (
                SELECT * FROM events WHERE stream_id = r.stream AND stream_version >= r.from_version OFFSET 0
            ) AS events
            ORDER BY r.n, stream_version
            """
        let streams: [String]
        let versions: [Int64]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(streams)
            bindings.append(versions)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> RecordedEvent { try PostgresStatements.event(row) }
    }

    /// The events of a consumer's redrive requests, in global order.
    struct ReadRedrives: PostgresPreparedStatement {
        static let name = "coworkflow_read_redrives_v3"
        /// From the consumer's requests to their events by id, never the other way round (a
        /// walk of `events` in global order looking for requested ids, which reads the whole
        /// table when there are none): `OFFSET 0` as in ``ReadStreams``.
        static let sql = """
            SELECT \(PostgresStatements.columns) FROM (
                SELECT e.* FROM consumer_redrive d
                CROSS JOIN LATERAL (SELECT * FROM events WHERE event_id = d.event_id OFFSET 0) AS e
                WHERE d.consumer = $1
            ) AS events
            ORDER BY tx_id, position LIMIT $2
            """
        let consumer: String
        let limit: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(consumer)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> RecordedEvent { try PostgresStatements.event(row) }
    }

    /// One row of ``columns``, in its order.
    static func event(_ row: PostgresRow) throws -> RecordedEvent {
        try PostgresRowReader.read(row) { cells in
            let (sequence, transaction, version, schemaVersion, eventId, occurredAt, recordedAt) = try cells.fixed(length: eventFixedLength) {
                fields in
                (fields.int64(), fields.int64(), fields.int64(), fields.int32(), fields.uuid(), fields.date(), fields.date())
            }
            return RecordedEvent(
                position: GlobalPosition(transaction: transaction, sequence: sequence), stream: StreamName(try cells.string()),
                version: version, eventId: eventId, type: try cells.string(), schemaVersion: Int(schemaVersion),
                data: try cells.jsonb(), metadataJSON: try cells.json(), occurredAt: occurredAt, recordedAt: recordedAt)
        }
    }
}

extension PostgresEventStore.AppendColumns {
    /// Binds the per-event arrays in the order both append statements take them.
    func bindEvents(into bindings: inout PostgresBindings) {
        bindings.append(ids)
        bindings.append(types)
        bindings.append(schemaVersions)
        bindings.append(data)
        bindings.append(metadata)
        bindings.append(occurredAt)
    }
}

/// A read of every stream in global order after a position (`$1`, `$2`), at most `$3` rows.
protocol GlobalOrderRead: PostgresPreparedStatement {
    var after: GlobalPosition { get }
    var limit: Int64 { get }
}

extension GlobalOrderRead {
    /// The query for `columns`: never past an open writer (ADR 0001).
    static func globalOrder(selecting columns: String) -> String {
        """
        SELECT \(columns) FROM events
        WHERE (tx_id, position) > ($1, $2)
          AND tx_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
        ORDER BY tx_id, position LIMIT $3
        """
    }

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(after.transaction)
        bindings.append(after.sequence)
        bindings.append(limit)
        return bindings
    }
}
