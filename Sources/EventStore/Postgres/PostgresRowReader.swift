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
    /// The record's bytes, valid while ``read(_:_:)``'s body runs (the only way to make a
    /// reader, which never leaves that body). Fields are read with plain loads from them:
    /// `ByteBuffer`'s readers check exclusive access to its storage on every integer (11
    /// fields are ~30 integers a row), which was a tenth of a bulk read's client time.
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0
    private var remaining: Int32 = 0
    private var index = 0
    /// The type of the field ``field(_:or:)`` read last.
    private var oid: UInt32 = 0

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Runs `body` with a reader of `row`'s record.
    static func read<T>(_ row: PostgresRow, _ body: (inout PostgresRowReader) throws -> T) throws -> T {
        var cells = row.makeIterator()
        guard let cell = cells.next() else {
            throw EventStoreError(.corruptRow, "an event row has no columns")
        }
        guard cell.format == .binary, cell.dataType == .record else {
            throw EventStoreError(.corruptRow, "an event row is \(cell.dataType) (\(cell.format)), expected record (binary)")
        }
        guard let record = cell.bytes else { throw EventStoreError(.corruptRow, "an event row is null") }
        return try record.withUnsafeReadableBytes { bytes in
            var reader = PostgresRowReader(bytes)
            guard bytes.count >= 4 else { throw EventStoreError(.corruptRow, "an event row's record has no field count") }
            reader.remaining = reader.load(Int32.self)
            return try body(&reader)
        }
    }

    mutating func int64() throws -> Int64 {
        guard try field(.int8) == 8 else { throw corrupt("not an int8") }
        return load(Int64.self)
    }

    mutating func int32() throws -> Int32 {
        guard try field(.int4) == 4 else { throw corrupt("not an int4") }
        return load(Int32.self)
    }

    mutating func string() throws -> String {
        let length = try field(.text)
        defer { offset += length }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
    }

    mutating func uuid() throws -> UUID {
        guard try field(.uuid) == 16 else { throw corrupt("not a uuid") }
        defer { offset += 16 }
        return UUID(uuid: bytes.loadUnaligned(fromByteOffset: offset, as: uuid_t.self))
    }

    /// A jsonb value's JSON text: binary jsonb is a version byte (1) followed by the text.
    mutating func jsonb() throws -> Data {
        let length = try field(.jsonb)
        guard length >= 1, bytes[offset] == 1 else { throw corrupt("not jsonb version 1") }
        defer { offset += length }
        return Data(UnsafeRawBufferPointer(rebasing: bytes[(offset + 1)..<(offset + length)]))
    }

    /// The text of a json value (binary json is its text) or of a jsonb one: the metadata
    /// column is jsonb, and a later release may make it json (ADR 0001 §12).
    mutating func json() throws -> Data {
        let length = try field(.json, or: .jsonb)
        defer { offset += length }
        let skip = oid == PostgresDataType.jsonb.rawValue ? 1 : 0
        guard length >= skip, skip == 0 || bytes[offset] == 1 else { throw corrupt("not jsonb version 1") }
        return Data(UnsafeRawBufferPointer(rebasing: bytes[(offset + skip)..<(offset + length)]))
    }

    /// A timestamptz: microseconds since 2000-01-01 UTC, as PostgresNIO reads it.
    mutating func date() throws -> Date {
        guard try field(.timestamptz) == 8 else { throw corrupt("not a timestamptz") }
        return Date(timeInterval: Double(load(Int64.self)) / 1_000_000, since: Self.postgresEpoch)
    }

    private static let postgresEpoch = Date(timeIntervalSince1970: 946_684_800)

    /// A big-endian integer at the offset, which moves past it. The caller has checked that
    /// the bytes are there.
    private mutating func load<I: FixedWidthInteger>(_: I.Type) -> I {
        defer { offset += MemoryLayout<I>.size }
        return I(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: I.self))
    }

    /// Reads the next field's header and returns its length; its bytes follow at the offset,
    /// its type in ``oid``.
    private mutating func field(_ type: PostgresDataType, or other: PostgresDataType? = nil) throws -> Int {
        index += 1
        guard remaining > 0 else { throw corrupt("missing") }
        remaining -= 1
        guard bytes.count - offset >= 8 else { throw corrupt("truncated") }
        oid = load(UInt32.self)
        let length = load(Int32.self)
        guard length >= 0 else { throw corrupt("is null") }
        guard bytes.count - offset >= Int(length) else { throw corrupt("truncated") }
        guard oid == type.rawValue || oid == other?.rawValue else {
            offset += Int(length)  // the next field stays readable
            throw corrupt("is \(PostgresDataType(oid)), expected \(type)")
        }
        return Int(length)
    }

    private func corrupt(_ problem: String) -> EventStoreError {
        EventStoreError(.corruptRow, "field \(index) of an event row: \(problem)")
    }
}
