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
        Step(version: 1, name: "event table, append-only guard, global order", statements: [
            """
            CREATE TABLE events (
                position        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
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
                CONSTRAINT events_event_id_key UNIQUE (event_id),
                CONSTRAINT events_stream_version_key UNIQUE (stream_id, stream_version)
            )
            """,
            """
            CREATE INDEX events_global_order ON events (tx_id, position)
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
        Step(version: 2, name: "append function: expected versions, idempotent ids, one round trip", statements: ["""
            CREATE FUNCTION coworkflow_append(
                p_streams text[], p_expected bigint[], p_stream_index integer[], p_event_ids uuid[],
                p_types text[], p_schema_versions integer[], p_data text[], p_metadata text[],
                p_occurred_at timestamptz[]
            ) RETURNS TABLE (r_event_id uuid, r_stream_id text, r_version bigint, r_tx_id bigint, r_position bigint)
            LANGUAGE plpgsql AS $$
            DECLARE
                v_existing integer;
                v_actual bigint;
                v_current bigint[] := '{}';
            BEGIN
                SELECT count(*) INTO v_existing FROM events e WHERE e.event_id = ANY (p_event_ids);
                IF v_existing > 0 THEN
                    IF v_existing = cardinality(p_event_ids) THEN
                        -- A retry of an append that committed: answer as the first time.
                        RETURN QUERY SELECT e.event_id, e.stream_id, e.stream_version, e.tx_id, e.position
                            FROM events e WHERE e.event_id = ANY (p_event_ids) ORDER BY e.position;
                        RETURN;
                    END IF;
                    RAISE EXCEPTION 'some event ids of this append are stored already, others are not'
                        USING ERRCODE = 'CW003';
                END IF;
                FOR i IN 1 .. cardinality(p_streams) LOOP
                    SELECT coalesce(max(e.stream_version), 0) INTO v_actual
                        FROM events e WHERE e.stream_id = p_streams[i];
                    IF p_expected[i] <> -1 AND p_expected[i] <> v_actual THEN
                        RAISE EXCEPTION 'wrong expected version' USING ERRCODE = 'CW001',
                            DETAIL = json_build_object('stream', p_streams[i], 'expected', p_expected[i],
                                                       'actual', v_actual)::text;
                    END IF;
                    v_current := v_current || v_actual;
                END LOOP;
                -- Concurrent writers that passed the check above collide on the unique
                -- (stream_id, stream_version) key; the caller maps that to a conflict.
                RETURN QUERY
                INSERT INTO events AS e (stream_id, stream_version, event_id, event_type, schema_version,
                                         data, metadata, occurred_at)
                SELECT p_streams[u.s], v_current[u.s] + row_number() OVER (PARTITION BY u.s ORDER BY u.ord),
                       u.id, u.t, u.sv, u.d::jsonb, u.m::jsonb, u.o
                FROM unnest(p_stream_index, p_event_ids, p_types, p_schema_versions, p_data, p_metadata,
                            p_occurred_at) WITH ORDINALITY AS u(s, id, t, sv, d, m, o, ord)
                ORDER BY u.ord
                RETURNING e.event_id, e.stream_id, e.stream_version, e.tx_id, e.position;
            END $$
            """]),
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
        ]
    }

    static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
