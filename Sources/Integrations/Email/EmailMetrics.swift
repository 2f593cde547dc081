import CoreMetrics
import Telemetry

/// E-mails handed to the mail server (or written to the outbox), by outcome.
enum EmailMetrics {
    /// Made together, so both series are there (at 0) from the first message.
    static let outcomes = (
        sent: Telemetry.counter(Catalog.emails, [("outcome", "sent")]),
        failed: Telemetry.counter(Catalog.emails, [("outcome", "failed")])
    )

    static func counting(_ body: () async throws -> Void) async throws {
        do {
            try await body()
            outcomes.sent.increment()
        } catch {
            outcomes.failed.increment()
            throw error
        }
    }
}
