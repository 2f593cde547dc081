import CRabbitMQ
public import Foundation
import Logging

/// A message as it goes out.
public struct OutgoingMessage: Sendable {
    public var exchange: String
    public var routingKey: String
    public var body: Data
    public var messageId: String?
    public var type: String?
    public var contentType = "application/json"
    public var persistent = true
    /// Refused (returned) by the broker when no queue is bound for it. The relay turns this
    /// off: an event no service consumes is not an error.
    public var mandatory = true
    public var headers: [(String, HeaderValueOut)] = []

    public init(exchange: String, routingKey: String, body: Data, messageId: String? = nil, type: String? = nil) {
        self.exchange = exchange
        self.routingKey = routingKey
        self.body = body
        self.messageId = messageId
        self.type = type
    }
}

/// A header value on an outgoing message.
public enum HeaderValueOut: Sendable {
    case text(String)
    case int(Int64)
}

/// A message as it comes in; acknowledge it through the consumer that delivered it.
public struct Delivery: Sendable {
    public let deliveryTag: UInt64
    public let redelivered: Bool
    public let routingKey: String
    public let body: Data
    public let messageId: String?
    public let type: String?
    public let contentType: String?
    public let headers: [String: HeaderValue]
}

/// One AMQP connection with one channel, on a thread of its own (rabbitmq-c blocks).
///
/// Every call runs as a job on the connection's thread; async callers wait for it. Use one
/// connection to publish and another to consume, so a consumer waiting for messages never
/// holds up a publisher.
public final class AMQPConnection: @unchecked Sendable {
    // `state` is only touched by jobs on `worker`; that is what makes this type Sendable.
    private var state: amqp_connection_state_t?
    private let worker: WorkerThread
    private let settings: AMQPSettings
    /// What the broker lists the connection as (`coworkflow.<name>`).
    private let name: String
    private var confirms = false
    private var nextPublishTag: UInt64 = 1
    static let channel: amqp_channel_t = 1

    public init(settings: AMQPSettings, name: String = "amqp") {
        self.settings = settings
        self.name = "coworkflow.\(name)"
        self.worker = WorkerThread(name: "coworkflow.\(name)")
    }

    deinit {
        let state = self.state
        if let state {
            amqp_connection_close(state, AMQP_REPLY_SUCCESS)
            amqp_destroy_connection(state)
        }
        worker.stop()
    }

    /// Connects, logs in (heartbeats on) and opens the channel.
    public func open() async throws {
        try await worker.run { [self] in try openOnThread() }
    }

    /// Seconds before a connect, and any RPC (declare, bind, channel open, close), give up.
    static let connectTimeoutSeconds = 10
    static let rpcTimeoutSeconds = 30

    private func openOnThread() throws {
        guard state == nil else { return }
        guard let connection = amqp_new_connection() else {
            throw AMQPError(code: .notConnected, context: "create connection", detail: "out of memory")
        }
        guard let socket = settings.tls ? amqp_ssl_socket_new(connection) : amqp_tcp_socket_new(connection) else {
            amqp_destroy_connection(connection)
            throw AMQPError(code: .notConnected, context: "create socket", detail: "out of memory")
        }
        do {
            if settings.tls {
                // The server's certificate must chain to the bundle and name the host.
                try AMQPCheck.validate(amqp_ssl_socket_set_cacert(socket, settings.caFile), "read the CA bundle \(settings.caFile)")
                amqp_ssl_socket_set_verify_peer(socket, 1)
                amqp_ssl_socket_set_verify_hostname(socket, 1)
            }
            // No call may wait forever: a connect, or an RPC whose reply never comes (a broker
            // that restarts mid-call), fails after these and the caller reconnects.
            var rpcTimeout = timeval(tv_sec: Self.rpcTimeoutSeconds, tv_usec: 0)
            try AMQPCheck.validate(amqp_set_rpc_timeout(connection, &rpcTimeout), "set the RPC timeout")
            var connectTimeout = timeval(tv_sec: Self.connectTimeoutSeconds, tv_usec: 0)
            try AMQPCheck.validate(
                amqp_socket_open_noblock(socket, settings.host, Int32(settings.port), &connectTimeout),
                "connect to \(settings.host):\(settings.port)")
            try AMQPCheck.validate(
                cwf_login_plain(connection, settings.vhost, 0, 131_072, settings.heartbeat, settings.user, settings.password, name),
                "log in as \(settings.user) to vhost \(settings.vhost)")
            amqp_channel_open(connection, Self.channel)
            try AMQPCheck.validate(amqp_get_rpc_reply(connection), "open channel")
        } catch {
            amqp_destroy_connection(connection)
            throw error
        }
        state = connection
    }

