public import Foundation

/// Where the broker is, from `AMQP_URL` (`amqp://user:password@host:port/vhost`, or
/// `amqps://` for TLS, as Amazon MQ requires: port 5671 by default, the server's certificate
/// and host name checked against the system's CA bundle, or `AMQP_CA_FILE`).
///
/// No path, or `/`, is the default vhost `/`; `%2f`-style escapes are decoded.
public struct AMQPSettings: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 5672
    public var user = "guest"
    public var password = "guest"
    public var vhost = "/"
    /// Seconds between heartbeats the connection asks for.
    public var heartbeat: Int32 = 10
    /// TLS (`amqps://`), verifying the server against `caFile`.
    public var tls = false
    public var caFile = "/etc/ssl/certs/ca-certificates.crt"

    public init() {}

    public init(url: String) throws {
        guard let components = URLComponents(string: url), ["amqp", "amqps"].contains(components.scheme ?? ""),
            let host = components.host, !host.isEmpty
        else {
            throw AMQPError(code: .invalidURL, context: "read AMQP_URL", detail: "not an amqp:// or amqps:// URL with a host")
        }
        self.host = host
        tls = components.scheme == "amqps"
        port = components.port ?? (tls ? 5671 : 5672)
        if let user = components.user { self.user = user.removingPercentEncoding ?? user }
        if let password = components.password { self.password = password.removingPercentEncoding ?? password }
        let path = components.percentEncodedPath
        if path.count > 1 { vhost = String(path.dropFirst()).removingPercentEncoding ?? vhost }
    }

    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> AMQPSettings {
        guard let url = environment["AMQP_URL"], !url.isEmpty else { return AMQPSettings() }
        var settings = try AMQPSettings(url: url)
        if let caFile = environment["AMQP_CA_FILE"], !caFile.isEmpty { settings.caFile = caFile }
        return settings
    }
}
