@testable import EventStore
import Foundation
import Logging
import PostgresNIO
import Testing

/// The store's bulk reads decode rows by hand (PostgresRowReader); each value must read back as
/// PostgresNIO's own decoding reads it, and a row of the wrong shape must fail with a clear error.
@Suite("PostgreSQL: event row decoding")
struct PostgresRowReaderTests {
    @Test("every field type reads back as PostgresNIO decodes the same value as a column")
    func values_match_postgres_nio() async throws {
        let values = """
            9007199254740993::bigint, (-42)::integer, 'reserva-ção-1'::text, 'e3b0c442-98fc-1c14-9afb-f4c8996fb924'::uuid,
            '{"b": [1, 2.5, "x"], "a": null}'::jsonb, '2026-11-22 13:45:01.123456+00'::timestamptz
            """
        try await withRow("SELECT ROW(\(values)), \(values)") { row in
            let expected = try row.decode((ByteBuffer, Int64, Int32, String, UUID, ByteBuffer, Date).self)
            let read = try PostgresRowReader.read(row) { fields in
                (try fields.int64(), try fields.int32(), try fields.string(), try fields.uuid(), try fields.jsonb(), try fields.date(),
                 Result { try fields.int32() })
            }
            #expect(read.0 == expected.1)
            #expect(read.1 == expected.2)
            #expect(read.2 == expected.3)
            #expect(read.3 == expected.4)
            // Binary jsonb: a version byte, then the text PostgreSQL normalised (keys sorted).
            #expect(String(decoding: read.4, as: UTF8.self) == #"{"a": null, "b": [1, 2.5, "x"]}"#)
            #expect(expected.5.readableBytesView.first == 1)
            #expect(read.5 == expected.6)
            // Nothing past the last field.
            #expect(message(read.6)?.contains("field 7 of an event row: missing") == true)
        }
    }

    @Test("metadata reads from jsonb and from json (its text as written; a later migration may make the column json); another type is refused")
    func json_and_jsonb_metadata() async throws {
        try await withRow(#"SELECT ROW('{"b":1, "a":"x"}'::json, '{"b":1, "a":"x"}'::jsonb, '{}'::text)"#) { row in
            let (json, jsonb, text) = try PostgresRowReader.read(row) { fields in
                (try fields.json(), try fields.json(), Result { try fields.json() })
            }
            #expect(String(decoding: json, as: UTF8.self) == #"{"b":1, "a":"x"}"#)
            #expect(String(decoding: jsonb, as: UTF8.self) == #"{"a": "x", "b": 1}"#)
            #expect(message(text)?.contains("field 3 of an event row: is TEXT, expected JSON") == true, "\(String(describing: message(text)))")
        }
    }

    @Test("a field of another type, a null or a missing field is a corrupt row that names the field")
    func wrong_shapes_are_refused() async throws {
        try await withRow("SELECT ROW(1::integer, NULL::bigint)") { row in
            let (wrongType, null, missing) = try PostgresRowReader.read(row) { fields in
                (Result { try fields.int64() }, Result { try fields.int64() }, Result { try fields.string() })
            }
            #expect(message(wrongType)?.contains("field 1 of an event row: is INTEGER, expected BIGINT") == true)
            #expect(message(null)?.contains("field 2 of an event row: is null") == true)
            #expect(message(missing)?.contains("field 3 of an event row: missing") == true)
        }
    }

    @Test("a row that is not one record is a corrupt row")
    func rows_must_be_records() async throws {
        try await withRow("SELECT 1::bigint, 2::bigint") { row in
            let error = #expect(throws: EventStoreError.self) { try PostgresRowReader.read(row) { _ in } }
            #expect(error?.code == .corruptRow)
            #expect(error?.message.contains("expected record") == true)
        }
        try await withRow("SELECT NULL::record") { row in
            let error = #expect(throws: EventStoreError.self) { try PostgresRowReader.read(row) { _ in } }
            #expect(error?.message.contains("is null") == true)
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
