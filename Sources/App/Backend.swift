public import Domain
public import EventStore
public import Foundation
public import Logging
public import Messaging
public import Projections
public import Services
import Synchronization

/// One process's business: the services it hosts, the read models it runs or follows, and
/// (``reactors(for:)``, ``temporizadores(for:)``) its reactions and timers. What the routes
/// talk to; built by the composition root of each run mode (`coworkflow serve`).
public struct Backend: Sendable {
    public let store: any EventStore
    /// The broker connection this process depends on (nil: it uses none, so `/saude` does
    /// not report one).
    public let broker: BusHealth?
    public let usuarios: UsuariosService
    public let espacos: EspacosService
    public let precos: PrecosService
    public let reservas: ReservasService
    /// Payments, check-in, notifications, finance, analytics.
    public let negocio: Negocio
    /// The projections this process runs (all of them in all-in-one mode). A write request
    /// answers once they have caught up with it, so a client reads its own writes.
    public let projections: [ProjectionRunner]
    /// Read models another process keeps (the distributed gateway): a write answers once their
    /// checkpoints in the store have reached it.
    public let followed: [Projection]
    /// The subscriptions whose lag `/saude` and `/metrics` report (checkpoint names).
    public let subscriptions: [String]
    /// Watches the followed checkpoints for every waiting request at once.
    let watcher: CheckpointWatcher?

    public init(
        store: any EventStore, broker: BusHealth?, usuarios: UsuariosService, espacos: EspacosService, precos: PrecosService,
        reservas: ReservasService, negocio: Negocio, projections: [ProjectionRunner], followed: [Projection] = [],
        subscriptions: [String]? = nil
    ) {
        self.store = store
        self.broker = broker
        self.usuarios = usuarios
        self.espacos = espacos
        self.precos = precos
        self.reservas = reservas
        self.negocio = negocio
        self.projections = projections
        self.followed = followed
        self.subscriptions = subscriptions ?? (projections.map(\.projection) + followed).map(\.checkpoint)
        watcher = followed.isEmpty ? nil : CheckpointWatcher(store: store, checkpoints: followed.map(\.checkpoint))
        _ = BusinessMetrics.installed
    }

    /// Everything in one process over `store`: every service and every projection.
    public static func allInOne(
        store: any EventStore, bus: any EventBus, usuarios: UsuariosService, clock: any WallClock,
        prazoDePagamento: TimeInterval = 15 * 60, integracoes: Integracoes, gathering: ProjectionRunner.Gathering? = .underLoad,
        logger: Logger
    ) -> Backend {
        services(store: store, usuarios: usuarios, clock: clock, prazoDePagamento: prazoDePagamento) { espacos, precos, reservas in
            Backend(
                store: store, broker: bus.health, usuarios: usuarios, espacos: espacos, precos: precos, reservas: reservas,
                negocio: Negocio.make(store: store, clock: clock, usuarios: usuarios, integracoes: integracoes, logger: logger),
                projections: ReadModels.all.map { ProjectionRunner($0, store: store, gathering: gathering, logger: logger) })
        }
    }

    /// One deployable of the distributed mode over PostgreSQL: the services it hosts answer
    /// from the store; the read models are kept by `--service projections` (when `runs` is
    /// empty) and followed through their checkpoints, or run here.
    public static func distributed(
        store: any EventStore, broker: BusHealth?, usuarios: UsuariosService, clock: any WallClock,
        runs projections: [Projection], follows followed: [Projection], relay: String?, integracoes: Integracoes,
        gathering: ProjectionRunner.Gathering? = .underLoad, logger: Logger
    ) -> Backend {
        services(store: store, usuarios: usuarios, clock: clock, prazoDePagamento: 15 * 60) { espacos, precos, reservas in
            Backend(
                store: store, broker: broker, usuarios: usuarios, espacos: espacos, precos: precos, reservas: reservas,
                negocio: Negocio.make(store: store, clock: clock, usuarios: usuarios, integracoes: integracoes, logger: logger),
                projections: projections.map { ProjectionRunner($0, store: store, gathering: gathering, logger: logger) }, followed: followed,
                subscriptions: (projections + followed).map(\.checkpoint) + (relay.map { [$0] } ?? []))
        }
    }

