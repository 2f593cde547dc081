public import Domain
public import EventStore

/// The analytics queries behind the admin routes `/api/analytics/...`, answered from the
/// analytics read model (definitions on `AnalyticsModel`). Hours are decimal hours, rates
/// fractions in 0…1 (absent when nothing was there to divide by), money integer centavos.
public final class AnalyticsService: Sendable {
    let store: any ReadModelStore
    /// "This month" of the memberships' figures.
    let clock: any WallClock

    public init(store: any ReadModelStore, clock: any WallClock = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    /// The longest period a query by dates accepts.
    public static let diasMaximos = 366
    public static let limiteMaximo = 100
}
