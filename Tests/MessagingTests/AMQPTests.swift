import Foundation
import Messaging
import Testing

@Suite("AMQP settings")
struct AMQPSettingsTests {
    @Test func url_with_credentials_port_and_vhost() throws {
        let settings = try AMQPSettings(url: "amqp://app:s%40cret@mq.internal:5673/prod")
        #expect(settings.host == "mq.internal")
        #expect(settings.port == 5673)
        #expect(settings.user == "app")
        #expect(settings.password == "s@cret")
        #expect(settings.vhost == "prod")
    }

    @Test func no_path_is_the_default_vhost() throws {
        #expect(try AMQPSettings(url: "amqp://guest:guest@127.0.0.1:5672").vhost == "/")
        #expect(try AMQPSettings(url: "amqp://guest:guest@127.0.0.1:5672/%2f").vhost == "/")
        #expect(try AMQPSettings.fromEnvironment([:]) == AMQPSettings())
    }

    @Test func amqps_is_tls_on_5671_with_the_system_bundle_unless_told() throws {
        let settings = try AMQPSettings(url: "amqps://app:pw@b-1234.mq.sa-east-1.amazonaws.com/prod")
        #expect(settings.tls)
        #expect(settings.port == 5671)
        #expect(settings.caFile == "/etc/ssl/certs/ca-certificates.crt")
        #expect(try !AMQPSettings(url: "amqp://app:pw@mq:5672").tls)
        let custom = try AMQPSettings.fromEnvironment(["AMQP_URL": "amqps://mq:5999", "AMQP_CA_FILE": "/tmp/ca.pem"])
        #expect(custom.port == 5999 && custom.caFile == "/tmp/ca.pem")
    }

    @Test(arguments: ["http://host", "amqp://", "not a url"])
    func bad_urls_are_refused(_ url: String) {
        #expect(throws: AMQPError.self) { try AMQPSettings(url: url) }
    }
}

extension BrokerSuites {
    /// Against the real broker from `infra/local` (or `AMQP_URL`).
    @Suite("AMQP against RabbitMQ")
    struct AMQPBrokerTests {
        let settings = (try? AMQPSettings.fromEnvironment()) ?? AMQPSettings()

        @Test("TLS to a broker port that does not speak TLS fails with an error, not a hang, and no plain fallback")
        func tls_to_a_plain_port_fails() async throws {
            var tls = settings
            tls.tls = true
            let connection = AMQPConnection(settings: tls, name: "tls-probe")
            await #expect(throws: AMQPError.self) { try await connection.open() }
            await connection.close()
        }

        /// A fresh service topology, removed afterwards.
        func withService(_ body: (String, AMQPConnection) async throws -> Void) async throws {
            let service = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(10).lowercased()
            let connection = AMQPConnection(settings: settings, name: "test-\(service)")
            try await connection.open()
            try await Topology.declare(service: service, bindings: ["\(service).*"], on: connection)
            do {
                try await body(service, connection)
            } catch {
                try? await cleanUp(service, connection)
                throw error
            }
            try await cleanUp(service, connection)
        }

        private func cleanUp(_ service: String, _ connection: AMQPConnection) async throws {
            if !(await connection.isOpen) { try await connection.open() }
            try await connection.deleteQueue(Topology.queue(for: service))
            try await connection.deleteQueue(Topology.deadLetterQueue(for: service))
            await connection.close()
        }

