@testable import EventStore
import Foundation
import Logging
import PostgresNIO
import Testing

/// The store's bulk reads decode rows by hand (PostgresRowReader); each value must read back as
/// PostgresNIO's own decoding reads it, and a row of the wrong shape must fail with a clear error.
@Suite("PostgreSQL: event row decoding")
struct PostgresRowReaderTests {
    @Test("every column type reads back as PostgresNIO decodes it")
    func values_match_postgres_nio() async throws {
        try await withRow("""
            SELECT 9007199254740993::bigint, (-42)::integer, 'reserva-ção-1'::text, 'e3b0c442-98fc-1c14-9afb-f4c8996fb924'::uuid,
                   '{"b": [1, 2.5, "x"], "a": null}'::jsonb, '2026-11-22 13:45:01.123456+00'::timestamptz
            """) { row in
            var cells = PostgresRowReader(row)
            let expected = try row.decode((Int64, Int32, String, UUID, ByteBuffer, Date).self)
            #expect(try cells.int64() == expected.0)
            #expect(try cells.int32() == expected.1)
            #expect(try cells.string() == expected.2)
            #expect(try cells.uuid() == expected.3)
            // Binary jsonb: a version byte, then the text PostgreSQL normalised (keys sorted).
            #expect(String(decoding: try cells.jsonb(), as: UTF8.self) == #"{"a": null, "b": [1, 2.5, "x"]}"#)
            #expect(expected.4.readableBytesView.first == 1)
            #expect(try cells.date() == expected.5)
        }
    }

    @Test("a column of another type, a null or a missing column is a corrupt row that names the column")
    func wrong_shapes_are_refused() async throws {
        try await withRow("SELECT 1::integer, NULL::bigint") { row in
            var cells = PostgresRowReader(row)
            let wrongType = #expect(throws: EventStoreError.self) { try cells.int64() }
            #expect(wrongType?.code == .corruptRow)
            #expect(wrongType?.message.contains("column 1") == true)
            let null = #expect(throws: EventStoreError.self) { try cells.int64() }
            #expect(null?.message.contains("column 2 of an event row: is null") == true)
            let missing = #expect(throws: EventStoreError.self) { try cells.string() }
            #expect(missing?.message.contains("column 3 of an event row: missing") == true)
        }
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
