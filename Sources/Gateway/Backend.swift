public import EventStore
public import Foundation
public import Logging
public import Domain
public import Messaging
public import Projections
public import Services

/// What the routes talk to.
public struct Backend: Sendable {
    public let store: any EventStore
    /// The broker connection this process depends on (nil: it uses none, so `/saude` does
    /// not report one).
    public let broker: BusHealth?
    public let usuarios: UsuariosService
    public let espacos: EspacosService
    public let precos: PrecosService
    public let reservas: ReservasService
    /// The projections this process runs (all of them in all-in-one mode). A write request
    /// answers once they have caught up with it, so a client reads its own writes.
    public let projections: [ProjectionRunner]
    /// Read models another process keeps (the distributed gateway): a write answers once their
    /// checkpoints in the store have reached it.
    public let followed: [Projection]
    /// The subscriptions whose lag `/saude` and `/metrics` report (checkpoint names).
    public let subscriptions: [String]

    public init(
        store: any EventStore, broker: BusHealth?, usuarios: UsuariosService, espacos: EspacosService, precos: PrecosService,
        reservas: ReservasService, projections: [ProjectionRunner], followed: [Projection] = [], subscriptions: [String]? = nil
    ) {
        self.store = store
        self.broker = broker
        self.usuarios = usuarios
        self.espacos = espacos
        self.precos = precos
        self.reservas = reservas
        self.projections = projections
        self.followed = followed
        self.subscriptions = subscriptions ?? (projections.map(\.projection) + followed).map(\.checkpoint)
    }

    /// Everything in one process over `store`: every service and every projection.
    public static func allInOne(
        store: any EventStore, bus: any EventBus, usuarios: UsuariosService, clock: any WallClock,
        prazoDePagamento: TimeInterval = 15 * 60, logger: Logger
    ) -> Backend {
        services(store: store, usuarios: usuarios, clock: clock, prazoDePagamento: prazoDePagamento) { espacos, precos, reservas in
            Backend(
                store: store, broker: bus.health, usuarios: usuarios, espacos: espacos, precos: precos, reservas: reservas,
                projections: ReadModels.all.map { ProjectionRunner($0, store: store, logger: logger) })
        }
    }

    /// One deployable of the distributed mode over PostgreSQL: the services it hosts answer
    /// from the store; the read models are kept by `--service projections` (when `runs` is
    /// empty) and followed through their checkpoints, or run here.
    public static func distributed(
        store: any EventStore, broker: BusHealth?, usuarios: UsuariosService, clock: any WallClock,
        runs projections: [Projection], follows followed: [Projection], relay: String?, logger: Logger
    ) -> Backend {
        services(store: store, usuarios: usuarios, clock: clock, prazoDePagamento: 15 * 60) { espacos, precos, reservas in
            Backend(
                store: store, broker: broker, usuarios: usuarios, espacos: espacos, precos: precos, reservas: reservas,
                projections: projections.map { ProjectionRunner($0, store: store, logger: logger) }, followed: followed,
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

    /// Waits (up to 2 s) until the read models this process serves have applied every event
    /// written so far: its own runners, or the checkpoints of the runners it follows.
    public func settle() async {
        guard !projections.isEmpty || !followed.isEmpty, let head = try? await store.headPosition() else { return }
        for runner in projections { _ = await runner.waitUntil(head, timeout: .seconds(2)) }
        guard !followed.isEmpty else { return }
        let deadline = ContinuousClock.now + .seconds(2)
        var pause = Duration.milliseconds(1)
        var waiting = followed.map(\.checkpoint)
        while !waiting.isEmpty, ContinuousClock.now < deadline {
            var behind: [String] = []
            for name in waiting where ((try? await store.checkpoint(name)) ?? .start) < head { behind.append(name) }
            waiting = behind
            guard !waiting.isEmpty else { return }
            guard (try? await Task.sleep(for: pause)) != nil else { return }
            pause = min(pause * 2, .milliseconds(50))
        }
    }

    /// How far each reported subscription is behind the head of the store.
    func lags() async throws -> (head: GlobalPosition, lags: [(name: String, position: GlobalPosition, lag: Int64)]) {
        let head = try await store.headPosition()
        var lags: [(String, GlobalPosition, Int64)] = []
        for name in subscriptions {
            let position = try await store.checkpoint(name)
            lags.append((name, position, max(0, head.sequence - position.sequence)))
        }
        return (head, lags)
    }
}
