public import Foundation

/// A member's purchase of a bundle (`compra-<id>`): asked for with a payment method, charged at
/// the payment provider by pagamentos, paid or declined by the provider's notice. The credits
/// are granted in the same append that records the payment (lot id: the purchase's id).
public enum CompraDePacote {
    public typealias ID = Identifier<CompraDePacote>

    public enum Status: String, Codable, Sendable, CaseIterable {
        /// Waiting for its charge to be made or paid.
        case pendente
        case paga
        /// The card was declined.
        case recusada
        /// A PIX or boleto not paid by its charge's expiry: nothing granted, nothing owed (a
        /// payment that still arrives is honoured: the credits are granted then).
        case expirada
        /// Paid, then refunded by an operator: its credits were taken back.
        case reembolsada
    }

    /// The charge made at the provider for it.
    public struct Emissao: Codable, Sendable, Equatable {
        /// Our reference at the provider: `pacote:<compraId>`.
        public let referencia: String
        public let cobranca: Pagamento.Cobranca
        /// When a PIX or boleto stops being payable.
        public let expiraEm: Date

        public init(referencia: String, cobranca: Pagamento.Cobranca, expiraEm: Date) {
            self.referencia = referencia
            self.cobranca = cobranca
            self.expiraEm = expiraEm
        }
    }

    /// The provider's reference of a purchase's charge.
    public static func referencia(_ compra: UUID) -> String { "pacote:\(compra.lowercasedString)" }

    /// The purchase a reference names (nil: not a purchase's).
    public static func compra(daReferencia texto: String) -> UUID? {
        guard texto.hasPrefix("pacote:") else { return nil }
        return UUID(text: String(texto.dropFirst("pacote:".count)))
    }

    public struct Dados: Sendable, Equatable {
        public let compraId: UUID
        public let titular: String
        public let pacoteId: UUID
        public let oferta: Pacote.Oferta
        public let metodo: MetodoDePagamento
        public let cartaoToken: String?
        public var status: Status
        public var emissao: Emissao?
        public var lote: Carteira.Lote?
        public var motivo: String?
        public var reembolso: Reembolsada?
        /// When the provider paid the refund out (nil: not yet, or nothing to pay out).
        public var reembolsoConcluidoEm: Date?
    }

    public enum State: Sendable, Equatable {
        case inexistente
        case existente(Dados)
    }

    public enum Command: Sendable, Equatable {
        /// The same purchase again (a retried request) changes nothing.
        case solicitar(
            compraId: UUID, titular: String, pacoteId: UUID, oferta: Pacote.Oferta, metodo: MetodoDePagamento, cartaoToken: String?, em: Date)
        case registrarEmissao(Emissao, em: Date)
        /// The provider's notice that `cobrancaId` was paid: the credits are granted from `em`.
        case registrarPagamento(cobrancaId: String, em: Date)
        case registrarRecusa(cobrancaId: String, motivo: String, em: Date)
        /// The timer at the charge's expiry: a purchase still unpaid expires; otherwise nothing.
        case expirar(em: Date)
        /// An operator refunds a paid purchase: `restante` is what is left of its lot in the
        /// wallet now (taken back in the same append). `valor` nil: the price's share of what
        /// is left, rounded down (R$ 100 of 10 h with 4 h left: R$ 40); otherwise 0…price.
        /// Again: nothing (one refund per purchase).
        case reembolsar(reembolsoId: UUID, valor: Money?, restante: Int64, motivo: String, por: String, em: Date)
        /// The provider paid refund `reembolsoId` out. Again: nothing.
        case concluirReembolso(reembolsoId: UUID, em: Date)
    }

    public enum Failure: Error, Equatable, Sendable {
        case naoEncontrada
        /// The purchase's id already names another purchase.
        case jaExiste
        /// A card purchase without the card's token.
        case cartaoObrigatorio
        /// A notice about a charge this purchase never made.
        case cobrancaDesconhecida
        /// Only a paid purchase is refunded (this one is `status`).
        case naoPaga(status: Status)
        /// A refund of more than was paid, or of less than nothing.
        case valorDoReembolsoInvalido(maximo: Money)
        case motivoObrigatorio
        /// Nothing to give back: no money asked for and no credit left.
        case nadaAReembolsar
        /// A notice about a refund this purchase never asked for (or one of no money).
        case reembolsoDesconhecido
    }

