/// The services that react to events over the bus, each with its queue's name (`consumidor`)
/// and the routing keys it is bound to: what ``Messaging/Topology/declare(service:bindings:on:)``
/// declares. A consumer declares its own queue when it starts; the relay declares them all
/// before it publishes, so that an event appended before a consumer first started (a first
/// deployment, `coworkflow admin create` run before the services) waits in that consumer's
/// queue instead of being routed nowhere.
public enum Consumidores {
    public static let filas: [(servico: String, bindings: [String])] = [
        (ReservasService.consumidor, ReservasService.bindings),
        (PagamentosService.consumidor, PagamentosService.bindings),
        (CheckinService.consumidor, CheckinService.bindings),
        (FinanceiroService.consumidor, FinanceiroService.bindings),
        (NotificacoesService.consumidor, NotificacoesService.bindings),
    ]
}
