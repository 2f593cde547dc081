import GRDB

/// The embedded store's schema: the same tables as PostgreSQL's, in SQLite's dialect.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1 event table, append-only guard, global order") { db in
            try db.execute(
                sql: """
                    CREATE TABLE events (
                        position        INTEGER PRIMARY KEY AUTOINCREMENT,
                        tx_id           INTEGER NOT NULL,
                        stream_id       TEXT NOT NULL,
                        category        TEXT NOT NULL,
                        stream_version  INTEGER NOT NULL CHECK (stream_version >= 1),
                        event_id        TEXT NOT NULL UNIQUE,
                        event_type      TEXT NOT NULL,
                        schema_version  INTEGER NOT NULL CHECK (schema_version >= 1),
                        data            TEXT NOT NULL CHECK (json_valid(data)),
                        metadata        TEXT NOT NULL CHECK (json_valid(metadata)),
                        occurred_at     INTEGER NOT NULL,
                        recorded_at     INTEGER NOT NULL,
                        UNIQUE (stream_id, stream_version)
                    );
                    CREATE INDEX events_global_order ON events (tx_id, position);
                    CREATE INDEX events_category_order ON events (category, tx_id, position);
                    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
                    BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE is not allowed'); END;
                    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
                    BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE is not allowed'); END;
                    CREATE TABLE subscription_checkpoints (
                        name        TEXT PRIMARY KEY,
                        tx_id       INTEGER NOT NULL,
                        position    INTEGER NOT NULL,
                        updated_at  INTEGER NOT NULL
                    );
                    CREATE TABLE personal_data_keys (
                        subject_id  TEXT PRIMARY KEY,
                        key         BLOB NOT NULL CHECK (length(key) = 32),
                        created_at  INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("2 consumer inbox") { db in
            try db.execute(
                sql: """
                    CREATE TABLE consumer_inbox (
                        consumer     TEXT NOT NULL,
                        event_id     TEXT NOT NULL,
                        outcome      TEXT NOT NULL CHECK (outcome IN ('handled', 'dead')),
                        reason       TEXT,
                        attempts     INTEGER NOT NULL DEFAULT 1,
                        recorded_at  INTEGER NOT NULL,
                        PRIMARY KEY (consumer, event_id)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("3 read models") { db in
            try db.execute(
                sql: """
                    CREATE TABLE read_models (
                        collection  TEXT NOT NULL,
                        key         TEXT NOT NULL CHECK (key <> ''),
                        grupo       TEXT,
                        ordem       TEXT NOT NULL DEFAULT '',
                        doc         TEXT NOT NULL,
                        PRIMARY KEY (collection, key)
                    ) WITHOUT ROWID;
                    CREATE INDEX read_models_lists ON read_models (collection, grupo, ordem, key);
                    """)
        }
        migrator.registerMigration("4 request keys") { db in
            try db.execute(
                sql: """
                    CREATE TABLE request_keys (
                        key          TEXT PRIMARY KEY,
                        fingerprint  TEXT NOT NULL,
                        created_ms   INTEGER NOT NULL,
                        status       INTEGER,
                        body         BLOB,
                        headers      TEXT
                    ) WITHOUT ROWID;
                    CREATE INDEX request_keys_age ON request_keys (created_ms);
                    """)
        }
        migrator.registerMigration("5 dead-letter redrive") { db in
            try db.execute(
                sql: """
                    CREATE TABLE consumer_redrive (
                        consumer      TEXT NOT NULL,
                        event_id      TEXT NOT NULL,
                        requested_at  INTEGER NOT NULL,
                        PRIMARY KEY (consumer, event_id)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("6 checkpoint write tokens") { db in
            // Counts a checkpoint's writes: the fence of a projection's commit (`CheckpointMark`).
            // Rows saved before it count as written once (0 is "never saved").
            try db.execute(
                sql: """
                    ALTER TABLE subscription_checkpoints ADD COLUMN token INTEGER NOT NULL DEFAULT 1;
                    """)
        }
        return migrator
    }
}
