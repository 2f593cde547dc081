import CoreMetrics
import Telemetry
import Tracing

/// E-mails handed to the mail server (or written to the outbox), by outcome.
enum EmailMetrics {
    /// Made together, so both series are there (at 0) from the first message.
    static let outcomes = (
        sent: Telemetry.counter(Catalog.emails, [("outcome", "sent")]),
        failed: Telemetry.counter(Catalog.emails, [("outcome", "failed")])
    )

    /// Counts the send by outcome, in a client span (`kind`: smtp, outbox) when the send is part of
    /// a trace (a consumer's reaction): the trace of a booking reaches its e-mail.
    static func counting(
        _ kind: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
    ) async throws {
        do {
            if Traces.enabled {
                try await Traces.withSpan("send e-mail", ofKind: .client, onlyInTrace: true) { span in
                    span.attributes["coworkflow.mail.transport"] = kind
                    try await body()
                }
            } else {
                try await body()
            }
            outcomes.sent.increment()
        } catch {
            outcomes.failed.increment()
            throw error
        }
    }
}