    private static func services(
        store: any EventStore, usuarios: UsuariosService, clock: any WallClock, prazoDePagamento: TimeInterval,
        _ make: (EspacosService, PrecosService, ReservasService) -> Backend
    ) -> Backend {
        let precos = PrecosService(store: store, clock: clock)
        return make(
            EspacosService(store: store, clock: clock), precos,
            ReservasService(store: store, clock: clock, precos: precos, prazoDePagamento: prazoDePagamento))
    }

    /// Waits (up to 2 s) until the read models this process serves have applied `position`
    /// (a write's own last event), or, when nil, every event written so far: its own runners,
    /// or the checkpoints of the runners it follows. With `types` (the stored types the write
    /// appended, each with its last position), only the read models that project one of them,
    /// each up to its own types' last event: the others have nothing of it to show, and commit
    /// their checkpoints lazily (``ProjectionRunner``).
    public func settle(upTo position: GlobalPosition? = nil, types: [String: GlobalPosition]? = nil) async {
        guard !projections.isEmpty || !followed.isEmpty else { return }
        let target: GlobalPosition
        if let position {
            target = position
        } else {
            guard let head = try? await store.headPosition() else { return }
            target = head
        }
        /// How far `projection` must be; nil when the write holds nothing it projects.
        func goal(_ projection: Projection) -> GlobalPosition? {
            guard projection.esperada else { return nil }
            guard let types else { return target }
            return types.lazy.filter { projection.reads($0.key) }.map(\.value).max()
        }
        for runner in projections {
            if let goal = goal(runner.projection) { _ = await runner.waitUntil(goal, timeout: .seconds(2)) }
        }
        if let watcher {
            let goals = followed.indices.compactMap { index in goal(followed[index]).map { (index, $0) } }
            if !goals.isEmpty { _ = await watcher.waitUntil(goals, timeout: .seconds(2)) }
        }
    }

    /// How far each reported subscription is behind the head of the store: two queries, the
    /// head and every checkpoint at once. `/saude` asks this of a busy process, whose
    /// connections its runners keep in use: one query per subscription (sixteen in the
    /// projections process) queued behind them each time, and the health check took seconds.
    public func lags() async throws -> (head: GlobalPosition, lags: [(name: String, position: GlobalPosition, lag: Int64)]) {
        let head = try await store.headPosition()
        let positions = try await store.checkpoints(subscriptions)
        let lags = zip(subscriptions, positions).map { name, position in
            (name: name, position: position, lag: max(0, head.sequence - position.sequence))
        }
        return (head, lags)
    }
}

/// Checkpoints kept by another process, read together (one query) by one loop for all the
/// requests waiting on them (every 2 ms while any waits; idle otherwise), so a burst of writes
/// costs one poll, not one per request; a poll that moves a checkpoint wakes only the requests
/// it satisfies (``WatchedValue``).
final class CheckpointWatcher: Sendable {
    let store: any EventStore
    let checkpoints: [String]
    private let positions: WatchedValue<[GlobalPosition]>
    private let polling = Mutex(false)

    init(store: any EventStore, checkpoints: [String]) {
        self.store = store
        self.checkpoints = checkpoints
        positions = WatchedValue(Array(repeating: .start, count: checkpoints.count))
    }

    /// True once every checkpoint named (by its index) in `goals` is at or past its position;
    /// false after `timeout`.
    func waitUntil(_ goals: [(index: Int, position: GlobalPosition)], timeout: Duration) async -> Bool {
        await positions.wait(
            until: { positions in goals.allSatisfy { positions[$0.index] >= $0.position } }, timeout: timeout,
            registered: {
                let start = polling.withLock { polling in
                    defer { polling = true }
                    return !polling
                }
                if start { Task { await self.poll() } }
            })
    }

    private func poll() async {
        while true {
            if let read = try? await store.checkpoints(checkpoints) {
                positions.update { positions in
                    for index in read.indices where read[index] > positions[index] { positions[index] = read[index] }
                }
            }
            // A waiter registers before it looks at the flag: one that comes after this check
            // finds the flag down and starts the next poll.
            let keepGoing = polling.withLock { polling in
                if positions.waiting == 0 { polling = false }
                return polling
            }
            guard keepGoing else { return }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }
}
