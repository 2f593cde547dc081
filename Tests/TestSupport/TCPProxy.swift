import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP proxy in front of a test server whose link can be cut and restored: a real outage as
/// a client sees one (open connections closed, new ones refused) without stopping the server
/// the other tests share. It can also stall: a network partition as a client sees one (open
/// connections go silent, new ones are accepted and hang), until it resumes.
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
        /// Partitioned: nothing is read from either side; new connections wait here.
        var stalled = false
        var held: [any Channel] = []
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
                let held = state.withLockedValue { state in
                    if state.stalled { state.held.append(inbound) }
                    return state.stalled
                }
                return held ? inbound.eventLoop.makeSucceededVoidFuture() : Self.link(inbound, to: target, state: state)
            }
            .bind(host: "127.0.0.1", port: port).get()
        state.withLockedValue { $0.listener = listener }
    }

    /// Links an accepted connection to the target (or closes it, when the proxy is cut or full).
    private static func link(
        _ inbound: any Channel, to target: (host: String, port: Int), state: NIOLockedValueBox<State>
    ) -> EventLoopFuture<Void> {
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

    /// Partitions the link: every open connection stops carrying bytes either way (they wait in
    /// the sockets' buffers, as packets a partition drops wait for their retransmission) and new
    /// connections are accepted but reach nothing, until ``resume()``.
    public func stall() async {
        let open = state.withLockedValue { state in
            state.stalled = true
            return state.open
        }
        for channel in open where channel.isActive { try? await channel.setOption(.autoRead, value: false).get() }
    }

    /// Ends a ``stall()``: the open connections carry on where they stopped; the connections
    /// made meanwhile reach the server now.
    public func resume() async {
        let (open, held) = state.withLockedValue { state in
            state.stalled = false
            defer { state.held = [] }
            return (state.open, state.held)
        }
        for channel in open where channel.isActive {
            try? await channel.setOption(.autoRead, value: true).get()
            channel.read()
        }
        for inbound in held where inbound.isActive {
            let target = self.target
            let state = self.state
            try? await inbound.eventLoop.flatSubmit { Self.link(inbound, to: target, state: state) }.get()
        }
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
            return (state.listener, state.open + state.held)
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
