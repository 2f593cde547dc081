import Foundation
import NIOCore
import NIOFoundationCompat
import PostgresNIO

/// Reads the fields of an event row by hand (ADR 0001 §5). The store's reads select an event
/// as five cells: its fixed-width fields packed by the server into one `bytea`
/// (`int8send(position) || int8send(tx_id) || …`, each in its binary send format), then the
/// stream id, the type, the payload and the metadata. PostgresNIO's work per cell (a buffer
/// slice, a cell value, reference counting) was most of the client's time in bulk reads, and a
/// `ROW(…)` record, one cell, cost the server more than it saved the client: building and
/// sending a record is ~0.3 µs a row, packing seven fields into a `bytea` costs what sending
/// them as columns does. Each read checks the cell's type and throws
/// ``EventStoreError/Code/corruptRow`` on a mismatch, a null or a short value, naming the cell.
struct PostgresRowReader {
    private var cells: PostgresRow.Iterator
    private var index = 0

    private init(_ row: PostgresRow) {
        cells = row.makeIterator()
    }

    /// Runs `body` with a reader of `row`'s cells.
    static func read<T>(_ row: PostgresRow, _ body: (inout PostgresRowReader) throws -> T) throws -> T {
        var reader = PostgresRowReader(row)
        return try body(&reader)
    }

    /// The next cell: a `bytea` of exactly `length` bytes, whose fields `body` reads in order.
    mutating func fixed<T>(length: Int, _ body: (inout FixedFields) throws -> T) throws -> T {
        let (bytes, _) = try cell(.bytea)
        guard bytes.readableBytes == length else { throw corrupt("holds \(bytes.readableBytes) bytes, expected \(length)") }
        return try bytes.withUnsafeReadableBytes { raw in
            var fields = FixedFields(bytes: raw)
            return try body(&fields)
        }
    }

    mutating func string() throws -> String {
        let (bytes, _) = try cell(.text)
        return bytes.withUnsafeReadableBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// A jsonb value's JSON text: binary jsonb is a version byte (1) followed by the text.
    mutating func jsonb() throws -> Data {
        let (bytes, _) = try cell(.jsonb)
        return try bytes.withUnsafeReadableBytes { raw in
            guard raw.count >= 1, raw[0] == 1 else { throw corrupt("not jsonb version 1") }
            return Data(UnsafeRawBufferPointer(rebasing: raw[1...]))
        }
    }

    /// The text of a json value (binary json is its text) or of a jsonb one: the metadata
    /// column is json since schema version 6, jsonb before (ADR 0001 §12).
    mutating func json() throws -> Data {
        let (bytes, type) = try cell(.json, or: .jsonb)
        let skip = type == .jsonb ? 1 : 0
        return try bytes.withUnsafeReadableBytes { raw in
            guard raw.count >= skip, skip == 0 || raw[0] == 1 else { throw corrupt("not jsonb version 1") }
            return Data(UnsafeRawBufferPointer(rebasing: raw[skip...]))
        }
    }

    /// The next cell's bytes and type, checked against `type` (or `other`).
    private mutating func cell(_ type: PostgresDataType, or other: PostgresDataType? = nil) throws -> (ByteBuffer, PostgresDataType) {
        index += 1
        guard let cell = cells.next() else { throw corrupt("missing") }
        guard cell.format == .binary else { throw corrupt("is in text format") }
        guard cell.dataType == type || cell.dataType == other else { throw corrupt("is \(cell.dataType), expected \(type)") }
        guard let bytes = cell.bytes else { throw corrupt("is null") }
        return (bytes, cell.dataType)
    }

    private func corrupt(_ problem: String) -> EventStoreError {
        EventStoreError(.corruptRow, "cell \(index) of an event row: \(problem)")
    }

    /// The fixed-width fields of one `bytea` cell, read in order with plain loads: the cell's
    /// length was checked against the sum of the fields before any is read.
    struct FixedFields {
        fileprivate let bytes: UnsafeRawBufferPointer
        private var offset = 0

        fileprivate init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        mutating func int64() -> Int64 { load(Int64.self) }

        mutating func int32() -> Int32 { load(Int32.self) }

        mutating func uuid() -> UUID {
            precondition(bytes.count - offset >= 16, "read past the fixed fields")
            defer { offset += 16 }
            return UUID(uuid: bytes.loadUnaligned(fromByteOffset: offset, as: uuid_t.self))
        }

        /// A timestamptz: microseconds since 2000-01-01 UTC, as PostgresNIO reads it.
        mutating func date() -> Date {
            Date(timeInterval: Double(load(Int64.self)) / 1_000_000, since: Self.postgresEpoch)
        }

        private static let postgresEpoch = Date(timeIntervalSince1970: 946_684_800)

        /// A big-endian integer at the offset, which moves past it.
        private mutating func load<I: FixedWidthInteger>(_: I.Type) -> I {
            precondition(bytes.count - offset >= MemoryLayout<I>.size, "read past the fixed fields")
            defer { offset += MemoryLayout<I>.size }
            return I(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: I.self))
        }
    }
}