    /// Closes the channel and the connection; the object can be opened again.
    public func close() async {
        _ = try? await worker.run { [self] in
            guard let connection = state else { return }
            amqp_channel_close(connection, Self.channel, AMQP_REPLY_SUCCESS)
            amqp_connection_close(connection, AMQP_REPLY_SUCCESS)
            amqp_destroy_connection(connection)
            state = nil
            confirms = false
        }
    }

    public var isOpen: Bool {
        get async { (try? await worker.run { [self] in state != nil }) ?? false }
    }

    /// Runs `body` on the connection's thread with the open connection.
    func withConnection<T: Sendable>(
        _ context: String, _ body: @escaping @Sendable (amqp_connection_state_t) throws -> T
    ) async throws -> T {
        try await worker.run { [self] in
            guard let connection = state else {
                throw AMQPError(code: .notConnected, context: context, detail: "connection is not open")
            }
            do {
                return try body(connection)
            } catch let error as AMQPError {
                // A server exception closes the channel (or the connection): drop it so the
                // caller reconnects instead of using a dead channel.
                if case .server = error.code { dropOnThread() }
                if case .library = error.code { dropOnThread() }
                throw error
            }
        }
    }

    private func dropOnThread() {
        guard let connection = state else { return }
        amqp_destroy_connection(connection)
        state = nil
        confirms = false
    }

    // MARK: Topology

    public func declareExchange(_ name: String, type: String, durable: Bool = true) async throws {
        try await withConnection("declare exchange \(name)") { connection in
            withBytes(name) { exchange in
                withBytes(type) { kind in
                    _ = amqp_exchange_declare(connection, Self.channel, exchange, kind, 0, durable ? 1 : 0, 0, 0, amqp_empty_table)
                }
            }
            try AMQPCheck.validate(amqp_get_rpc_reply(connection), "declare exchange \(name)")
        }
    }

    /// Declares a durable queue with the given arguments (e.g. `x-queue-type`).
    public func declareQueue(_ name: String, arguments: [(String, QueueArgument)] = []) async throws {
        let values = arguments.map { ($0.0, $0.1.tableValue) }
        try await withConnection("declare queue \(name)") { connection in
            var table = AMQPTable(values)
            table.with { arguments in
                withBytes(name) { queue in
                    _ = amqp_queue_declare(connection, Self.channel, queue, 0, 1, 0, 0, arguments)
                }
            }
            try AMQPCheck.validate(amqp_get_rpc_reply(connection), "declare queue \(name)")
        }
    }

    public func bind(queue: String, exchange: String, routingKey: String) async throws {
        try await withConnection("bind \(queue) to \(exchange) with \(routingKey)") { connection in
            withBytes(queue) { queueBytes in
                withBytes(exchange) { exchangeBytes in
                    withBytes(routingKey) { key in
                        _ = amqp_queue_bind(connection, Self.channel, queueBytes, exchangeBytes, key, amqp_empty_table)
                    }
                }
            }
            try AMQPCheck.validate(amqp_get_rpc_reply(connection), "bind \(queue) to \(exchange) with \(routingKey)")
        }
    }

    /// Deletes a queue and the messages in it (tests and tear-down).
    public func deleteQueue(_ name: String) async throws {
        try await withConnection("delete queue \(name)") { connection in
            withBytes(name) { queue in _ = amqp_queue_delete(connection, Self.channel, queue, 0, 0) }
            try AMQPCheck.validate(amqp_get_rpc_reply(connection), "delete queue \(name)")
        }
    }

    /// Messages ready in a queue (passive declare); throws if the queue does not exist.
    public func messageCount(_ queue: String) async throws -> Int {
        try await withConnection("inspect queue \(queue)") { connection in
            let ok = withBytes(queue) { name in
                amqp_queue_declare(connection, Self.channel, name, 1, 0, 0, 0, amqp_empty_table)
            }
            try AMQPCheck.validate(amqp_get_rpc_reply(connection), "inspect queue \(queue)")
            return Int(ok?.pointee.message_count ?? 0)
        }
    }

    // MARK: Publishing

