public import Domain

// The documents of the analytics read model. Times are whole seconds, money integer centavos,
// local days `yyyy-mm-dd` in the unit's time zone, months `yyyy-mm`.

/// A unit's time zone (`analytics_unidades`, by unit id).
public struct AnalyticsUnidade: Codable, Sendable, Equatable {
    public let unidadeId: String
    public var fusoHorario: String
}

/// What analytics knows of a space (`analytics_espacos`, by space id): its type, and the
/// opening hours, active flag and seats in effect from each local day on.
public struct AnalyticsEspaco: Codable, Sendable, Equatable {
    /// `[abre, fecha)` in minutes after local midnight.
    public struct Faixa: Codable, Sendable, Equatable {
        public let abre: Int
        public let fecha: Int
    }

    /// Weekly opening hours: seven lists of ranges, `domingo` first.
    public struct Horario: Codable, Sendable, Equatable {
        public let dias: [[Faixa]]

        /// Minutes open on a day of the week (0 = domingo), wall-clock minutes.
        public func minutos(diaDaSemana: Int) -> Int {
            guard dias.indices.contains(diaDaSemana) else { return 0 }
            return dias[diaDaSemana].reduce(0) { $0 + $1.fecha - $1.abre }
        }
    }

    public struct Vigencia: Codable, Sendable, Equatable {
        /// The first local day this applies to.
        public var desde: String
        public var ativo: Bool
        /// What one open hour is worth in bookable hours: the capacity of a shared space
        /// (`estacao_compartilhada`, one booking per seat), 1 for any other type.
        public var lugares: Int
        public var horario: Horario

        /// Bookable seconds on a day of the week: open minutes × 60 × seats; 0 when inactive.
        public func segundosAbertos(diaDaSemana: Int) -> Int64 {
            ativo ? Int64(horario.minutos(diaDaSemana: diaDaSemana)) * 60 * Int64(lugares) : 0
        }

        /// Bookable seconds on a day of the week between minutes `de` and `ate` that fall in
        /// `trechos` (minutes of the day): how much of that day's open time a lease holds.
        public func segundosAbertos(diaDaSemana: Int, de: Int = 0, ate: Int = 1_440, dentro trechos: [Faixa]) -> Int64 {
            guard ativo, horario.dias.indices.contains(diaDaSemana) else { return 0 }
            var minutos = 0
            for faixa in horario.dias[diaDaSemana] {
                let (abre, fecha) = (max(faixa.abre, de), min(faixa.fecha, ate))
                for trecho in trechos { minutos += max(0, min(fecha, trecho.fecha) - max(abre, trecho.abre)) }
            }
            return Int64(minutos) * 60 * Int64(lugares)
        }
    }

    /// A lease of the space (ADR 0016), on the unit's wall clock: from minute `minutoDe` of
    /// local day `de` to minute `minutoAte` of local day `ate`, end excluded.
    public struct Locacao: Codable, Sendable, Equatable {
        public let bloqueioId: String
        public let de: String
        public let minutoDe: Int
        public var ate: String
        public var minutoAte: Int

        /// The minutes of local day `dia` it covers, `[abre, fecha)`; nil when none.
        func trecho(em dia: String) -> Faixa? {
            guard de <= dia, dia <= ate else { return nil }
            let (abre, fecha) = (dia == de ? minutoDe : 0, dia == ate ? minutoAte : 1_440)
            return abre < fecha ? Faixa(abre: abre, fecha: fecha) : nil
        }

        /// The last local day it covers a minute of.
        var ultimoDia: String {
            guard minutoAte == 0, ate > de, let dias = CalendarioAnalitico.dias(ate) else { return ate }
            return CalendarioAnalitico.data(dias - 1)
        }
    }

    public let espacoId: String
    public let unidadeId: String
    public var nome: String
    /// `Espaco.Tipo`'s stored value.
    public let tipo: String
    /// Oldest first; a change applies from the local day it was made (two changes on one day:
    /// the later wins).
    public var vigencias: [Vigencia]
    /// Its leases, in the order they were recorded; absent when it has none (and in documents
    /// written before leases were counted, until `coworkflow replay analytics`).
    public var locacoes: [Locacao]?

    /// What applied on `dia` (`yyyy-mm-dd`); nil before the space existed.
    public func vigencia(em dia: String) -> Vigencia? { vigencias.last { $0.desde <= dia } }

    /// The minutes of local day `dia` under a lease (leases never overlap: the space refuses a
    /// block over another lease's days).
    public func minutosLocados(em dia: String) -> [Faixa] {
        (locacoes ?? []).compactMap { $0.trecho(em: dia) }
    }

    /// The last local day a lease covers; nil without leases.
    public var ultimoDiaLocado: String? { (locacoes ?? []).map(\.ultimoDia).max() }

    /// Applies `mudanca` from local day `dia` on; records nothing when it changes nothing.
    mutating func vigorar(desde dia: String, _ mudanca: (inout Vigencia) -> Void) {
        guard let atual = vigencias.last else { return }
        var nova = atual
        mudanca(&nova)
        guard nova != atual else { return }
        if dia <= atual.desde {
            vigencias[vigencias.count - 1] = nova
        } else {
            nova.desde = dia
            vigencias.append(nova)
        }
    }

    static func lugares(tipo: String, capacidade: Int) -> Int {
        tipo == Espaco.Tipo.estacaoCompartilhada.rawValue ? max(1, capacidade) : 1
    }
}

/// Booked seconds of one space on each local day of one month (`analytics_ocupacao`, key
/// `<espaco>|<yyyy-mm>`, grouped by month).
public struct AnalyticsOcupacaoMes: Codable, Sendable, Equatable {
    public let espacoId: String
    public let mes: String
    /// One entry per day of the month, the 1st first.
    public var segundosReservados: [Int64]
}

