import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Who may name the client in `X-Forwarded-For`: the load balancer's networks
/// (`TRUSTED_PROXIES`, CIDRs separated by commas), everybody (a service, which hears only from
/// the gateway), or nobody (the default: the peer is the client).
///
/// A request whose peer is trusted is from the client named by the last `X-Forwarded-For`
/// entry that is not itself a trusted proxy; any other request is from its peer, whatever
/// it claims, so that nobody reaching the gateway directly can choose the address its rate
/// limits are counted on.
public struct TrustedProxies: Sendable, Equatable {
    struct Network: Sendable, Equatable {
        let bytes: [UInt8]
        let prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var remaining = prefix
            for (mine, theirs) in zip(bytes, address) where remaining > 0 {
                let bits = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                guard mine & mask == theirs & mask else { return false }
                remaining -= bits
            }
            return true
        }
    }

    let networks: [Network]
    let everyone: Bool

    /// Nobody: the peer is the client.
    public static let none = TrustedProxies(networks: [], everyone: false)
    /// Everybody: a service behind the gateway, which names the caller last.
    public static let everyone = TrustedProxies(networks: [], everyone: true)

    init(networks: [Network], everyone: Bool) {
        self.networks = networks
        self.everyone = everyone
    }

    /// Parses `10.0.0.0/16, 10.1.0.0/16, 2001:db8::/32` (a bare address is a network of one).
    ///
    /// - Throws: ``Invalid`` naming the entry that is not an IPv4 or IPv6 network.
    public init(parsing text: String) throws {
        var networks: [Network] = []
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
            guard let bytes = Self.bytes(parts[0]) else { throw Invalid(entry: entry) }
            let prefix = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let prefix, (0...bytes.count * 8).contains(prefix) else { throw Invalid(entry: entry) }
            networks.append(Network(bytes: bytes, prefix: prefix))
        }
        self.init(networks: networks, everyone: false)
    }

    public struct Invalid: Error, CustomStringConvertible {
        public let entry: String
        public var description: String { "TRUSTED_PROXIES: '\(entry)' is not an IPv4 or IPv6 address or network (e.g. 10.0.0.0/16)" }
    }

    /// Whether `address` is a trusted proxy.
    func trusts(_ address: String) -> Bool {
        if everyone { return true }
        guard !networks.isEmpty, let bytes = Self.bytes(address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// The client of a request from `peer` that carried `forwardedFor`.
    func client(peer: String?, forwardedFor: String?) -> String {
        guard let peer else { return "local" }
        guard trusts(peer), let forwardedFor else { return peer }
        var client = peer
        for entry in forwardedFor.split(separator: ",").reversed() {
            let address = entry.trimmingCharacters(in: .whitespaces)
            guard !address.isEmpty else { break }
            client = address
            if everyone || !trusts(address) { break }
        }
        return client
    }

    /// An address's bytes (4 for IPv4, 16 for IPv6); nil for anything else.
    static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