    /// Publishes and waits until the broker confirms it (publisher confirms).
    ///
    /// - Throws: ``AMQPError`` with `.rejected` when the broker nacks it, or returns it as
    ///   unroutable (a `mandatory` message no queue takes).
    public func publish(_ message: OutgoingMessage) async throws {
        try await publish([message])
    }

    /// Publishes the messages in order and waits until the broker confirmed all of them: one
    /// wait for the batch, not one round trip per message.
    public func publish(_ messages: [OutgoingMessage]) async throws {
        guard let firstMessage = messages.first else { return }
        let context =
            messages.count == 1
            ? "publish to \(firstMessage.exchange) with \(firstMessage.routingKey)"
            : "publish \(messages.count) messages to \(firstMessage.exchange)"
        try await withConnection(context) { [self] connection in
            amqp_maybe_release_buffers(connection)
            if !confirms {
                amqp_confirm_select(connection, Self.channel)
                try AMQPCheck.validate(amqp_get_rpc_reply(connection), "enable publisher confirms")
                confirms = true
                nextPublishTag = 1
            }
            let first = nextPublishTag
            for message in messages {
                try send(message, on: connection)
                nextPublishTag += 1
            }
            try awaitConfirms(first..<nextPublishTag, on: connection, context: context)
        }
    }

    private func send(_ message: OutgoingMessage, on connection: amqp_connection_state_t) throws {
        var table = AMQPTable(
            message.headers.map { key, value in
                switch value {
                case .text(let text): (key, AMQPTable.Value.text(text))
                case .int(let number): (key, AMQPTable.Value.int(number))
                }
            })
        let status = table.with { headers in
            withBytes(message.contentType) { contentType in
                withBytes(message.messageId ?? "") { messageId in
                    withBytes(message.type ?? "") { type in
                        var properties = amqp_basic_properties_t()
                        properties._flags = amqp_flags_t(AMQP_BASIC_CONTENT_TYPE_FLAG | AMQP_BASIC_DELIVERY_MODE_FLAG | AMQP_BASIC_HEADERS_FLAG)
                        properties.content_type = contentType
                        properties.delivery_mode = message.persistent ? 2 : 1
                        properties.headers = headers
                        if message.messageId != nil {
                            properties._flags |= amqp_flags_t(AMQP_BASIC_MESSAGE_ID_FLAG)
                            properties.message_id = messageId
                        }
                        if message.type != nil {
                            properties._flags |= amqp_flags_t(AMQP_BASIC_TYPE_FLAG)
                            properties.type = type
                        }
                        return withBytes(message.exchange) { exchange in
                            withBytes(message.routingKey) { key in
                                withBytes(message.body) { body in
                                    amqp_basic_publish(connection, Self.channel, exchange, key, message.mandatory ? 1 : 0, 0, &properties, body)
                                }
                            }
                        }
                    }
                }
            }
        }
        try AMQPCheck.validate(status, "publish to \(message.exchange) with \(message.routingKey)")
    }

    /// Reads frames until the broker acked every tag in `tags` (one by one or `multiple`).
    private func awaitConfirms(_ tags: Range<UInt64>, on connection: amqp_connection_state_t, context: String) throws {
        var pending = Set(tags)
        var returned = 0
        while !pending.isEmpty {
            var frame = amqp_frame_t()
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            try AMQPCheck.validate(amqp_simple_wait_frame_noblock(connection, &frame, &timeout), context)
            switch cwf_frame_method_id(&frame) {
            case AMQP_BASIC_ACK_METHOD:
                let ack = cwf_frame_method_decoded(&frame).assumingMemoryBound(to: amqp_basic_ack_t.self).pointee
                if ack.multiple != 0 {
                    pending = pending.filter { $0 > ack.delivery_tag }
                } else {
                    pending.remove(ack.delivery_tag)
                }
            case AMQP_BASIC_NACK_METHOD:
                throw AMQPError(code: .rejected, context: context, detail: "the broker nacked the message")
            case AMQP_BASIC_RETURN_METHOD:
                // The returned message's header and body frames follow; read and drop them.
                returned += 1
                var message = amqp_message_t()
                try AMQPCheck.validate(amqp_read_message(connection, Self.channel, &message, 0), context)
                amqp_destroy_message(&message)
            case AMQP_CHANNEL_CLOSE_METHOD, AMQP_CONNECTION_CLOSE_METHOD:
                throw AMQPError(code: .server(0), context: context, detail: "the broker closed the channel")
            default:
                continue
            }
        }
        if returned > 0 {
            throw AMQPError(code: .rejected, context: context, detail: "unroutable: \(returned) returned by the broker")
        }
    }

