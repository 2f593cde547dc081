public import Logging
public import PostgresNIO

extension PostgresClient {
    /// Runs a statement on an explicitly leased connection and drains its rows.
    ///
    /// The lease ends when this returns. `PostgresClient.query` ties the lease to the row
    /// stream instead, and PostgresNIO 1.33 never releases it when the statement fails before
    /// the stream is consumed; the pool's graceful shutdown then waits forever (seen as a hung
    /// store shutdown in the test suite).
    public func run(_ query: PostgresQuery, logger: Logger) async throws {
        try await withConnection { connection in
            for try await _ in try await connection.query(query, logger: logger) {}
        }
    }
}
