public import Domain

/// The broker topology of DESIGN §5, declared idempotently at start-up.
///
/// - exchange `coworkflow.events` (topic, durable), routing key `<service>.<EventType>`;
/// - per consuming service a durable quorum queue `coworkflow.<service>` with
///   `x-single-active-consumer` (replicas fail over without reordering), dead-lettering to
///   `coworkflow.dlx` with its own queue name as routing key;
/// - `coworkflow.<service>.dlq`, bound to `coworkflow.dlx` by that key.
public enum Topology {
    public static let exchange = "coworkflow.events"
    public static let deadLetterExchange = "coworkflow.dlx"

    public static func queue(for service: String) -> String { "coworkflow.\(service)" }
    public static func deadLetterQueue(for service: String) -> String { "coworkflow.\(service).dlq" }

    /// `<service>.<EventType>`: the routing key an event is published with.
    public static func routingKey(service: String, eventType: String) -> String { "\(service).\(eventType)" }

    /// The routing key of `kind` as its own context appends it: what a consumer binds to.
    public static func routingKey(_ kind: EventKind) -> String { routingKey(service: kind.context.rawValue, eventType: kind.type) }

    /// Declares the exchanges, the service's queue and dead-letter queue, and binds the queue
    /// to each of `bindings` (routing keys or topic patterns such as `reservas.*`).
    public static func declare(service: String, bindings: [String], on connection: AMQPConnection) async throws {
        let queue = queue(for: service), deadLetters = deadLetterQueue(for: service)
        try await connection.declareExchange(exchange, type: "topic")
        try await connection.declareExchange(deadLetterExchange, type: "direct")
        try await connection.declareQueue(deadLetters, arguments: [("x-queue-type", .text("quorum"))])
        try await connection.bind(queue: deadLetters, exchange: deadLetterExchange, routingKey: queue)
        try await connection.declareQueue(
            queue,
            arguments: [
                ("x-queue-type", .text("quorum")),
                ("x-single-active-consumer", .bool(true)),
                ("x-dead-letter-exchange", .text(deadLetterExchange)),
                ("x-dead-letter-routing-key", .text(queue)),
            ])
        for key in bindings {
            try await connection.bind(queue: queue, exchange: exchange, routingKey: key)
        }
    }
}