    /// Takes the next message of `queue` without a consumer (`basic.get`), unacknowledged; nil
    /// when the queue is empty. For inspecting queues (dead letters); close the connection to
    /// put what was taken back in order.
    public func get(_ queue: String) async throws -> Delivery? {
        try await withConnection("get from \(queue)") { connection in
            amqp_maybe_release_buffers(connection)
            let reply = withBytes(queue) { name in amqp_basic_get(connection, Self.channel, name, 0) }
            try AMQPCheck.validate(reply, "get from \(queue)")
            guard reply.reply.id == AMQP_BASIC_GET_OK_METHOD else { return nil }
            let ok = reply.reply.decoded.assumingMemoryBound(to: amqp_basic_get_ok_t.self).pointee
            var message = amqp_message_t()
            try AMQPCheck.validate(amqp_read_message(connection, Self.channel, &message, 0), "read message from \(queue)")
            defer { amqp_destroy_message(&message) }
            return Self.delivery(
                tag: ok.delivery_tag, redelivered: ok.redelivered != 0, routingKey: AMQPCheck.string(ok.routing_key),
                message: message)
        }
    }

    private static func delivery(tag: UInt64, redelivered: Bool, routingKey: String, message: amqp_message_t) -> Delivery {
        let properties = message.properties
        func text(_ flag: Int32, _ bytes: amqp_bytes_t) -> String? {
            properties._flags & amqp_flags_t(flag) != 0 ? AMQPCheck.string(bytes) : nil
        }
        let body = message.body.bytes.map { Data(bytes: $0, count: message.body.len) } ?? Data()
        return Delivery(
            deliveryTag: tag, redelivered: redelivered, routingKey: routingKey, body: body,
            messageId: text(AMQP_BASIC_MESSAGE_ID_FLAG, properties.message_id),
            type: text(AMQP_BASIC_TYPE_FLAG, properties.type),
            contentType: text(AMQP_BASIC_CONTENT_TYPE_FLAG, properties.content_type),
            headers: properties._flags & amqp_flags_t(AMQP_BASIC_HEADERS_FLAG) != 0 ? AMQPTableReader.read(properties.headers) : [:])
    }

    // MARK: Consuming

    /// Starts consuming `queue` with manual acknowledgement and at most `prefetch` unacked.
    public func consume(_ queue: String, prefetch: UInt16 = 100) async throws {
        try await withConnection("consume \(queue)") { connection in
            amqp_basic_qos(connection, Self.channel, 0, prefetch, 0)
            try AMQPCheck.validate(amqp_get_rpc_reply(connection), "set prefetch for \(queue)")
            withBytes(queue) { name in
                _ = amqp_basic_consume(connection, Self.channel, name, amqp_empty_bytes, 0, 0, 0, amqp_empty_table)
            }
            try AMQPCheck.validate(amqp_get_rpc_reply(connection), "consume \(queue)")
        }
    }

    /// The next delivery, or nil when none came within `timeout` seconds.
    public func nextDelivery(timeout seconds: Int = 1) async throws -> Delivery? {
        try await withConnection("receive") { connection in
            amqp_maybe_release_buffers(connection)
            var envelope = amqp_envelope_t()
            var timeout = timeval(tv_sec: seconds, tv_usec: 0)
            let reply = amqp_consume_message(connection, &envelope, &timeout, 0)
            if reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION && reply.library_error == AMQP_STATUS_TIMEOUT.rawValue {
                return nil
            }
            try AMQPCheck.validate(reply, "receive")
            defer { amqp_destroy_envelope(&envelope) }
            return Self.delivery(
                tag: envelope.delivery_tag, redelivered: envelope.redelivered != 0,
                routingKey: AMQPCheck.string(envelope.routing_key), message: envelope.message)
        }
    }

