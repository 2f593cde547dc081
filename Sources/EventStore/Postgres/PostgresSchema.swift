/// The PostgreSQL schema as numbered steps. A step never changes once released; new needs get
/// new steps. ``PostgresMigrator`` applies the pending ones in order.
enum PostgresSchema {
    struct Step: Sendable {
        let version: Int
        let name: String
        /// One statement each: the extended protocol takes one command at a time.
        let statements: [String]
    }

    /// The newest version this code needs.
    static var latest: Int { steps.last?.version ?? 0 }

    static let steps: [Step] = [
        Step(
            version: 1, name: "event table, append-only guard, global order",
            statements: [
                """
                CREATE TABLE events (
                    position        bigint GENERATED ALWAYS AS IDENTITY,
                    tx_id           bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint),
                    stream_id       text NOT NULL,
                    category        text NOT NULL GENERATED ALWAYS AS (split_part(stream_id, '-', 1)) STORED,
                    stream_version  bigint NOT NULL CHECK (stream_version >= 1),
                    event_id        uuid NOT NULL,
                    event_type      text NOT NULL,
                    schema_version  integer NOT NULL CHECK (schema_version >= 1),
                    data            jsonb NOT NULL,
                    metadata        jsonb NOT NULL,
                    occurred_at     timestamptz NOT NULL,
                    recorded_at     timestamptz NOT NULL DEFAULT now(),
                    -- The global order; position alone is unique too (an identity column).
                    CONSTRAINT events_pkey PRIMARY KEY (tx_id, position),
                    CONSTRAINT events_event_id_key UNIQUE (event_id),
                    CONSTRAINT events_stream_version_key UNIQUE (stream_id, stream_version)
                )
                """,
                """
                CREATE INDEX events_category_order ON events (category, tx_id, position)
                """,
                """
                CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP USING ERRCODE = 'CW002';
                END $$
                """,
                """
                CREATE TRIGGER events_no_update_delete BEFORE UPDATE OR DELETE ON events
                    FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()
                """,
                """
                CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
                    FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()
                """,
                """
                CREATE TABLE subscription_checkpoints (
                    name        text PRIMARY KEY,
                    tx_id       bigint NOT NULL,
                    position    bigint NOT NULL,
                    updated_at  timestamptz NOT NULL DEFAULT now()
                )
                """,
                """
                CREATE TABLE personal_data_keys (
                    subject_id  uuid PRIMARY KEY,
                    key         bytea NOT NULL CHECK (length(key) = 32),
                    created_at  timestamptz NOT NULL DEFAULT now()
                )
                """,
            ]),
        Step(
            version: 2, name: "consumer inbox",
            statements: [
                // One row per event a consumer is done with: handled (its effect committed in the
                // same transaction) or dead-lettered (set aside after repeated failures).
                """
                CREATE TABLE consumer_inbox (
                    consumer     text NOT NULL,
                    event_id     uuid NOT NULL,
                    outcome      text NOT NULL CHECK (outcome IN ('handled', 'dead')),
                    reason       text,
                    attempts     integer NOT NULL DEFAULT 1,
                    recorded_at  timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (consumer, event_id)
                )
                """,
                """
                CREATE INDEX consumer_inbox_dead ON consumer_inbox (consumer, recorded_at) WHERE outcome = 'dead'
                """,
            ]),
        Step(
            version: 3, name: "read models",
            statements: [
                // Projections' documents; each projection's checkpoint moves in the same transaction.
                """
                CREATE TABLE read_models (
                    collection  text NOT NULL,
                    key         text NOT NULL CHECK (key <> ''),
                    grupo       text,
                    ordem       text NOT NULL DEFAULT '',
                    doc         text NOT NULL,
                    PRIMARY KEY (collection, key)
                )
                """,
                """
                CREATE INDEX read_models_lists ON read_models (collection, grupo, ordem, key)
                """,
            ]),
        Step(
            version: 4, name: "request keys",
            statements: [
                // Idempotency-Key answers, shared by the replicas of a service (status NULL: running).
                """
                CREATE TABLE request_keys (
                    key          text PRIMARY KEY,
                    fingerprint  text NOT NULL,
                    created_ms   bigint NOT NULL,
                    status       integer,
                    body         bytea,
                    headers      text
                )
                """,
                """
                CREATE INDEX request_keys_age ON request_keys (created_ms)
                """,
            ]),
        Step(
            version: 5, name: "dead-letter redrive",
            statements: [
                // Dead letters an operator asked to retry (`coworkflow dead-letters --retry`); the
                // consumer, wherever it runs, handles each again and removes the request.
                """
                CREATE TABLE consumer_redrive (
                    consumer      text NOT NULL,
                    event_id      uuid NOT NULL,
                    requested_at  timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (consumer, event_id)
                )
                """
            ]),
        // ADR 0001 §12: reads print `json` by copying it, where `jsonb` is walked and escaped
        // again for every row read. Every release since the reader of ADR 0001 §12 reads either type, and an
        // older binary's `::jsonb` append still lands (jsonb → json is an assignment cast).
        // The change rewrites the table under an exclusive lock (docs/deploy.md): it gives up
        // after 5 s of waiting for the lock, during which reads and appends queue behind it,
        // rather than hold them longer; migrate then fails and can be run again.
        Step(
            version: 6, name: "event metadata as json",
            statements: [
                "SET LOCAL lock_timeout = '5s'",
                "ALTER TABLE events ALTER COLUMN metadata TYPE json USING metadata::json",
            ]),
    ]

    /// Privileges re-applied on every migrate: the application role may read and append
    /// events, never change or remove them.
    static func grants(to role: String) -> [String] {
        let role = quoteIdentifier(role)
        return [
            "REVOKE ALL ON events FROM PUBLIC",
            "REVOKE UPDATE, DELETE, TRUNCATE ON events FROM \(role)",
            "GRANT SELECT, INSERT ON events TO \(role)",
            "GRANT USAGE, SELECT ON SEQUENCE events_position_seq TO \(role)",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON subscription_checkpoints, personal_data_keys TO \(role)",
            "GRANT SELECT, INSERT, DELETE ON consumer_inbox, consumer_redrive TO \(role)",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON read_models, request_keys TO \(role)",
            // Services check at start-up that the schema is what they were built for.
            "GRANT SELECT ON schema_migrations TO \(role)",
        ]
    }

    static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
