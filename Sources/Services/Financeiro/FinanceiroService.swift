public import Domain
import EventStore
public import Foundation
import Messaging

/// The financeiro service: invoices every confirmed payment and every paid subscription cycle
/// and issues a credit note for every refund, each with its ledger entry, in the unit's invoice book (`faturas-<unidade>`, see
/// ``Fatura``); answers the admin's invoice, revenue and ledger queries from the `financeiro`
/// read model.
///
/// It only reacts to events (``reagir(_:)``): the bus commits the returned writes with the
/// event's inbox row and acknowledges after. The writes carry the exact version of the book
/// they were decided on, so a concurrent decision makes the bus redeliver and this decides
/// again on fresh state; numbers stay gapless. Ids are derived from the cause's event id, so a
/// decision taken twice for the same cause writes the same event ids (the store ignores a
/// repeated append) and, on a book that already has it, nothing at all.
public final class FinanceiroService: Sendable {
    let store: any ServiceStore
    let clock: any WallClock
    /// Folded invoice books: a book grows with every invoice, and each reaction would otherwise
    /// fold the unit's whole history again. (No personal data in it: ids and amounts.)
    let livros = StateCache(capacity: 1_000)
    /// A member's name for the spreadsheet exports (nil: unknown or erased).
    let nomeDoMembro: @Sendable (String) async throws -> String?
    /// The network's head office: the unit registered first (nil: no unit yet). It invoices
    /// the cycles of network-wide plans.
    let sede: @Sendable () async throws -> UUID?

    public init(
        store: any ServiceStore, clock: any WallClock, nomeDoMembro: @escaping @Sendable (String) async throws -> String? = { _ in nil },
        sede: @escaping @Sendable () async throws -> UUID? = { nil }
    ) {
        self.store = store
        self.clock = clock
        self.nomeDoMembro = nomeDoMembro
        self.sede = sede
    }

    /// How an export is written.
    public enum DialetoCSV: String, Sendable, CaseIterable {
        /// RFC 4180 for programs: `,` between fields, amounts with a dot, instants in UTC, ids.
        case rfc4180
        /// What Excel (and LibreOffice) in Portuguese opens as is: a UTF-8 BOM, `;` between
        /// fields, decimal commas, local dates and times in the unit's time zone, and the
        /// names of the unit, the space and the member before the ids.
        case excel
    }

    /// The bus consumer's name (queue `coworkflow.financeiro`, inbox consumer).
    public static let consumidor = "financeiro"
    public static let bindings = [
        Topology.routingKey(Pagamento.Catalogo.confirmado), Topology.routingKey(Pagamento.Catalogo.reembolsoConcluido),
        Topology.routingKey(Assinatura.Catalogo.cobrancaConfirmada), Topology.routingKey(CompraDePacote.Catalogo.paga),
        Topology.routingKey(CompraDePacote.Catalogo.reembolsada),
    ]
    static let ator = "system:financeiro"
    static let porPagina = 50
    /// The longest period a report or export covers, in days (a leap year).
    static let diasMaximos = 366

    func livro(_ unidade: Unidade.ID) -> AggregateStore<Fatura.Command, Fatura.State, Fatura.Event, Fatura.Failure> {
        AggregateStore(store: store, decider: Fatura.decider(unidade: unidade), cache: livros) {
            try Fatura.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    var unidades: AggregateStore<Unidade.Command, Unidade.State, Unidade.Event, Unidade.Failure> {
        AggregateStore(store: store, decider: Unidade.decider) { try Unidade.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    var espacos: AggregateStore<Espaco.Command, Espaco.State, Espaco.Event, Espaco.Failure> {
        AggregateStore(store: store, decider: Espaco.decider) { try Espaco.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }
}
