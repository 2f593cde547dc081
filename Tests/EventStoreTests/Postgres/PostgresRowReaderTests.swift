import Foundation
import Logging
import PostgresNIO
import Testing

@testable import EventStore

/// The store's bulk reads decode rows by hand (PostgresRowReader); each value must read back as
/// PostgresNIO's own decoding reads it, and a row of the wrong shape must fail with a clear error.
@Suite("PostgreSQL: event row decoding")
struct PostgresRowReaderTests {
    @Test("every field type reads back as PostgresNIO decodes the same value as a column")
    func values_match_postgres_nio() async throws {
        let (bigint, integer, text, uuid, json, timestamp) = (
            "9007199254740993::bigint", "(-42)::integer", "'reserva-ção-1'::text", "'e3b0c442-98fc-1c14-9afb-f4c8996fb924'::uuid",
            #"'{"b": [1, 2.5, "x"], "a": null}'::jsonb"#, "'2026-11-22 13:45:01.123456+00'::timestamptz"
        )
        let fixed = "int8send(\(bigint)) || int4send(\(integer)) || uuid_send(\(uuid)) || timestamptz_send(\(timestamp))"
        try await withRow("SELECT \(fixed), \(text), \(json), \(bigint), \(integer), \(uuid), \(timestamp)") { row in
            let expected = try row.decode((ByteBuffer, String, ByteBuffer, Int64, Int32, UUID, Date).self)
            let read = try PostgresRowReader.read(row) { cells in
                let fixed = try cells.fixed(length: 8 + 4 + 16 + 8) { fields in (fields.int64(), fields.int32(), fields.uuid(), fields.date()) }
                return (fixed, try cells.string(), try cells.jsonb(), Result { try cells.string() })
            }
            #expect(read.0.0 == expected.3)
            #expect(read.0.1 == expected.4)
            #expect(read.0.2 == expected.5)
            #expect(read.0.3 == expected.6)
            #expect(read.1 == expected.1)
            // Binary jsonb: a version byte, then the text PostgreSQL normalised (keys sorted).
            #expect(String(decoding: read.2, as: UTF8.self) == #"{"a": null, "b": [1, 2.5, "x"]}"#)
            #expect(expected.2.readableBytesView.first == 1)
            // The next cell is the bigint column, not text.
            #expect(message(read.3)?.contains("cell 4 of an event row: is BIGINT, expected TEXT") == true, "\(String(describing: message(read.3)))")
        }
    }

    @Test("metadata reads from json (its text as written) and from jsonb (a schema before version 6); another type is refused")
    func json_and_jsonb_metadata() async throws {
        try await withRow(#"SELECT '{"b":1, "a":"x"}'::json, '{"b":1, "a":"x"}'::jsonb, '{}'::text"#) { row in
            let (json, jsonb, text) = try PostgresRowReader.read(row) { cells in
                (try cells.json(), try cells.json(), Result { try cells.json() })
            }
            #expect(String(decoding: json, as: UTF8.self) == #"{"b":1, "a":"x"}"#)
            #expect(String(decoding: jsonb, as: UTF8.self) == #"{"a": "x", "b": 1}"#)
            #expect(message(text)?.contains("cell 3 of an event row: is TEXT, expected JSON") == true, "\(String(describing: message(text)))")
        }
    }

    @Test("a cell of another type, a null, a missing cell or fixed fields of another length are a corrupt row that names the cell")
    func wrong_shapes_are_refused() async throws {
        try await withRow("SELECT 1::integer, NULL::text, '\\x0102'::bytea") { row in
            let (wrongType, null, short, missing) = try PostgresRowReader.read(row) { cells in
                (
                    Result { try cells.string() }, Result { try cells.string() }, Result { try cells.fixed(length: 8) { $0.int64() } },
                    Result { try cells.string() }
                )
            }
            #expect(message(wrongType)?.contains("cell 1 of an event row: is INTEGER, expected TEXT") == true)
            #expect(message(null)?.contains("cell 2 of an event row: is null") == true)
            #expect(message(short)?.contains("cell 3 of an event row: holds 2 bytes, expected 8") == true, "\(String(describing: message(short)))")
            #expect(message(missing)?.contains("cell 4 of an event row: missing") == true)
        }
    }

    /// The message of a corrupt-row failure; nil for a success or another error.
    private func message<T>(_ result: Result<T, any Error>) -> String? {
        guard case .failure(let error as EventStoreError) = result, error.code == .corruptRow else { return nil }
        return error.message
    }

    private func withRow(_ sql: String, _ body: (PostgresRow) throws -> Void) async throws {
        let connection = try await PostgresConnection.connect(
            configuration: TestDatabase.settings.connectionConfiguration(), id: 1, logger: TestDatabase.logger)
        do {
            var rows: [PostgresRow] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger) { rows.append(row) }
            try body(try #require(rows.first))
        } catch {
            try await connection.close()
            throw error
        }
        try await connection.close()
    }
}
