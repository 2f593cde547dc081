import Foundation
import NIOCore
import NIOFoundationCompat
import PostgresNIO

/// Reads a row's binary cells in column order, by hand. The store's bulk reads decode
/// thousands of rows a batch, and PostgresNIO's generic tuple decoding spent most of the
/// client's time in generic-metadata lookups and reference counting (ADR 0001 §5). Each read
/// checks the column's type and format and throws ``EventStoreError/Code/corruptRow`` on a
/// mismatch, a null or a short value, naming the column.
struct PostgresRowReader {
    private var cells: PostgresRow.Iterator
    private var index = 0

    init(_ row: PostgresRow) { cells = row.makeIterator() }

    mutating func int64() throws -> Int64 {
        var bytes = try next(.int8)
        guard bytes.readableBytes == 8, let value = bytes.readInteger(as: Int64.self) else { throw corrupt("not an int8") }
        return value
    }

    mutating func int32() throws -> Int32 {
        var bytes = try next(.int4)
        guard bytes.readableBytes == 4, let value = bytes.readInteger(as: Int32.self) else { throw corrupt("not an int4") }
        return value
    }

    mutating func string() throws -> String {
        var bytes = try next(.text)
        return bytes.readString(length: bytes.readableBytes) ?? ""
    }

    mutating func uuid() throws -> UUID {
        var bytes = try next(.uuid)
        guard bytes.readableBytes == 16, let value = bytes.readUUIDBytes() else { throw corrupt("not a uuid") }
        return value
    }

    /// A jsonb value's JSON text: binary jsonb is a version byte (1) followed by the text.
    mutating func jsonb() throws -> Data {
        var bytes = try next(.jsonb)
        guard bytes.readInteger(as: UInt8.self) == 1 else { throw corrupt("not jsonb version 1") }
        return Data(bytes.readableBytesView)
    }

    /// A timestamptz: microseconds since 2000-01-01 UTC, as PostgresNIO reads it.
    mutating func date() throws -> Date {
        var bytes = try next(.timestamptz)
        guard bytes.readableBytes == 8, let microseconds = bytes.readInteger(as: Int64.self) else {
            throw corrupt("not a timestamptz")
        }
        return Date(timeInterval: Double(microseconds) / 1_000_000, since: Self.postgresEpoch)
    }

    private static let postgresEpoch = Date(timeIntervalSince1970: 946_684_800)

    private mutating func next(_ type: PostgresDataType) throws -> ByteBuffer {
        index += 1
        guard var cell = cells.next() else { throw corrupt("missing") }
        guard cell.format == .binary, cell.dataType == type else {
            throw corrupt("is \(cell.dataType) (\(cell.format)), expected \(type) (binary)")
        }
        // Moved out, not copied: one reference count less per cell.
        guard let bytes = cell.bytes.take() else { throw corrupt("is null") }
        return bytes
    }

    private func corrupt(_ problem: String) -> EventStoreError {
        EventStoreError(.corruptRow, "column \(index) of an event row: \(problem)")
    }
}