    /// The price's share of `restante` of the lot's `quantidade`, rounded down.
    public static func valorProporcional(preco: Int64, restante: Int64, quantidade: Int64) -> Money {
        guard quantidade > 0, restante > 0 else { return .zero }
        let (alto, baixo) = preco.multipliedFullWidth(by: min(restante, quantidade))
        return Money(centavos: quantidade.dividingFullWidth((alto, baixo)).quotient)
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.solicitar(let id, let titular, let pacoteId, let oferta, let metodo, let token, let em), .inexistente):
                guard metodo != .cartao || !(token ?? "").isEmpty else { throw .cartaoObrigatorio }
                return [
                    .solicitada(
                        Solicitada(
                            compraId: id, titular: titular, pacoteId: pacoteId, oferta: oferta, metodo: metodo,
                            cartaoToken: metodo == .cartao ? token : nil, em: em))
                ]
            case (.solicitar(_, let titular, let pacoteId, _, let metodo, _, _), .existente(let dados)):
                guard dados.titular == titular, dados.pacoteId == pacoteId, dados.metodo == metodo else { throw .jaExiste }
                return []
            case (_, .inexistente):
                throw .naoEncontrada
            case (.registrarEmissao(let emissao, let em), .existente(let dados)):
                guard dados.emissao == nil, dados.status == .pendente else { return [] }
                return [.cobrancaEmitida(CobrancaEmitida(compraId: dados.compraId, titular: dados.titular, emissao: emissao, em: em))]
            case (.registrarPagamento(let cobrancaId, let em), .existente(let dados)):
                guard dados.emissao?.cobranca.cobrancaId == cobrancaId else { throw .cobrancaDesconhecida }
                guard dados.status != .paga else { return [] }
                let lote = dados.oferta.lote(dados.compraId, pagoEm: em)
                return [.paga(Paga(compraId: dados.compraId, titular: dados.titular, cobrancaId: cobrancaId, lote: lote, em: em))]
            case (.registrarRecusa(let cobrancaId, let motivo, let em), .existente(let dados)):
                guard dados.emissao?.cobranca.cobrancaId == cobrancaId else { throw .cobrancaDesconhecida }
                guard dados.status == .pendente else { return [] }
                return [.recusada(Recusada(compraId: dados.compraId, titular: dados.titular, cobrancaId: cobrancaId, motivo: motivo, em: em))]
            case (.expirar(let em), .existente(let dados)):
                guard dados.status == .pendente, let emissao = dados.emissao, em >= emissao.expiraEm else { return [] }
                return [.expirada(Expirada(compraId: dados.compraId, titular: dados.titular, cobrancaId: emissao.cobranca.cobrancaId, em: em))]
            case (.reembolsar(let reembolsoId, let valor, let restante, let motivo, let por, let em), .existente(let dados)):
                if dados.reembolso != nil { return [] }
                guard dados.status == .paga, let lote = dados.lote, let emissao = dados.emissao else { throw .naoPaga(status: dados.status) }
                let motivo = motivo.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !motivo.isEmpty else { throw .motivoObrigatorio }
                let preco = Money(centavos: dados.oferta.precoCentavos)
                let restante = min(max(restante, 0), lote.quantidade)
                let devolver = valor ?? valorProporcional(preco: preco.centavos, restante: restante, quantidade: lote.quantidade)
                guard devolver >= .zero, devolver <= preco else { throw .valorDoReembolsoInvalido(maximo: preco) }
                guard devolver > .zero || restante > 0 else { throw .nadaAReembolsar }
                return [
                    .reembolsada(
                        Reembolsada(
                            compraId: dados.compraId, titular: dados.titular, pacoteId: dados.pacoteId, nome: dados.oferta.nome,
                            cobrancaId: emissao.cobranca.cobrancaId,
                            reembolsoId: reembolsoId, valor: devolver, loteId: lote.loteId, medida: lote.medida, retirado: restante,
                            motivo: String(motivo.prefix(500)), por: por, em: em))
                ]
            case (.concluirReembolso(let reembolsoId, let em), .existente(let dados)):
                guard let reembolso = dados.reembolso, reembolso.reembolsoId == reembolsoId, reembolso.valor > .zero else {
                    throw .reembolsoDesconhecido
                }
                guard dados.reembolsoConcluidoEm == nil else { return [] }
                return [
                    .reembolsoConcluido(
                        ReembolsoConcluido(compraId: dados.compraId, titular: dados.titular, reembolsoId: reembolsoId, valor: reembolso.valor, em: em)
                    )
                ]
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (_, .solicitada(let e)):
                return .existente(
                    Dados(
                        compraId: e.compraId, titular: e.titular, pacoteId: e.pacoteId, oferta: e.oferta, metodo: e.metodo,
                        cartaoToken: e.cartaoToken, status: .pendente, emissao: nil, lote: nil, motivo: nil, reembolso: nil,
                        reembolsoConcluidoEm: nil))
            case (.existente(var dados), .cobrancaEmitida(let e)):
                dados.emissao = e.emissao
                return .existente(dados)
            case (.existente(var dados), .paga(let e)):
                dados.status = .paga
                dados.lote = e.lote
                dados.motivo = nil
                return .existente(dados)
            case (.existente(var dados), .recusada(let e)):
                dados.status = .recusada
                dados.motivo = e.motivo
                return .existente(dados)
            case (.existente(var dados), .expirada):
                dados.status = .expirada
                return .existente(dados)
            case (.existente(var dados), .reembolsada(let e)):
                dados.status = .reembolsada
                dados.reembolso = e
                return .existente(dados)
            case (.existente(var dados), .reembolsoConcluido(let e)):
                dados.reembolsoConcluidoEm = e.em
                return .existente(dados)
            case (.inexistente, _):
                return state
            }
        })
}
