import Domain
import EventStore
import Telemetry

/// The business counters (bookings by status, payments by outcome), moved by the events the
/// store commits in this process (``EventCounters``). E-mails are counted by the mailers.
enum BusinessMetrics {
    /// Installed once per process, by the first ``Backend``.
    static let installed: Void = {
        let reservas: [(EventKind, String)] = [
            (Reserva.Catalogo.solicitada, "solicitada"), (Reserva.Catalogo.confirmada, "confirmada"),
            (Reserva.Catalogo.cancelada, "cancelada"), (Reserva.Catalogo.expirada, "expirada"),
            (Reserva.Catalogo.concluida, "concluida"), (Reserva.Catalogo.remarcada, "remarcada"),
        ]
        for (kind, status) in reservas {
            EventCounters.count(kind.type, into: Telemetry.counter(Catalog.bookings, [("status", status)]))
        }
        let pagamentos: [(EventKind, String)] = [
            (Pagamento.Catalogo.iniciado, "iniciado"), (Pagamento.Catalogo.confirmado, "confirmado"),
            (Pagamento.Catalogo.recusado, "recusado"), (Pagamento.Catalogo.cancelado, "cancelado"),
            (Pagamento.Catalogo.reembolsoConcluido, "reembolsado"),
        ]
        for (kind, outcome) in pagamentos {
            EventCounters.count(kind.type, into: Telemetry.counter(Catalog.payments, [("outcome", outcome)]))
        }
    }()
}
