public import Domain
import EventStore
public import Foundation

/// A refund asked of the provider and not yet concluded, of a booking's payment, of a bundle's
/// purchase or of a subscription's duplicate payment: once `vence` passes, the reconciliation
/// timer asks the provider where it stands (its notice may never have reached us).
public struct ReembolsoPendenteView: Codable, Sendable, Equatable {
    /// The booking payment's id; for a purchase, its provider reference (`pacote:<compraId>`,
    /// ``CompraDePacote/compra(daReferencia:)``); for a subscription's duplicate payment given
    /// back, the holder's (`assinatura:<titular>`, ``Assinatura/titular(daReferencia:)``).
    public let pagamentoId: String
    public let reembolsoId: String
    public let cobrancaId: String
    public let valor: Money
    public let solicitadoEm: Date
    public let vence: Date

    /// Its key in ``PagamentosReadModel/reembolsosPendentes``.
    public var chave: String { PagamentosReadModel.chave(pagamentoId, reembolsoId) }
}

public enum PagamentosReadModel {
    public static let reembolsosPendentes = "pagamentos_reembolsos_pendentes"

    /// How long after a refund is asked its notice is waited for before the provider is asked:
    /// the sandbox pays out in 0.3 s and its notice arrives at once unless our webhook fails.
    public static let espera: TimeInterval = 15

    /// `pagamentos_reembolsos_pendentes`: the refunds of booking payments, of bundle purchases
    /// and of subscriptions' duplicate payments asked of the provider (a charge id, money to pay
    /// out) and not concluded, in group `pendente` ordered by when the provider is due to be
    /// asked (key `<pagamentoId>|<reembolsoId>`). Nobody reads it back after a request.
    public static let projection = Projection(
        name: "pagamentos", collections: [reembolsosPendentes],
        types: [
            Pagamento.Catalogo.reembolsoSolicitado.type, Pagamento.Catalogo.reembolsoConcluido.type, CompraDePacote.Catalogo.reembolsada.type,
            CompraDePacote.Catalogo.reembolsoConcluido.type, Assinatura.Catalogo.duplicadoDevolvido.type,
            Assinatura.Catalogo.devolucaoConcluida.type,
        ], esperada: false
    ) { recorded, batch in
        if let assinatura = try Assinatura.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) {
            switch assinatura {
            case .duplicadoDevolvido(let e):
                guard e.valorCentavos > 0 else { return }
                let vence = e.em.addingTimeInterval(espera)
                let view = ReembolsoPendenteView(
                    pagamentoId: Assinatura.referencia(titular: e.titular), reembolsoId: e.reembolsoId.lowercasedString, cobrancaId: e.cobrancaId,
                    valor: Money(centavos: e.valorCentavos), solicitadoEm: e.em, vence: vence)
                try batch.put(view, reembolsosPendentes, view.chave, grupo: "pendente", ordem: ReservasReadModel.ordem(vence))
            case .devolucaoConcluida(let e):
                batch.delete(reembolsosPendentes, chave(Assinatura.referencia(titular: e.titular), e.reembolsoId.lowercasedString))
            default:
                return
            }
            return
        }
        if let compra = try CompraDePacote.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) {
            switch compra {
            case .reembolsada(let e):
                guard e.valor > .zero else { return }
                let vence = e.em.addingTimeInterval(espera)
                let view = ReembolsoPendenteView(
                    pagamentoId: CompraDePacote.referencia(e.compraId), reembolsoId: e.reembolsoId.lowercasedString, cobrancaId: e.cobrancaId,
                    valor: e.valor, solicitadoEm: e.em, vence: vence)
                try batch.put(view, reembolsosPendentes, view.chave, grupo: "pendente", ordem: ReservasReadModel.ordem(vence))
            case .reembolsoConcluido(let e):
                batch.delete(reembolsosPendentes, chave(CompraDePacote.referencia(e.compraId), e.reembolsoId.lowercasedString))
            default:
                return
            }
            return
        }
        guard let event = try Pagamento.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) else { return }
        switch event {
        case .reembolsoSolicitado(let e):
            // Without a charge nothing was asked of the provider, so there is nothing to ask.
            guard let cobrancaId = e.cobrancaId else { return }
            let vence = e.em.addingTimeInterval(espera)
            let view = ReembolsoPendenteView(
                pagamentoId: e.pagamentoId.description, reembolsoId: e.reembolsoId.lowercasedString, cobrancaId: cobrancaId, valor: e.valor,
                solicitadoEm: e.em, vence: vence)
            try batch.put(view, reembolsosPendentes, view.chave, grupo: "pendente", ordem: ReservasReadModel.ordem(vence))
        case .reembolsoConcluido(let e):
            batch.delete(reembolsosPendentes, chave(e.pagamentoId.description, e.reembolsoId.lowercasedString))
        default:
            return
        }
    }

    /// `reembolsoId` in lower case, as the view keeps it.
    public static func chave(_ pagamentoId: String, _ reembolsoId: String) -> String { "\(pagamentoId)|\(reembolsoId)" }
}
