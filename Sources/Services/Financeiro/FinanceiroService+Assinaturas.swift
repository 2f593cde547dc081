import Domain
import EventStore
import Foundation
import Projections

extension FinanceiroService {
    /// Invoices a subscription's paid cycle (`CobrancaDeCicloConfirmada`) in the plan's unit's
    /// book: the cycle's value, lines and period come from its `CicloIniciado`, the method from
    /// the paid charge (`manual` when an operator recorded the payment). A network-wide plan's
    /// cycles are invoiced by the network's first unit (the head office: the unit registered
    /// first, which never changes); see ADR 0009.
    func faturarCiclo(_ event: RecordedEvent) async throws -> [StreamWrite] {
        guard case .cobrancaConfirmada(let pago)? = try Assinatura.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder)
        else { return [] }
        var iniciada: Assinatura.Iniciada?
        var ciclo: Assinatura.Ciclo?
        var emissao: Assinatura.Emissao?
        for recorded in try await store.readStream(StreamNames.assinatura(pago.titular)) {
            switch try Assinatura.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) {
            case .iniciada(let e) where e.assinaturaId == pago.assinaturaId: iniciada = e
            case .cicloIniciado(let e) where e.assinaturaId == pago.assinaturaId && e.ciclo.numero == pago.ciclo: ciclo = e.ciclo
            case .cobrancaEmitida(let e) where e.assinaturaId == pago.assinaturaId && e.emissao.cobranca.cobrancaId == pago.cobrancaId:
                emissao = e.emissao
            default: break
            }
        }
        guard let iniciada, let ciclo else {
            throw ReacaoImpossivel(evento: event.eventId, tipo: event.type, motivo: "o ciclo \(pago.ciclo) da assinatura não foi encontrado")
        }
        guard ciclo.valorCentavos > 0 else { return [] }  // nothing to charge: nothing to invoice
        let unidadeId = try await unidadeQueFatura(iniciada.unidadeId, causa: event)
        let unidade = try await self.unidade(unidadeId, causa: event)
        let now = clock.now
        let command = Fatura.Command.faturarCiclo(
            Fatura.CicloPago(
                assinaturaId: pago.assinaturaId, titular: pago.titular, unidadeId: unidadeId, ciclo: pago.ciclo, plano: ciclo.plano,
                inicio: ciclo.inicio, fim: ciclo.fim, metodo: emissao?.cobranca.metodo.rawValue ?? Self.metodoManual,
                itens: Self.itens(ciclo), valor: Money(centavos: ciclo.valorCentavos), pagoEm: pago.em),
            faturaId: Fatura.ID(Self.id(causa: event.eventId, "fatura")), lancamentoId: Self.id(causa: event.eventId, "lancamento"),
            aliquotaISSBP: unidade.aliquotaISSBP, fuso: unidade.fuso, em: min(pago.em, now))
        return try await decidir(command, unidade: unidadeId, causa: event, em: now)
    }

    /// How an invoice names a payment an operator recorded.
    static let metodoManual = "manual"

    /// The cycle's value in lines: the fee (in proportion when the cycle is partial), the
    /// setup fee, upgrades' differences from the cycle before.
    static func itens(_ ciclo: Assinatura.Ciclo) -> [Reserva.LinhaDePreco] {
        let mensalidade = ciclo.valorCentavos - ciclo.adesaoCentavos - ciclo.trocasCentavos
        let periodo = ciclo.termos.periodicidade == .anual ? "Anuidade" : "Mensalidade"
        let proporcional = ciclo.proporcaoBP < 10_000 ? " (proporcional: \(Razao.percentual(ciclo.proporcaoBP)) do período)" : ""
        return [
            Reserva.LinhaDePreco(
                codigo: "mensalidade", descricao: "\(periodo) do plano \(ciclo.plano.nome)\(proporcional)", valor: Money(centavos: mensalidade)),
            Reserva.LinhaDePreco(codigo: "adesao", descricao: "Taxa de adesão", valor: Money(centavos: ciclo.adesaoCentavos)),
            Reserva.LinhaDePreco(
                codigo: "troca", descricao: "Diferença da troca de plano no ciclo anterior", valor: Money(centavos: ciclo.trocasCentavos)),
        ].filter { $0.valor != .zero }
    }

    /// The unit a plan or bundle is sold at, or for a network-wide one the unit registered first.
    func unidadeQueFatura(_ unidade: UUID?, causa event: RecordedEvent) async throws -> Unidade.ID {
        if let unidade { return Unidade.ID(unidade) }
        guard let id = try await sede() else {
            throw ReacaoImpossivel(evento: event.eventId, tipo: event.type, motivo: "não há unidade para faturar um plano ou pacote da rede")
        }
        return Unidade.ID(id)
    }
}

