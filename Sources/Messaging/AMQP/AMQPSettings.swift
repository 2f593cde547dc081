public import Foundation

/// Where the broker is, from `AMQP_URL` (`amqp://user:password@host:port/vhost`).
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

    public init() {}

    public init(url: String) throws {
        guard let components = URLComponents(string: url), components.scheme == "amqp",
            let host = components.host, !host.isEmpty
        else {
            throw AMQPError(code: .invalidURL, context: "read AMQP_URL", detail: "not an amqp:// URL with a host")
        }
        self.host = host
        port = components.port ?? 5672
        if let user = components.user { self.user = user.removingPercentEncoding ?? user }
        if let password = components.password { self.password = password.removingPercentEncoding ?? password }
        let path = components.percentEncodedPath
        if path.count > 1 { vhost = String(path.dropFirst()).removingPercentEncoding ?? vhost }
    }

    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> AMQPSettings {
        guard let url = environment["AMQP_URL"], !url.isEmpty else { return AMQPSettings() }
        return try AMQPSettings(url: url)
    }
}
