public import Foundation

/// A holder's credits (`creditos-<titular>`): lots granted by a plan, a bundle or an operator,
/// spent by bookings, given back when a booking ends early, expired when their time is up.
///
/// No lot's balance is ever negative. A booking spends credits in the same append as its slot,
/// with the version of this stream it read, so two bookings can never spend the same credit:
/// the second one's append conflicts, and it decides again on what is left.
public enum Carteira {
    /// What a lot counts.
    public enum Medida: String, Codable, Sendable, CaseIterable {
        /// Minutes of booking (shown as hours).
        case minutos
        /// An amount in centavos, spent on a booking's price.
        case centavos
    }

    /// Where a lot came from.
    public enum Origem: String, Codable, Sendable, CaseIterable {
        case plano, pacote, ajuste
    }

    /// The most one lot or one adjustment may hold: 10,000 hours, or R$ 1,000,000.00.
    public static func maximo(_ medida: Medida) -> Int64 {
        switch medida {
        case .minutos: 600_000
        case .centavos: 100_000_000
        }
    }

    /// Credits granted together, under the same terms.
    public struct Lote: Codable, Sendable, Equatable {
        public let loteId: UUID
        public let medida: Medida
        public let quantidade: Int64
        /// The space types it may be spent on; empty: any.
        public let tipos: [Espaco.Tipo]
        /// The unit it may be spent at; nil: any unit of the network.
        public let unidadeId: UUID?
        /// Spendable before this instant; nil: it never expires.
        public let validoAte: Date?
        public let origem: Origem
        /// In Portuguese, for the member's statement ("Plano Flex, ciclo de dezembro").
        public let descricao: String

        public init(
            loteId: UUID, medida: Medida, quantidade: Int64, tipos: [Espaco.Tipo] = [], unidadeId: UUID? = nil, validoAte: Date? = nil,
            origem: Origem, descricao: String
        ) {
            self.loteId = loteId
            self.medida = medida
            self.quantidade = quantidade
            self.tipos = tipos
            self.unidadeId = unidadeId
            self.validoAte = validoAte
            self.origem = origem
            self.descricao = descricao
        }

        /// Whether it may pay for a booking of a `tipo` space at unit `unidade`, at `em`.
        public func serve(tipo: Espaco.Tipo, unidade: UUID, em: Date) -> Bool {
            (tipos.isEmpty || tipos.contains(tipo)) && (unidadeId == nil || unidadeId == unidade) && !vencido(em: em)
        }

        public func vencido(em: Date) -> Bool { validoAte.map { $0 <= em } ?? false }
    }

    /// An amount of one lot: spent, given back, kept under a cancellation policy, expired or
    /// withdrawn.
    public struct Parte: Codable, Sendable, Equatable {
        public let loteId: UUID
        public let medida: Medida
        public let quantidade: Int64

        public init(loteId: UUID, medida: Medida, quantidade: Int64) {
            self.loteId = loteId
            self.medida = medida
            self.quantidade = quantidade
        }
    }

    /// A lot and what is left of it.
    public struct Saldo: Sendable, Equatable {
        public let lote: Lote
        public var restante: Int64
        public let concedidoEm: Date
        /// What it lost when its time was up (a roll-over counts it as left at the end).
        public var expirado: Int64 = 0
        /// Taken back whole (its bundle was refunded): what a booking gives back to it later
        /// is lost at once.
        public var encerrado = false
    }

    /// A wallet as its stream knows it (an empty wallet has no events).
    public struct State: Sendable, Equatable {
        /// In the order they were granted.
        public var saldos: [Saldo] = []
        /// What each booking holding credits spent and has not had back.
        public var consumos: [UUID: [Parte]] = [:]
        /// A company's pool: what each person spent in each month (`pessoa|AAAA-MM`), net of
        /// what came back, and whose month each booking counted in.
        public var usoNoMes: [String: (minutos: Int64, centavos: Int64)] = [:]
        public var usoDaReserva: [UUID: String] = [:]

        public static func == (a: State, b: State) -> Bool {
            a.saldos == b.saldos && a.consumos == b.consumos && a.usoDaReserva == b.usoDaReserva
                && a.usoNoMes.mapValues { [$0.minutos, $0.centavos] } == b.usoNoMes.mapValues { [$0.minutos, $0.centavos] }
        }

        /// What `pessoa` may still spend of `medida` in `mes` under `limite` (nil: no cap).
        public func restanteNoLimite(_ medida: Medida, pessoa: String, mes: String, limite: Limite?) -> Int64? {
            guard let teto = medida == .minutos ? limite?.minutosPorMes : limite?.centavosPorMes else { return nil }
            let uso = usoNoMes["\(pessoa)|\(mes)"] ?? (0, 0)
            return max(0, teto - (medida == .minutos ? uso.minutos : uso.centavos))
        }

        public init() {}

        /// The balance of `medida` across lots that have not expired at `em`.
        public func saldo(_ medida: Medida, em: Date) -> Int64 {
            saldos.filter { $0.lote.medida == medida && !$0.lote.vencido(em: em) }.reduce(0) { $0 + $1.restante }
        }

        /// What a booking of a `tipo` space at `unidade` could spend of `medida` at `em`.
        /// `comPlano`: whether lots a plan granted count (not while the subscription is suspended).
        public func disponivel(_ medida: Medida, tipo: Espaco.Tipo, unidade: UUID, em: Date, comPlano: Bool = true) -> Int64 {
            saldos.filter {
                $0.lote.medida == medida && $0.lote.serve(tipo: tipo, unidade: unidade, em: em) && (comPlano || $0.lote.origem != .plano)
            }.reduce(0) { $0 + $1.restante }
        }

