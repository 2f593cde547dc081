public import Foundation
public import Logging
import PostgresNIO

/// Per-person keys in `personal_data_keys`, beside (never inside) the event table.
/// Its calls go through the store's connections and ``DatabaseHealth``.
public struct PostgresKeyStore: PersonalDataKeyStore {
    let store: PostgresEventStore
    let logger: Logger

    public init(store: PostgresEventStore, logger: Logger = Logger(label: "coworkflow.vault")) {
        self.store = store
        self.logger = logger
    }

    public func key(for subject: UUID) async throws -> Data {
        let candidate = PersonalDataVault.newKey()
        try await store.execute(
            "INSERT INTO personal_data_keys (subject_id, key) VALUES (\(subject), \(candidate)) ON CONFLICT (subject_id) DO NOTHING",
            logger: logger)
        guard let key = try await existingKey(for: subject) else {
            throw EventStoreError(.backend, "personal data key for \(subject) vanished while it was created")
        }
        return key
    }

    public func existingKey(for subject: UUID) async throws -> Data? {
        let rows = try await store.fetch(
            "SELECT key FROM personal_data_keys WHERE subject_id = \(subject)", logger: logger)
        return try rows.first?.decode(Data.self)
    }

    @discardableResult
    public func erase(subject: UUID) async throws -> Bool {
        // An erasure reported done must be done (its key gone for good).
        let rows = try await store.fetch(
            "DELETE FROM personal_data_keys WHERE subject_id = \(subject) RETURNING subject_id", logger: logger, confirmingCommit: true)
        return !rows.isEmpty
    }
}
