public import Foundation

/// A recurring booking (`serie-<id>`): the same space at the same local time, week after week
/// (or every other week, every weekday, the same weekday of every month or the same day of every
/// month), booked at once as
/// one booking per occurrence. Each occurrence is an ordinary ``Reserva`` (its own slot, price,
/// payment and cancellation); the series records what was asked, which occurrences were booked
/// and which were refused and why, and the member's cancellations and moves of the rest of it.
public enum SerieDeReservas {
    public typealias ID = Identifier<SerieDeReservas>

    /// The most occurrences one series books: half a year of weeks.
    public static let maximoDeOcorrencias = 26

    public enum Frequencia: String, Codable, Sendable, CaseIterable {
        case semanal
        case quinzenal
        /// Monday to Friday.
        case diasUteis = "dias_uteis"
        /// Every month on the same weekday of the same week as the first (the second Tuesday); a
        /// first in a month's fifth week (from the 29th) is that month's last such weekday, and
        /// so is every other (the last Friday).
        case mensal
        /// Every month on the same day of the month as the first (the 15th); in a month without
        /// that day (the 31st in April, the 30th in February), on its last day.
        case mensalNoDia = "mensal_no_dia"
    }

    /// Which of its month's weekdays `data` is, for ``Frequencia/mensal``: 1 to 4 (the first to
    /// the fourth Tuesday), nil for the last (a date from the 29th on).
    public static func semanaDoMes(_ data: DataLocal) -> Int? {
        let semana = (data.dia - 1) / 7 + 1
        return semana <= 4 ? semana : nil
    }

    /// The `semana`-th (nil: the last) `diaDaSemana` of the month `meses` months after `data`'s.
    static func mesmoDiaDaSemana(_ diaDaSemana: DiaDaSemana, semana: Int?, meses: Int, depoisDe data: DataLocal) -> DataLocal? {
        let total = data.ano * 12 + (data.mes - 1) + meses
        let (ano, mes) = (total / 12, total % 12 + 1)
        let indice = { (d: DataLocal) in DiaDaSemana.allCases.firstIndex(of: d.diaDaSemana) ?? 0 }
        let alvo = DiaDaSemana.allCases.firstIndex(of: diaDaSemana) ?? 0
        if let semana {
            guard let primeiro = DataLocal(ano: ano, mes: mes, dia: 1) else { return nil }
            return primeiro.adding(dias: (alvo - indice(primeiro) + 7) % 7 + 7 * (semana - 1))
        }
        let (anoSeguinte, mesSeguinte) = mes == 12 ? (ano + 1, 1) : (ano, mes + 1)
        guard let ultimo = DataLocal(ano: anoSeguinte, mes: mesSeguinte, dia: 1)?.adding(dias: -1) else { return nil }
        return ultimo.adding(dias: -((indice(ultimo) - alvo + 7) % 7))
    }

    /// The `quantidade` occurrences of a series whose first is `primeira`, at the same local
    /// time in `fuso` on each day `frequencia` gives (each lasting as long as the first; the
    /// first itself included, whatever its weekday).
    public static func ocorrencias(primeira: TimeRange, frequencia: Frequencia, quantidade: Int, fuso: TimeZone) -> [TimeRange] {
        guard quantidade > 0 else { return [] }
        let dia = DataLocal(primeira.start, em: fuso)
        // The first start's time on the local wall clock, kept on every date (on a DST day,
        // 08:00 is still 08:00).
        var calendario = Calendar(identifier: .gregorian)
        calendario.timeZone = fuso
        let hora = calendario.dateComponents([.hour, .minute, .second, .nanosecond], from: primeira.start)
        let minutos = (hora.hour ?? 0) * 60 + (hora.minute ?? 0)
        let resto = Double(hora.second ?? 0) + Double(hora.nanosecond ?? 0) / 1e9
        var datas = [dia]
        var proximo = dia
        proximas: while datas.count < quantidade {
            switch frequencia {
            case .semanal: proximo = proximo.adding(dias: 7)
            case .quinzenal: proximo = proximo.adding(dias: 14)
            case .diasUteis:
                proximo = proximo.adding(dias: 1)
                while proximo.diaDaSemana.fimDeSemana { proximo = proximo.adding(dias: 1) }
            case .mensal:
                // (nil only past the calendar's years)
                guard let data = mesmoDiaDaSemana(dia.diaDaSemana, semana: semanaDoMes(dia), meses: datas.count, depoisDe: dia) else {
                    break proximas
                }
                proximo = data
            case .mensalNoDia:
                // Counted from the first, not the last: the 31st after a 30th of April is the 31st.
                proximo = dia.somandoMeses(datas.count)
            }
            datas.append(proximo)
        }
        return [primeira]
            + datas.dropFirst().compactMap { data in
                let inicio = data.instante(minutos: minutos, em: fuso).addingTimeInterval(resto)
                return try? TimeRange(start: inicio, end: inicio.addingTimeInterval(primeira.duration))
            }
    }

    /// Why an occurrence was not booked: the booking's own refusal.
    public struct Recusa: Codable, Sendable, Equatable {
        public let codigo: String
        public let mensagem: String

        public init(codigo: String, mensagem: String) {
            self.codigo = codigo
            self.mensagem = mensagem
        }
    }

    /// One occurrence: its booking, or why there is none.
    public struct Ocorrencia: Codable, Sendable, Equatable {
        /// 1 for the first.
        public let numero: Int
        public let intervalo: TimeRange
        public let reservaId: Reserva.ID?
        public let recusa: Recusa?

        public init(numero: Int, intervalo: TimeRange, reservaId: Reserva.ID?, recusa: Recusa?) {
            self.numero = numero
            self.intervalo = intervalo
            self.reservaId = reservaId
            self.recusa = reservaId == nil ? recusa : nil
        }
    }

    /// What the member asked and what came of each occurrence.
    public struct Criacao: Codable, Sendable, Equatable {
        public let serieId: ID
        public let usuarioId: String
        public let espacoId: UUID
        public let unidadeId: UUID
        public let frequencia: Frequencia
        public let ocorrencias: [Ocorrencia]

        public init(serieId: ID, usuarioId: String, espacoId: UUID, unidadeId: UUID, frequencia: Frequencia, ocorrencias: [Ocorrencia]) {
            self.serieId = serieId
            self.usuarioId = usuarioId
            self.espacoId = espacoId
            self.unidadeId = unidadeId
            self.frequencia = frequencia
            self.ocorrencias = ocorrencias
        }
    }

    public enum Command: Sendable, Equatable {
        /// Records the series once its occurrences were tried (at least one booked).
        case criar(Criacao, por: String, em: Date)
        /// Records that the bookings `canceladas` (occurrences `aPartirDe` on) were cancelled.
        case cancelar(aPartirDe: Int, canceladas: [Reserva.ID], por: String, motivo: String?, em: Date)
        /// Records that the bookings `movidas` (occurrences `aPartirDe` on) were moved, each in
        /// the same append.
        case remarcar(aPartirDe: Int, movidas: [Remarcada.Movida], por: String, em: Date)
    }

    public enum Failure: Error, Equatable, Sendable {
        case inexistente
        case jaExiste
        /// No occurrence could be booked: there is no series.
        case nenhumaReservada
        /// Fewer than two occurrences, more than ``maximoDeOcorrencias``, or not numbered 1…n.
        case quantidade
        /// An occurrence number the series does not have.
        case ocorrenciaInexistente
        /// A cancellation that names a booking that is not one of the series' (from `aPartirDe`),
        /// or a series that names one booking twice.
        case reservaAlheia
    }
}
