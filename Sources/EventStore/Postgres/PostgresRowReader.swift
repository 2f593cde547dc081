import Foundation
import NIOCore
import NIOFoundationCompat
import PostgresNIO

/// Reads the fields of an event row, which the store's reads select as one anonymous record
/// (`SELECT ROW(…)`), by hand. A row of one binary `record` cell costs the client one cell,
/// where eleven columns cost eleven (each a buffer slice, a column lookup and reference
/// counting): PostgresNIO's per-cell work was most of the client's time in bulk reads
/// (ADR 0001 §5). Each read checks the field's type and throws
/// ``EventStoreError/Code/corruptRow`` on a mismatch, a null or a short value, naming the field.
///
/// The binary record format (`record_send`): the field count (int4), then per field its type
/// oid (int4), its length (int4, -1 for null) and that many bytes in the type's binary format.
struct PostgresRowReader {
    private var record: ByteBuffer
    private var remaining: Int32
    private var index = 0

    init(_ row: PostgresRow) throws {
        var cells = row.makeIterator()
        guard var cell = cells.next() else {
            throw EventStoreError(.corruptRow, "an event row has no columns")
        }
        guard cell.format == .binary, cell.dataType == .record else {
            throw EventStoreError(.corruptRow, "an event row is \(cell.dataType) (\(cell.format)), expected record (binary)")
        }
        guard let bytes = cell.bytes.take() else { throw EventStoreError(.corruptRow, "an event row is null") }
        record = bytes
        guard let count = record.readInteger(as: Int32.self) else {
            throw EventStoreError(.corruptRow, "an event row's record has no field count")
        }
        remaining = count
    }

    mutating func int64() throws -> Int64 {
        guard try field(.int8) == 8, let value = record.readInteger(as: Int64.self) else { throw corrupt("not an int8") }
        return value
    }

    mutating func int32() throws -> Int32 {
        guard try field(.int4) == 4, let value = record.readInteger(as: Int32.self) else { throw corrupt("not an int4") }
        return value
    }

    mutating func string() throws -> String {
        let length = try field(.text)
        guard let value = record.readString(length: length) else { throw corrupt("not UTF-8 text") }
        return value
    }

    mutating func uuid() throws -> UUID {
        guard try field(.uuid) == 16, let value = record.readUUIDBytes() else { throw corrupt("not a uuid") }
        return value
    }

    /// A jsonb value's JSON text: binary jsonb is a version byte (1) followed by the text.
    mutating func jsonb() throws -> Data {
        let length = try field(.jsonb)
        guard length >= 1, record.readInteger(as: UInt8.self) == 1 else { throw corrupt("not jsonb version 1") }
        guard let value = record.readData(length: length - 1) else { throw corrupt("truncated") }
        return value
    }

    /// A timestamptz: microseconds since 2000-01-01 UTC, as PostgresNIO reads it.
    mutating func date() throws -> Date {
        guard try field(.timestamptz) == 8, let microseconds = record.readInteger(as: Int64.self) else {
            throw corrupt("not a timestamptz")
        }
        return Date(timeInterval: Double(microseconds) / 1_000_000, since: Self.postgresEpoch)
    }

    private static let postgresEpoch = Date(timeIntervalSince1970: 946_684_800)

    /// Reads the next field's header and returns its length; its bytes are next in `record`.
    private mutating func field(_ type: PostgresDataType) throws -> Int {
        index += 1
        guard remaining > 0 else { throw corrupt("missing") }
        remaining -= 1
        guard let oid = record.readInteger(as: UInt32.self), let length = record.readInteger(as: Int32.self) else {
            throw corrupt("truncated")
        }
        guard length >= 0 else { throw corrupt("is null") }
        guard record.readableBytes >= Int(length) else { throw corrupt("truncated") }
        guard oid == type.rawValue else {
            record.moveReaderIndex(forwardBy: Int(length))  // the next field stays readable
            throw corrupt("is \(PostgresDataType(oid)), expected \(type)")
        }
        return Int(length)
    }

    private func corrupt(_ problem: String) -> EventStoreError {
        EventStoreError(.corruptRow, "field \(index) of an event row: \(problem)")
    }
}
