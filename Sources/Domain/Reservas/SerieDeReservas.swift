public import Foundation

/// A recurring booking (`serie-<id>`): the same space at the same local time, week after week
/// (or every other week, or every weekday), booked at once as one booking per occurrence. Each
/// occurrence is an ordinary ``Reserva`` (its own slot, price, payment and cancellation); the
/// series records what was asked, which occurrences were booked and which were refused and why,
/// and the member's cancellations of the rest of it.
public enum SerieDeReservas {
    public typealias ID = Identifier<SerieDeReservas>

    /// The most occurrences one series books: half a year of weeks.
    public static let maximoDeOcorrencias = 26

    public enum Frequencia: String, Codable, Sendable, CaseIterable {
        case semanal
        case quinzenal
        /// Monday to Friday.
        case diasUteis = "dias_uteis"
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
        while datas.count < quantidade {
            switch frequencia {
            case .semanal: proximo = proximo.adding(dias: 7)
            case .quinzenal: proximo = proximo.adding(dias: 14)
            case .diasUteis:
                proximo = proximo.adding(dias: 1)
                while proximo.diaDaSemana.fimDeSemana { proximo = proximo.adding(dias: 1) }
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
