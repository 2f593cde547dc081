import Testing

/// Every suite that uses RabbitMQ runs inside this one, one test at a time: one of them stops
/// and starts the broker.
@Suite("RabbitMQ", .serialized)
enum BrokerSuites {}
