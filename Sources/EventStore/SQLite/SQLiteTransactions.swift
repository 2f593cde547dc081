import GRDB

extension DatabasePool {
    /// A read of the store in one snapshot of the database, on a reader of the pool; `statements`
    /// is how many statements `body` runs.
    ///
    /// GRDB's `read` wraps every read in `BEGIN DEFERRED TRANSACTION` and `COMMIT`, and compiles
    /// both again each time (`execute(sql:)`): 3–5 % of the embedded booking's CPU in session 66's
    /// profile (docs/benchmarks.md), where most reads are one statement. In WAL mode SQLite runs a
    /// statement outside a transaction in a snapshot of its own, so a read of one statement runs
    /// bare, and a read of several runs between a `BEGIN` and a `COMMIT` from the connection's
    /// statement cache.
    func snapshot<T: Sendable>(statements: Int = 1, _ body: @Sendable (Database) throws -> T) async throws -> T {
        try await unsafeRead { db in
            guard statements > 1 else { return try body(db) }
            try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
            let result: T
            do {
                result = try body(db)
                try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
            } catch {
                // Leave the connection outside a transaction for its next read, whatever failed.
                try? db.rollback()
                throw error
            }
            return result
        }
    }
}

extension Database {
    /// `body` in a savepoint of the transaction under way, with statements from the connection's
    /// cache (GRDB's `inSavepoint` compiles them each time). The body's failure is its outcome and
    /// undoes only its writes; a failure of the savepoint itself (its `RELEASE` or `ROLLBACK TO`) is
    /// thrown, and must fail the transaction.
    func savepoint<T>(_ body: () throws -> T) throws -> Result<T, any Error> {
        try cachedStatement(sql: "SAVEPOINT store").execute()
        do {
            let result = try body()
            try cachedStatement(sql: "RELEASE SAVEPOINT store").execute()
            return .success(result)
        } catch {
            try cachedStatement(sql: "ROLLBACK TO SAVEPOINT store").execute()
            try cachedStatement(sql: "RELEASE SAVEPOINT store").execute()
            return .failure(error)
        }
    }
}