extension FinanceiroService {
    /// Invoices a bundle's paid purchase (`CompraDePacotePaga`) in the bundle's unit's book (a
    /// network-wide bundle's in the head office's, as a network-wide plan's): its price, the
    /// method it was paid with, the bundle as it was bought.
    func faturarPacote(_ event: RecordedEvent) async throws -> [StreamWrite] {
        guard case .paga(let paga)? = try CompraDePacote.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder) else {
            return []
        }
        var solicitada: CompraDePacote.Solicitada?
        for recorded in try await store.readStream(StreamNames.compra(paga.compraId)) {
            if case .solicitada(let e)? = try CompraDePacote.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) {
                solicitada = e
            }
        }
        guard let solicitada else {
            throw ReacaoImpossivel(evento: event.eventId, tipo: event.type, motivo: "a compra \(paga.compraId) não foi encontrada")
        }
        let unidadeId = try await unidadeQueFatura(solicitada.oferta.unidadeId, causa: event)
        let unidade = try await self.unidade(unidadeId, causa: event)
        let now = clock.now
        let command = Fatura.Command.faturarPacote(
            Fatura.PacotePago(
                compraId: paga.compraId, titular: paga.titular, unidadeId: unidadeId, pacoteId: solicitada.pacoteId, pacote: solicitada.oferta,
                metodo: solicitada.metodo.rawValue, valor: Money(centavos: solicitada.oferta.precoCentavos), pagoEm: paga.em),
            faturaId: Fatura.ID(Self.id(causa: event.eventId, "fatura")), lancamentoId: Self.id(causa: event.eventId, "lancamento"),
            aliquotaISSBP: unidade.aliquotaISSBP, fuso: unidade.fuso, em: min(paga.em, now))
        return try await decidir(command, unidade: unidadeId, causa: event, em: now)
    }

    /// Credits a bundle's refund (`CompraDePacoteReembolsada`) against its invoice, in the book
    /// that invoiced it, when the operator decided it (the provider pays it back after). A
    /// refund of nothing (credits taken back, no money) has no note.
    func creditarPacote(_ event: RecordedEvent) async throws -> [StreamWrite] {
        guard case .reembolsada(let reembolso)? = try CompraDePacote.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder)
        else { return [] }
        guard reembolso.valor > .zero else { return [] }
        var oferta: Pacote.Oferta?
        for recorded in try await store.readStream(StreamNames.compra(reembolso.compraId)) {
            if case .solicitada(let e)? = try CompraDePacote.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) {
                oferta = e.oferta
            }
        }
        guard let oferta else {
            throw ReacaoImpossivel(evento: event.eventId, tipo: event.type, motivo: "a compra \(reembolso.compraId) não foi encontrada")
        }
        return try await creditar(
            Fatura.Reembolso(
                reembolsoId: reembolso.reembolsoId, pagamentoId: reembolso.compraId,
                unidadeId: try await unidadeQueFatura(oferta.unidadeId, causa: event), valor: reembolso.valor, reembolsadoEm: reembolso.em),
            causa: event)
    }
}
