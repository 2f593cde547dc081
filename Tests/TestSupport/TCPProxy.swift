import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP proxy in front of the test PostgreSQL whose link can be cut and restored: a real
/// outage as a client sees one (open connections closed, new ones refused) without stopping
/// the server the other tests share.
public final class TCPProxy: Sendable {
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let target: (host: String, port: Int)
    private struct State {
        var listener: (any Channel)?
        /// Both channels of every link made, client side then server side (closed ones
        /// included until a cut).
        var open: [any Channel] = []
        var linked = false
        /// At most this many live links; more are closed once accepted, after `refusalDelay`.
        var limit: Int?
        var refusalDelay: TimeAmount = .zero
    }

    private let state = NIOLockedValueBox(State())
    /// The port it listens on (the same after a restore).
    public let port: Int

    private init(target: (host: String, port: Int), port: Int) {
        self.target = target
        self.port = port
    }

    /// A proxy to `host:port`, listening on a free loopback port.
    public static func start(to host: String, port: Int) async throws -> TCPProxy {
        let probe = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let free = probe.localAddress?.port ?? 0
        try await probe.close()
        let proxy = TCPProxy(target: (host, port), port: free)
        try await proxy.restore()
        return proxy
    }

    /// Runs `body` with a proxy to `host:port`, and shuts the proxy down however `body` ends.
    public static func with<T>(to host: String, port: Int, _ body: (TCPProxy) async throws -> T) async throws -> T {
        let proxy = try await start(to: host, port: port)
        do {
            let result = try await body(proxy)
            try await proxy.shutdown()
            return result
        } catch {
            try? await proxy.shutdown()
            throw error
        }
    }

    /// Listens again: new connections reach the server.
    public func restore() async throws {
        let target = self.target
        let state = self.state
        state.withLockedValue { $0.linked = true }
        let listener = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in
                ClientBootstrap(group: inbound.eventLoop)
                    .connect(host: target.host, port: target.port)
                    .flatMap { outbound in
                        // A connection still being set up when the link was cut is cut too.
                        let (linked, delay) = state.withLockedValue { state in
                            // Counted by their server side: an accepted side is active only
                            // once its initializer is done.
                            let live = stride(from: 1, to: state.open.count, by: 2).filter { state.open[$0].isActive }.count
                            guard state.linked, live < state.limit ?? .max else { return (false, state.refusalDelay) }
                            state.open += [inbound, outbound]
                            return (true, TimeAmount.zero)
                        }
                        guard linked else {
                            outbound.close(promise: nil)
                            return inbound.eventLoop.scheduleTask(in: delay) {}.futureResult.flatMap { inbound.close() }
                        }
                        let (toServer, toClient) = Glue.pair()
                        do {
                            try inbound.pipeline.syncOperations.addHandler(toServer)
                            try outbound.pipeline.syncOperations.addHandler(toClient)
                        } catch {
                            return inbound.eventLoop.makeFailedFuture(error)
                        }
                        return inbound.setOption(.autoRead, value: true)
                    }
            }
            .bind(host: "127.0.0.1", port: port).get()
        state.withLockedValue { $0.listener = listener }
    }

    /// Accepts at most `links` live connections (nil: no limit); the ones over it are closed
    /// once made (after `delay`), as a server at its connection limit refuses them.
    public func limit(links: Int?, refusingAfter delay: Duration = .zero) {
        state.withLockedValue { state in
            state.limit = links
            state.refusalDelay = .nanoseconds(Int64(delay / .nanoseconds(1)))
        }
    }

    /// Stops listening (new connections are refused) and closes every open connection.
    public func cut() async throws {
        let (listener, open) = state.withLockedValue { state in
            defer { state = State(limit: state.limit, refusalDelay: state.refusalDelay) }
            return (state.listener, state.open)
        }
        try? await listener?.close()
        for channel in open { try? await channel.close() }
    }

    public func shutdown() async throws {
        try await cut()
        try await group.shutdownGracefully()
    }
}

/// One side of a proxied connection: what it reads, its partner writes.
private final class Glue: ChannelDuplexHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private var partner: Glue?
    private var context: ChannelHandlerContext?

    static func pair() -> (Glue, Glue) {
        let first = Glue(), second = Glue()
        first.partner = second
        second.partner = first
        return (first, second)
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner?.context?.writeAndFlush(data, promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner?.context?.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