        /// The lots `quantidade` of `medida` is taken from, those that expire first first (a lot
        /// that never expires last), then in the order granted; nil when they do not hold enough.
        func tomar(_ quantidade: Int64, _ medida: Medida, onde serve: (Lote) -> Bool) -> [Parte]? {
            guard quantidade > 0 else { return [] }
            let candidatos = saldos.enumerated()
                .filter { $0.element.lote.medida == medida && $0.element.restante > 0 && serve($0.element.lote) }
                .sorted { a, b in
                    switch (a.element.lote.validoAte, b.element.lote.validoAte) {
                    case (let x?, let y?) where x != y: x < y
                    case (.some, .none): true
                    case (.none, .some): false
                    default: a.offset < b.offset
                    }
                }
            var falta = quantidade
            var partes: [Parte] = []
            for (_, saldo) in candidatos where falta > 0 {
                let parte = min(saldo.restante, falta)
                partes.append(Parte(loteId: saldo.lote.loteId, medida: medida, quantidade: parte))
                falta -= parte
            }
            return falta == 0 ? partes : nil
        }

        func lote(_ id: UUID) -> Lote? { saldos.first { $0.lote.loteId == id }?.lote }

        /// What is left of lot `id` (0 for an unknown lot).
        public func restante(_ id: UUID) -> Int64 { saldos.first { $0.lote.loteId == id }?.restante ?? 0 }
    }

    /// A person's monthly cap on a company's pool (nil: no cap of that measure).
    public struct Limite: Codable, Sendable, Equatable {
        public let minutosPorMes: Int64?
        public let centavosPorMes: Int64?

        public init(minutosPorMes: Int64?, centavosPorMes: Int64?) {
            self.minutosPorMes = minutosPorMes
            self.centavosPorMes = centavosPorMes
        }
    }

    /// Who spends a company's pool, in which month, under which cap.
    public struct Uso: Sendable, Equatable {
        public let pessoa: String
        public let mes: String
        public let limite: Limite?

        public init(pessoa: String, mes: String, limite: Limite?) {
            self.pessoa = pessoa
            self.mes = mes
            self.limite = limite
        }
    }

    public enum Command: Sendable, Equatable {
        /// A plan's cycle or a bought bundle grants `lote`; the same lot again changes nothing.
        case conceder(titular: String, lote: Lote, por: String, em: Date)
        /// A booking of a `tipo` space at `unidade` spends `minutos` and `centavos`; again for
        /// the same booking changes nothing.
        /// `comPlano` false: the lots a plan granted are left alone (its subscription is suspended).
        /// `uso`: a company's pool spent by one of its people, within their monthly cap.
        case consumir(
            titular: String, reserva: UUID, minutos: Int64, centavos: Int64, tipo: Espaco.Tipo, unidade: UUID, em: Date, comPlano: Bool = true,
            uso: Uso? = nil)
        /// The booking ended before it was used: `devolverBP` (0…10,000) of what it spent
        /// comes back, the rest is kept (its cancellation policy, or its no-show terms when
        /// `noShow`).
        case restituir(titular: String, reserva: UUID, devolverBP: Int64, noShow: Bool = false, em: Date)
        /// Every lot whose time is up loses what is left of it.
        case expirar(titular: String, em: Date)
        /// An operator adds `lote` (origin ``Origem/ajuste``), with a reason the audit trail keeps;
        /// the same lot again changes nothing.
        case ajustar(titular: String, lote: Lote, motivo: String, por: String, em: Date)
        /// A new cycle takes up to `lote.quantidade` of what lot `de` has left (or lost when its
        /// time was up) into `lote`; the rest of `de` expires. The same lot again changes nothing.
        case transportar(titular: String, de: UUID, lote: Lote, por: String, em: Date)
        /// An operator takes `quantidade` of `medida` away from the lots that have not expired
        /// (those that expire first first), with a reason.
        case retirar(titular: String, medida: Medida, quantidade: Int64, motivo: String, por: String, em: Date)
        /// A booking that spent a company's pool moved to the month `mes` (`AAAA-MM`): its use
        /// counts there from now on, if its person's cap there (`limite`, nil: none) leaves room
        /// for it; nothing when it spent none of this pool, or already counts in `mes`.
        case remarcarUso(titular: String, reserva: UUID, mes: String, limite: Limite?, em: Date)
        /// Lot `lote` is taken back (its bundle was refunded): what is left of it goes now, and
        /// what bookings holding it give back later is lost. Again: nothing.
        case encerrar(titular: String, lote: UUID, motivo: String, por: String, em: Date)
    }

    public enum Failure: Error, Equatable, Sendable {
        /// Not enough usable credits of `medida`: `disponivel` is what there is.
        case insuficiente(medida: Medida, disponivel: Int64)
        /// The person's monthly cap on the company's pool leaves only `disponivel` of `medida`.
        case limiteDoMes(medida: Medida, disponivel: Int64)
        /// Zero, negative or above ``Carteira/maximo(_:)``.
        case quantidadeInvalida(medida: Medida)
        /// A lot that would expire before it is granted.
        case validadeNoPassado
        /// A lot id already granted with other terms.
        case loteJaExiste
        case motivoObrigatorio
        case descricaoInvalida
    }
}
