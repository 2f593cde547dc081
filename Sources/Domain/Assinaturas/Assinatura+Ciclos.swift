public import Foundation

extension DataLocal {
    /// The same day `meses` months later, or the month's last day when it has fewer days.
    public func somandoMeses(_ meses: Int) -> DataLocal {
        let total = ano * 12 + (mes - 1) + meses
        let (novoAno, novoMes) = (total / 12, total % 12 + 1)
        let ultimo = Int(CivilDays.daysInMonth(Int64(novoAno), Int64(novoMes)))
        return DataLocal(ano: novoAno, mes: novoMes, dia: min(dia, ultimo)) ?? self
    }

    /// Days from this date to `outra` (negative when `outra` is earlier).
    public func dias(ate outra: DataLocal) -> Int { Int(outra.days - days) }

    /// `dd/MM/yyyy`.
    public var brasileira: String {
        func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return "\(pad(dia))/\(pad(mes))/\(ano)"
    }
}

extension Assinatura {
    /// The end (first day after) of the cycle that starts on `inicio`, and the days of the
    /// whole period it belongs to: a calendar month for monthly plans, a year from the
    /// subscription's start (`ancora`) for yearly ones.
    public static func periodo(
        comecandoEm inicio: DataLocal, ancora: DataLocal, _ periodicidade: Plano.Periodicidade
    ) -> (
        fim: DataLocal, diasDoPeriodo: Int
    ) {
        switch periodicidade {
        case .mensal:
            let primeiro = DataLocal(ano: inicio.ano, mes: inicio.mes, dia: 1) ?? inicio
            return (primeiro.somandoMeses(1), Int(CivilDays.daysInMonth(Int64(inicio.ano), Int64(inicio.mes))))
        case .anual:
            var anos = 1
            while ancora.somandoMeses(12 * anos) <= inicio, anos < 10_000 { anos += 1 }
            let comeco = ancora.somandoMeses(12 * (anos - 1))
            let fim = ancora.somandoMeses(12 * anos)
            return (fim, comeco.dias(ate: fim))
        }
    }

    /// `valor` for `dias` of a period of `total` days, rounded half up.
    public static func proporcional(_ valor: Int64, dias: Int, de total: Int) -> Int64 {
        guard total > 0, dias > 0 else { return 0 }
        guard dias < total else { return valor }
        return (valor * Int64(dias) + Int64(total) / 2) / Int64(total)
    }

    /// The id of a lot a subscription grants: derived from the subscription, the cycle and
    /// what the lot is (`etiqueta`), so granting it again is recognised as the same lot.
    public static func loteId(_ assinatura: UUID, ciclo: Int, etiqueta: UInt8) -> UUID {
        var bytes = assinatura.uuid
        let numero = UInt32(truncatingIfNeeded: ciclo)
        bytes.10 ^= etiqueta &+ 1
        bytes.11 ^= UInt8(truncatingIfNeeded: numero >> 24)
        bytes.12 ^= UInt8(truncatingIfNeeded: numero >> 16)
        bytes.13 ^= UInt8(truncatingIfNeeded: numero >> 8)
        bytes.14 ^= UInt8(truncatingIfNeeded: numero)
        return UUID(uuid: bytes)
    }

    enum Etiqueta {
        static let horas: UInt8 = 0
        static let valor: UInt8 = 1
        static let transporteDeHoras: UInt8 = 2
        static let transporteDeValor: UInt8 = 3
        /// Upgrades: 4 + 2 × (upgrades before in the cycle), + 1 for the money lot.
        static func troca(_ indice: Int, _ medida: Carteira.Medida) -> UInt8 {
            UInt8(truncatingIfNeeded: 4 + 2 * min(indice, 120) + (medida == .minutos ? 0 : 1))
        }
    }

    /// The lots `termos` grant for `dias` of a period of `total` days, valid until `validoAte`.
    static func lotes(
        _ termos: Plano.Termos, plano: Plano.Referencia, unidadeId: UUID?, ids: (UUID, UUID), dias: Int, de total: Int, validoAte: Date,
        descricao: String
    ) -> [Carteira.Lote] {
        var lotes: [Carteira.Lote] = []
        let minutos = proporcional(termos.horasMinutos, dias: dias, de: total)
        if minutos > 0 {
            lotes.append(
                Carteira.Lote(
                    loteId: ids.0, medida: .minutos, quantidade: minutos, tipos: termos.tiposDasHoras, unidadeId: unidadeId, validoAte: validoAte,
                    origem: .plano, descricao: descricao))
        }
        let centavos = proporcional(termos.creditoCentavos, dias: dias, de: total)
        if centavos > 0 {
            lotes.append(
                Carteira.Lote(
                    loteId: ids.1, medida: .centavos, quantidade: centavos, unidadeId: unidadeId, validoAte: validoAte, origem: .plano,
                    descricao: descricao))
        }
        return lotes
    }
}
