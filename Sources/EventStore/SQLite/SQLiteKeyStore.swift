public import Foundation
public import GRDB

/// Per-person keys in the embedded store's `personal_data_keys` table.
public struct SQLiteKeyStore: PersonalDataKeyStore {
    public let database: DatabasePool

    public init(database: DatabasePool) { self.database = database }

    public func key(for subject: UUID) async throws -> Data {
        let candidate = PersonalDataVault.newKey()
        let id = subject.lowercasedString
        return try await database.write { db in
            try db.cachedStatement(
                sql: "INSERT INTO personal_data_keys (subject_id, key, created_at) VALUES (?, ?, ?) ON CONFLICT (subject_id) DO NOTHING"
            )
            .execute(arguments: [id, candidate, microseconds(Date())])
            guard
                let key = try Data.fetchOne(
                    db.cachedStatement(sql: "SELECT key FROM personal_data_keys WHERE subject_id = ?"),
                    arguments: [id])
            else {
                throw EventStoreError(.backend, "personal data key for \(id) vanished while it was created")
            }
            return key
        }
    }

    public func existingKey(for subject: UUID) async throws -> Data? {
        try await database.snapshot { db in
            try Data.fetchOne(
                db.cachedStatement(sql: "SELECT key FROM personal_data_keys WHERE subject_id = ?"),
                arguments: [subject.lowercasedString])
        }
    }

    @discardableResult
    public func erase(subject: UUID) async throws -> Bool {
        try await database.write { db in
            try db.cachedStatement(sql: "DELETE FROM personal_data_keys WHERE subject_id = ?")
                .execute(arguments: [subject.lowercasedString])
            return db.changesCount > 0
        }
    }
}
