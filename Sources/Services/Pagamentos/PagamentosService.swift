public import Domain
import EventStore
public import Foundation
public import Logging
import Messaging
import Synchronization

/// The pagamentos service: one payment per booking (`pagamento-<reservaId>`), charged at the
/// provider when the booking is requested, settled by the provider's signed webhook.
///
/// Reactions (queue `coworkflow.pagamentos`): ReservaSolicitada → charge; ReservaExpirada or
/// ReservaCancelada → withdraw a pending charge, or refund what the cancellation gives back;
/// a subscription's CicloIniciado (with a value) or CobrancaDeCicloReapresentada → the cycle's
/// charge, recorded in the subscription's stream, whose notices the webhook records there too;
/// a cycle's payment an operator recorded → its charges at the provider withdrawn, and one paid
/// there too refunded;
/// a bundle's CompraDePacoteSolicitada → its charge, recorded in the purchase's stream, whose
/// paid notice grants the credits.
/// Provider calls happen before the effect commits and are idempotent on our ids, so a
/// redelivered event asks again and gets the same answer.
public final class PagamentosService: Sendable {
    let store: any ServiceStore
    let clock: any WallClock
    let provider: any PaymentProvider
    let segredoDoWebhook: Data
    let logger: Logger
    /// Whether the member's account was erased (LGPD): a booking made in the instant before
    /// the erasure is not charged, but declined, which releases it.
    let contas: ContasApagadas
    /// The open refunds asked about, and when each is next (``conciliarReembolsos(limite:)``).
    let conciliacao = Mutex<[String: Conciliacao]>([:])

    public static let consumidor = "pagamentos"
    public static let bindings = [
        Topology.routingKey(Reserva.Catalogo.solicitada), Topology.routingKey(Reserva.Catalogo.expirada),
        Topology.routingKey(Reserva.Catalogo.cancelada), Topology.routingKey(Assinatura.Catalogo.cicloIniciado),
        Topology.routingKey(Assinatura.Catalogo.cobrancaReapresentada), Topology.routingKey(Assinatura.Catalogo.cobrancaConfirmada),
        Topology.routingKey(CompraDePacote.Catalogo.solicitada), Topology.routingKey(CompraDePacote.Catalogo.reembolsada),
    ]
    static let service = "pagamentos"

    public init(
        store: any ServiceStore, clock: any WallClock, provider: any PaymentProvider, segredoDoWebhook: Data, logger: Logger,
        contas: ContasApagadas = .nenhuma
    ) {
        self.contas = contas
        self.store = store
        self.clock = clock
        self.provider = provider
        self.segredoDoWebhook = segredoDoWebhook
        self.logger = logger
    }

    var pagamentos: AggregateStore<Pagamento.Command, Pagamento.State, Pagamento.Event, Pagamento.Failure> {
        AggregateStore(store: store, decider: Pagamento.decider) {
            try Pagamento.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    static func stream(_ id: Pagamento.ID) -> StreamName { StreamName(category: "pagamento", id: id.description) }
}

/// Whether a member's account was erased, answered from a read made together with others
/// (``Prefetched``): the read to add, and the answer from it.
public struct ContasApagadas: Sendable {
    /// The account's read (nil: nothing to read).
    let leitura: @Sendable (String) -> StreamRead?
    let apagada: @Sendable (String, Prefetched) async throws -> Bool

    /// No account is ever erased (a service without usuarios' events: tests).
    public static let nenhuma = ContasApagadas(leitura: { _ in nil }, apagada: { _, _ in false })

    /// The accounts of `usuarios`.
    public static func de(_ usuarios: UsuariosService) -> ContasApagadas {
        ContasApagadas(leitura: { usuarios.leituraDaConta($0) }, apagada: { try await usuarios.apagada(usuario: $0, prefetched: $1) })
    }
}
