import Crypto
public import Foundation

/// Where per-person encryption keys live: a table beside the events, never inside them.
///
/// Deleting a person's key ("crypto-shredding") makes every personal field ever written for
/// them unreadable, while the events themselves stay in the append-only log.
public protocol PersonalDataKeyStore: Sendable {
    /// The subject's key, created (32 random bytes) on first use.
    func key(for subject: UUID) async throws -> Data
    /// The subject's key if it exists (nil after erasure).
    func existingKey(for subject: UUID) async throws -> Data?
    /// Deletes the subject's key; returns whether there was one.
    @discardableResult
    func erase(subject: UUID) async throws -> Bool
}

/// A personal field as it is stored inside an event payload: `pii:v1:<subject>:<base64>`,
/// the base64 being AES-256-GCM's nonce, ciphertext and tag.
public struct SealedField: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The person whose key seals this field.
    public var subject: UUID? {
        let parts = rawValue.split(separator: ":", maxSplits: 3)
        guard parts.count == 4, parts[0] == "pii", parts[1] == "v1" else { return nil }
        return UUID(text: String(parts[2]))
    }

    // Never print the ciphertext in logs.
    public var description: String { "SealedField(\(subject?.uppercasedString ?? "?"))" }
}

/// A personal field read back: the clear value, or the fact that it was erased.
public enum PersonalValue: Hashable, Sendable {
    case clear(String)
    case erased

    public var value: String? {
        if case .clear(let value) = self { return value }
        return nil
    }
}

/// Seals and opens personal fields with the subject's key from a ``PersonalDataKeyStore``.
public struct PersonalDataVault: Sendable {
    public let keys: any PersonalDataKeyStore

    public init(keys: any PersonalDataKeyStore) { self.keys = keys }

    /// Encrypts `value` under the subject's key (creating the key on first use).
    public func seal(_ value: String, for subject: UUID) async throws -> SealedField {
        let key = SymmetricKey(data: try await keys.key(for: subject))
        let box = try AES.GCM.seal(Data(value.utf8), using: key, authenticating: Self.aad(subject))
        guard let combined = box.combined else {
            throw EventStoreError(.backend, "AES-GCM produced no combined box")
        }
        return SealedField(rawValue: "pii:v1:\(subject.lowercasedString):\(combined.base64EncodedString())")
    }

    /// Decrypts a sealed field; `.erased` when the subject's key is gone.
    ///
    /// - Throws: when the field is malformed or was tampered with (the GCM tag fails).
    public func open(_ field: SealedField) async throws -> PersonalValue {
        try await open(field) { try await keys.existingKey(for: $0) }
    }

    /// Decrypts many sealed fields, reading each subject's key once (a thread of one member's
    /// texts is one read of the key store, not one a text).
    ///
    /// - Throws: as ``open(_:)``.
    public func open(_ fields: [SealedField]) async throws -> [PersonalValue] {
        var known: [UUID: Data?] = [:]
        var values: [PersonalValue] = []
        for field in fields {
            values.append(
                try await open(field) { subject in
                    if let key = known[subject] { return key }
                    let key = try await keys.existingKey(for: subject)
                    known[subject] = .some(key)
                    return key
                })
        }
        return values
    }

    private func open(_ field: SealedField, key: (UUID) async throws -> Data?) async throws -> PersonalValue {
        let parts = field.rawValue.split(separator: ":", maxSplits: 3)
        guard parts.count == 4, parts[0] == "pii", parts[1] == "v1",
            let subject = UUID(text: String(parts[2])),
            let combined = Data(base64Encoded: String(parts[3]))
        else {
            throw EventStoreError(.corruptRow, "not a sealed personal field")
        }
        guard let keyData = try await key(subject) else { return .erased }
        let box = try AES.GCM.SealedBox(combined: combined)
        let clear = try AES.GCM.open(box, using: SymmetricKey(data: keyData), authenticating: Self.aad(subject))
        return .clear(String(decoding: clear, as: UTF8.self))
    }

    /// Crypto-shreds everything sealed for the subject.
    @discardableResult
    public func erase(subject: UUID) async throws -> Bool {
        try await keys.erase(subject: subject)
    }

    /// Binds each ciphertext to its subject, so a field cannot be moved to another person.
    private static func aad(_ subject: UUID) -> Data { Data(subject.lowercasedString.utf8) }

    /// 32 fresh random bytes for a new key.
    static func newKey() -> Data {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
    }
}