/// Booked seconds of one space in each hour of the week, over all time
/// (`analytics_ocupacao_semana`, by space id).
public struct AnalyticsSemana: Codable, Sendable, Equatable {
    public let espacoId: String
    /// 168 entries: hour `h` of day `d` (0 = domingo) at `d * 24 + h`, local time.
    public var segundosReservados: [Int64]
    /// The last local day any confirmed booking touched (it never moves back): where the
    /// period whose open hours are the denominator ends.
    public var ultimoDia: String?
}

/// Payments and refunds of one month by space type and local day (`analytics_receita`, by
/// month).
public struct AnalyticsReceitaMes: Codable, Sendable, Equatable {
    public struct Linha: Codable, Sendable, Equatable {
        /// One entry per day of the month.
        public var pagamentos: [Money]
        public var reembolsos: [Money]
        public var quantidadePagamentos: [Int]
        public var quantidadeReembolsos: [Int]

        init(dias: Int) {
            pagamentos = Array(repeating: .zero, count: dias)
            reembolsos = Array(repeating: .zero, count: dias)
            quantidadePagamentos = Array(repeating: 0, count: dias)
            quantidadeReembolsos = Array(repeating: 0, count: dias)
        }
    }

    public let mes: String
    /// By `Espaco.Tipo` stored value (`desconhecido` when the space is unknown).
    public var tipos: [String: Linha]
}

/// One member's totals (`analytics_membros_horas` and `analytics_membros_receita`, by member
/// id, each ordered for its ranking).
public struct AnalyticsMembro: Codable, Sendable, Equatable {
    public let usuarioId: String
    /// Length of the member's confirmed bookings that were not cancelled afterwards.
    public var segundosConfirmados: Int64
    public var reservasConfirmadas: Int
    /// Confirmed payments − completed refunds.
    public var receita: Money
}

/// Counters of the whole platform (`analytics_indicadores`, key `geral`).
public struct AnalyticsIndicadores: Codable, Sendable, Equatable {
    public var reservasSolicitadas = 0
    /// Every confirmation, including bookings cancelled later.
    public var reservasConfirmadas = 0
    public var reservasCanceladas = 0
    public var canceladasAposConfirmacao = 0
    public var reservasExpiradas = 0
    /// Holds released because their payment was declined (not in ``reservasCanceladas``).
    public var reservasRecusadas = 0
    public var checkins = 0
    public var noShows = 0
    /// Σ (start − requested at) over ``reservasConfirmadas``.
    public var antecedenciaTotalSegundos: Int64 = 0
    public var pagamentos = Money.zero
    public var quantidadePagamentos = 0
    public var reembolsos = Money.zero
    public var quantidadeReembolsos = 0

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case reservasSolicitadas, reservasConfirmadas, reservasCanceladas, canceladasAposConfirmacao, reservasExpiradas
        case reservasRecusadas, checkins, noShows, antecedenciaTotalSegundos, pagamentos, quantidadePagamentos, reembolsos
        case quantidadeReembolsos
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        reservasSolicitadas = try c.decode(Int.self, forKey: .reservasSolicitadas)
        reservasConfirmadas = try c.decode(Int.self, forKey: .reservasConfirmadas)
        reservasCanceladas = try c.decode(Int.self, forKey: .reservasCanceladas)
        canceladasAposConfirmacao = try c.decode(Int.self, forKey: .canceladasAposConfirmacao)
        reservasExpiradas = try c.decode(Int.self, forKey: .reservasExpiradas)
        // Absent from documents written before it was counted (they count declines as
        // cancellations until `coworkflow replay analytics`).
        reservasRecusadas = try c.decodeIfPresent(Int.self, forKey: .reservasRecusadas) ?? 0
        checkins = try c.decode(Int.self, forKey: .checkins)
        noShows = try c.decode(Int.self, forKey: .noShows)
        antecedenciaTotalSegundos = try c.decode(Int64.self, forKey: .antecedenciaTotalSegundos)
        pagamentos = try c.decode(Money.self, forKey: .pagamentos)
        quantidadePagamentos = try c.decode(Int.self, forKey: .quantidadePagamentos)
        reembolsos = try c.decode(Money.self, forKey: .reembolsos)
        quantidadeReembolsos = try c.decode(Int.self, forKey: .quantidadeReembolsos)
    }

    mutating func somar(_ outro: AnalyticsIndicadores) {
        reservasSolicitadas += outro.reservasSolicitadas
        reservasConfirmadas += outro.reservasConfirmadas
        reservasCanceladas += outro.reservasCanceladas
        canceladasAposConfirmacao += outro.canceladasAposConfirmacao
        reservasExpiradas += outro.reservasExpiradas
        reservasRecusadas += outro.reservasRecusadas
        checkins += outro.checkins
        noShows += outro.noShows
        antecedenciaTotalSegundos += outro.antecedenciaTotalSegundos
        pagamentos = pagamentos + outro.pagamentos
        quantidadePagamentos += outro.quantidadePagamentos
        reembolsos = reembolsos + outro.reembolsos
        quantidadeReembolsos += outro.quantidadeReembolsos
    }
}

/// Left by the fast rebuild of earlier versions, which wrote over the live documents, until its
/// last batch committed (`analytics_controle`, key `reconstrucao`): the incremental projection
/// refuses to fold onto documents such a rebuild left half-written. Rebuilds now write beside
/// the live documents and swap them in whole, and write no marker.
struct AnalyticsReconstrucao: Codable, Sendable, Equatable {
    let iniciadaEm: String
}