    /// The next delivery (waiting up to `timeout` seconds for it) and every further one already
    /// received, up to `limit`: a consumer works off what is waiting in one go.
    public func nextDeliveries(limit: Int, timeout seconds: Int = 1) async throws -> [Delivery] {
        try await withConnection("receive") { connection in
            var deliveries: [Delivery] = []
            var wait = timeval(tv_sec: seconds, tv_usec: 0)
            while deliveries.count < max(1, limit) {
                // After the first, take only what has arrived already.
                if !deliveries.isEmpty && amqp_data_in_buffer(connection) == 0 && amqp_frames_enqueued(connection) == 0 { break }
                amqp_maybe_release_buffers(connection)
                var envelope = amqp_envelope_t()
                let reply = amqp_consume_message(connection, &envelope, &wait, 0)
                if reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION && reply.library_error == AMQP_STATUS_TIMEOUT.rawValue {
                    break
                }
                if reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION && reply.library_error == AMQP_STATUS_UNEXPECTED_STATE.rawValue {
                    // Something other than a delivery came (it waits in the library's queue):
                    // hand over what arrived before it, and say what it is on the next call.
                    if !deliveries.isEmpty { break }
                    try Self.failOnUnexpectedFrame(connection)
                }
                try AMQPCheck.validate(reply, "receive")
                deliveries.append(
                    Self.delivery(
                        tag: envelope.delivery_tag, redelivered: envelope.redelivered != 0,
                        routingKey: AMQPCheck.string(envelope.routing_key), message: envelope.message))
                amqp_destroy_envelope(&envelope)
                wait = timeval(tv_sec: 0, tv_usec: 0)
            }
            return deliveries
        }
    }

    /// Reads the frame a consumer did not expect and throws, naming it: above all the broker's
    /// `basic.cancel` (the consumer is gone; the caller reconnects and subscribes again).
    private static func failOnUnexpectedFrame(_ connection: amqp_connection_state_t) throws {
        var frame = amqp_frame_t()
        var zero = timeval(tv_sec: 0, tv_usec: 0)
        try AMQPCheck.validate(amqp_simple_wait_frame_noblock(connection, &frame, &zero), "receive")
        let detail =
            switch cwf_frame_method_id(&frame) {
            case AMQP_BASIC_CANCEL_METHOD: "the broker cancelled the consumer (its queue was deleted or became unavailable)"
            case AMQP_CHANNEL_CLOSE_METHOD, AMQP_CONNECTION_CLOSE_METHOD: "the broker closed the channel"
            case let method: "unexpected frame (method \(method))"
            }
        throw AMQPError(code: .library(AMQP_STATUS_UNEXPECTED_STATE.rawValue), context: "receive", detail: detail)
    }

    /// Acknowledges `delivery` and, with `multiple`, every earlier one not yet acknowledged.
    public func ack(_ delivery: Delivery, multiple: Bool) async throws {
        try await withConnection("ack \(delivery.deliveryTag)") { connection in
            try AMQPCheck.validate(
                amqp_basic_ack(connection, Self.channel, delivery.deliveryTag, multiple ? 1 : 0), "ack \(delivery.deliveryTag)")
        }
    }

    /// Lets the library do its housekeeping on an idle connection: sends a heartbeat when one
    /// is due and notices a connection the broker closed. Call it now and then on connections
    /// that may sit idle (rabbitmq-c only does this inside its own calls).
    public func tick() async throws {
        try await withConnection("heartbeat") { connection in
            var frame = amqp_frame_t()
            var zero = timeval(tv_sec: 0, tv_usec: 0)
            let status = amqp_simple_wait_frame_noblock(connection, &frame, &zero)
            if status == AMQP_STATUS_TIMEOUT.rawValue { return }
            try AMQPCheck.validate(status, "heartbeat")
        }
    }

    public func ack(_ delivery: Delivery) async throws {
        try await withConnection("ack \(delivery.deliveryTag)") { connection in
            try AMQPCheck.validate(amqp_basic_ack(connection, Self.channel, delivery.deliveryTag, 0), "ack \(delivery.deliveryTag)")
        }
    }

    /// Rejects a delivery: back to the queue (`requeue`), or to the dead-letter exchange.
    public func reject(_ delivery: Delivery, requeue: Bool) async throws {
        try await withConnection("reject \(delivery.deliveryTag)") { connection in
            try AMQPCheck.validate(
                amqp_basic_reject(connection, Self.channel, delivery.deliveryTag, requeue ? 1 : 0), "reject \(delivery.deliveryTag)")
        }
    }
}

/// A queue argument value.
public enum QueueArgument: Sendable {
    case text(String)
    case bool(Bool)
    case int(Int64)

    var tableValue: AMQPTable.Value {
        switch self {
        case .text(let value): .text(value)
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        }
    }
}