        @Test("confirmed publishes reach the service queue in order, with properties and headers")
        func publish_and_consume_in_order() async throws {
            try await withService { service, publisher in
                for index in 0..<50 {
                    var message = OutgoingMessage(
                        exchange: Topology.exchange, routingKey: Topology.routingKey(service: service, eventType: "Testado"),
                        body: Data(#"{"n":\#(index)}"#.utf8), messageId: "id-\(index)", type: "Testado")
                    message.headers = [("position", .int(Int64(index))), ("stream", .text("teste-\(index)"))]
                    try await publisher.publish(message)
                }
                #expect(try await publisher.messageCount(Topology.queue(for: service)) == 50)

                let consumer = AMQPConnection(settings: settings, name: "consumer-\(service)")
                try await consumer.open()
                try await consumer.consume(Topology.queue(for: service), prefetch: 10)
                var received: [Delivery] = []
                while received.count < 50, let delivery = try await consumer.nextDelivery(timeout: 10) {
                    received.append(delivery)
                    try await consumer.ack(delivery)
                }
                await consumer.close()
                #expect(received.map(\.messageId) == (0..<50).map { "id-\($0)" })
                let first = try #require(received.first)
                #expect(first.type == "Testado")
                #expect(first.contentType == "application/json")
                #expect(first.routingKey == "\(service).Testado")
                #expect(first.headers["position"] == .int(0))
                #expect(first.headers["stream"] == .text("teste-0"))
                #expect(String(decoding: first.body, as: UTF8.self) == #"{"n":0}"#)
                #expect(try await publisher.messageCount(Topology.queue(for: service)) == 0)
            }
        }

        @Test("a rejected delivery goes to the service's dead-letter queue; a requeued one comes back")
        func reject_dead_letters() async throws {
            try await withService { service, publisher in
                for name in ["veneno", "ok"] {
                    try await publisher.publish(
                        OutgoingMessage(
                            exchange: Topology.exchange, routingKey: "\(service).Testado", body: Data("{}".utf8), messageId: name))
                }
                let consumer = AMQPConnection(settings: settings, name: "consumer-\(service)")
                try await consumer.open()
                try await consumer.consume(Topology.queue(for: service), prefetch: 1)
                let poison = try #require(try await consumer.nextDelivery(timeout: 10))
                #expect(poison.messageId == "veneno")
                try await consumer.reject(poison, requeue: true)
                // A quorum queue puts a requeued message at the back: "ok" comes first, then the
                // redelivery. (So consumers retry in place rather than requeue, to keep order.)
                var seen: [String?] = []
                for _ in 0..<2 {
                    let delivery = try #require(try await consumer.nextDelivery(timeout: 10))
                    seen.append(delivery.messageId)
                    if delivery.messageId == "veneno" {
                        #expect(delivery.redelivered)
                        try await consumer.reject(delivery, requeue: false)
                    } else {
                        try await consumer.ack(delivery)
                    }
                }
                #expect(seen == ["ok", "veneno"])
                await consumer.close()
                let deadLetters = Topology.deadLetterQueue(for: service)
                let arrived = try await eventually { try await publisher.messageCount(deadLetters) == 1 }
                #expect(arrived, "the rejected message must wait in \(deadLetters)")
            }
        }

        @Test("an unroutable publish is refused, not silently dropped")
        func unroutable_is_refused() async throws {
            try await withService { service, publisher in
                let error = await #expect(throws: AMQPError.self) {
                    try await publisher.publish(
                        OutgoingMessage(
                            exchange: Topology.exchange, routingKey: "ninguem-\(service).Nada", body: Data("{}".utf8)))
                }
                #expect(error?.code == .rejected)
                // The connection stays usable after a returned message.
                try await publisher.publish(
                    OutgoingMessage(
                        exchange: Topology.exchange, routingKey: "\(service).Testado", body: Data("{}".utf8)))
            }
        }

        @Test("a broker that is not there fails with the library's reason and where")
        func unreachable_broker() async throws {
            var nowhere = settings
            nowhere.port = 1
            let connection = AMQPConnection(settings: nowhere)
            let error = await #expect(throws: AMQPError.self) { try await connection.open() }
            #expect(error?.context.contains("connect to") == true)
            #expect(await connection.isOpen == false)
            await #expect(throws: AMQPError.self) { try await connection.messageCount("x") }
        }
    }
}
