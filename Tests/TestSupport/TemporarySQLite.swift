import Foundation

/// An embedded store's database file under the temporary directory, and everything SQLite and
/// the store put beside it: the WAL, the shared-memory index and the leases' directory.
public enum TemporarySQLite {
    public static func path(_ prefix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString).sqlite").path
    }

    public static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-leases"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
