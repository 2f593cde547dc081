import CRabbitMQ

/// A failure talking AMQP: what was being done, and what the library or the broker said.
public struct AMQPError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// rabbitmq-c returned this (negative) status.
        case library(Int32)
        /// The broker closed the channel or connection with this reply code.
        case server(UInt16)
        /// The broker refused a published message (basic.nack) or returned it unroutable.
        case rejected
        /// The connection is not open (never opened, closed, or lost).
        case notConnected
        /// An `amqp://` URL that cannot be used.
        case invalidURL
    }

    public let code: Code
    /// What the caller was doing, e.g. `declare queue coworkflow.reservas`.
    public let context: String
    public let detail: String

    public var description: String { "AMQP \(context) failed: \(detail)" }
}

/// The one place every rabbitmq-c result is checked and turned into an ``AMQPError``.
enum AMQPCheck {
    /// Checks a status code (`AMQP_STATUS_OK` is 0; failures are negative).
    static func validate(_ status: Int32, _ context: @autoclosure () -> String) throws {
        guard status < 0 else { return }
        throw AMQPError(code: .library(status), context: context(), detail: String(cString: amqp_error_string2(status)))
    }

    /// Checks the reply of a synchronous RPC (login, declare, bind, ...).
    static func validate(_ reply: amqp_rpc_reply_t, _ context: @autoclosure () -> String) throws {
        switch reply.reply_type {
        case AMQP_RESPONSE_NORMAL:
            return
        case AMQP_RESPONSE_LIBRARY_EXCEPTION:
            let status = reply.library_error
            throw AMQPError(code: .library(status), context: context(), detail: String(cString: amqp_error_string2(status)))
        case AMQP_RESPONSE_SERVER_EXCEPTION:
            var code: UInt16 = 0
            let text = cwf_reply_close_text(reply, &code)
            throw AMQPError(code: .server(code), context: context(), detail: "\(code) \(string(text))")
        default:
            throw AMQPError(code: .notConnected, context: context(), detail: "no reply from the broker")
        }
    }

    static func string(_ bytes: amqp_bytes_t) -> String {
        guard let pointer = bytes.bytes, bytes.len > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: bytes.len), as: UTF8.self)
    }
}
