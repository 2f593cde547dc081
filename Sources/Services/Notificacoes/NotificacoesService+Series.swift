import Domain
import EventStore
import Foundation
import Projections

extension NotificacoesService {
    /// A recurring booking, once recorded: one notice for the whole series (which occurrences
    /// were booked and which not, and why), with one calendar invitation holding every booked
    /// occurrence still standing (each under its booking's own `UID`, so a later cancellation of
    /// one takes that one out). Its bookings' own confirmations and card payments send nothing
    /// more; a declined charge is still told, as that booking's cancellation.
    ///
    /// The bookings are read as they stand when the notice goes, which may be well after the
    /// series was booked (notificacoes was down, or behind): one moved meanwhile, alone or with
    /// the series, still stands and is invited at its time now, at its last move's `SEQUENCE`
    /// (the move's own notice, sent after this one, holds the same).
    func serieReservada(_ criada: SerieDeReservas.Criada, em: Date) async throws -> Aviso? {
        let serie = criada.serie
        // Every booking of the series in one read, as it stands (one whose card was declined
        // meanwhile, or that was cancelled, is not invited).
        let lidas = try await reservas(serie.ocorrencias.compactMap(\.reservaId))
        var reservadas: [(SerieDeReservas.Ocorrencia, Reserva.Dados)] = []
        for ocorrencia in serie.ocorrencias {
            guard let id = ocorrencia.reservaId, let dados = lidas[id], dados.status.ativa else { continue }
            reservadas.append((ocorrencia, dados))
        }
        guard !reservadas.isEmpty else { return nil }
        // One space and one unit for the whole series.
        let (espaco, unidade) = try await lugar(reservadas[0].1.solicitacao)
        let nome = espaco?.nome ?? "espaço"
        let linhas = serie.ocorrencias.map { ocorrencia in
            let quando = Self.quando(ocorrencia.intervalo, fuso: unidade?.fusoHorario)
            if let (_, dados) = reservadas.first(where: { $0.0.numero == ocorrencia.numero }) {
                let agora =
                    dados.solicitacao.intervalo == ocorrencia.intervalo
                    ? "" : ", mudada para \(Self.quando(dados.solicitacao.intervalo, fuso: unidade?.fusoHorario))"
                return "- \(quando): reservada (\(Self.reais(dados.solicitacao.total)))\(agora)"
            }
            if ocorrencia.reservaId != nil { return "- \(quando): não confirmada (veja em Minhas reservas)" }
            return "- \(quando): não reservada — \(ocorrencia.recusa?.mensagem ?? "recusada")"
        }
        let frequencia =
            switch serie.frequencia {
            case .semanal: "toda semana"
            case .quinzenal: "a cada duas semanas"
            case .diasUteis: "de segunda a sexta"
            case .mensal: Self.mensal(serie.ocorrencias.first?.intervalo.start, fuso: unidade?.fusoHorario)
            case .mensalNoDia: Self.mensalNoDia(serie.ocorrencias.first?.intervalo.start, fuso: unidade?.fusoHorario)
            }
        let pagas = reservadas.contains { $0.1.solicitacao.total > .zero }
        // An operator's series may have been paid at the desk, each booking as it was made.
        let naRecepcao = reservadas.contains { $0.1.solicitacao.pagamento?.metodo == .manual }
        let ics = Calendario.eventos(
            reservadas.map { Self.evento($0.1.solicitacao, espaco, unidade, sequencia: $0.1.remarcacoes) }, criadoEm: em,
            organizador: remetente.address)
        return Aviso(
            tipo: .reservaConfirmada, usuarioId: serie.usuarioId, reservaId: nil,
            titulo: "Série reservada: \(nome), \(reservadas.count) de \(serie.ocorrencias.count)",
            texto: "Sua série de \(nome) (\(frequencia)) tem \(reservadas.count) de \(serie.ocorrencias.count) reservas:\n"
                + linhas.joined(separator: "\n") + "\n"
                + (!pagas
                    ? ""
                    : naRecepcao
                        ? "Cada reserva foi registrada como paga na recepção; para cancelar alguma, fale com a recepção, que devolve o valor. "
                        : "Cada reserva é cobrada no cartão quando é feita; se uma cobrança for recusada, avisamos e o horário é liberado. ")
                + "O código de check-in de cada uma está em Minhas reservas. O convite para a sua agenda, com todas elas, segue em anexo.",
            anexos: [EmailAttachment(filename: "serie.ics", contentType: Calendario.contentType, data: ics)])
    }

    /// A cancellation of a series (from an occurrence on): one notice for the bookings it
    /// cancelled, each with its time and what comes back, the total refund, and one calendar
    /// cancellation taking them all out of the calendar the series' invitation filled (each under
    /// its booking's `UID`, one `SEQUENCE` above its last move). Those bookings' own cancellations
    /// and the refunds this notice announces send nothing more (``Reserva/Cancelada/daSerie``).
    func serieCancelada(_ cancelada: SerieDeReservas.Cancelada) async throws -> Aviso? {
        let lidas = try await self.reservas(cancelada.canceladas)
        var reservas = cancelada.canceladas.compactMap { lidas[$0] }.filter { $0.status == .cancelada }
        guard let primeira = reservas.first else { return nil }
        reservas.sort { $0.intervalo.start < $1.intervalo.start }
        let (espaco, unidade) = try await lugar(primeira.solicitacao)
        let nome = espaco?.nome ?? "espaço"
        let linhas = reservas.map { dados in
            var linha = "- \(Self.quando(dados.intervalo, fuso: unidade?.fusoHorario))"
            if let cancelamento = dados.cancelamento, cancelamento.pago > .zero {
                linha += cancelamento.reembolso > .zero ? ": \(Self.reais(cancelamento.reembolso)) de volta" : ": sem reembolso"
                if cancelamento.multa > .zero { linha += " (multa de \(Self.reais(cancelamento.multa)))" }
            }
            return linha
        }
        let quantas = reservas.count == 1 ? "1 reserva" : "\(reservas.count) reservas"
        var texto =
            "\(reservas.count == 1 ? "Foi cancelada" : "Foram canceladas") \(quantas) da sua série de \(nome):\n"
            + linhas.joined(separator: "\n") + "\n"
        if let motivo = Self.motivo(cancelada.motivo) { texto += "\(motivo)\n" }
        let reembolso = reservas.reduce(Money.zero) { $0 + ($1.cancelamento?.reembolso ?? .zero) }
        if reembolso > .zero { texto += "Você receberá \(Self.reais(reembolso)) de volta. " }
        texto += "Em anexo, o cancelamento do convite para a sua agenda."
        let ics = Calendario.eventos(
            reservas.map { Self.evento($0.solicitacao, espaco, unidade, sequencia: $0.remarcacoes) }, criadoEm: cancelada.em,
            organizador: remetente.address, cancelado: true)
        return Aviso(
            tipo: .cancelamento, usuarioId: cancelada.usuarioId, reservaId: nil, titulo: "Série cancelada: \(nome), \(quantas)", texto: texto,
            anexos: [EmailAttachment(filename: "serie.ics", contentType: Calendario.contentTypeDeCancelamento, data: ics)])
    }

    /// A move of a series (from an occurrence on): one notice for the bookings it moved, each
    /// with its old and new time, and one calendar invitation moving them all (each under its
    /// booking's `UID`, at its last move's `SEQUENCE`: calendars move the events the series'
    /// invitation put there). Those bookings' own moves send nothing more
    /// (``Reserva/Remarcada/daSerie``); ones cancelled since are left out.
    func serieRemarcada(_ remarcada: SerieDeReservas.Remarcada) async throws -> Aviso? {
        let lidas = try await reservas(remarcada.movidas.map(\.reservaId))
        var movidas = remarcada.movidas.compactMap { movida in lidas[movida.reservaId].map { (movida, $0) } }.filter { $0.1.status == .confirmada }
        guard let primeira = movidas.first else { return nil }
        movidas.sort { $0.0.para.start < $1.0.para.start }
        let (espaco, unidade) = try await lugar(primeira.1.solicitacao)
        let nome = espaco?.nome ?? "espaço"
        let fuso = unidade?.fusoHorario
        let linhas = movidas.map { "- era \(Self.quando($0.0.de, fuso: fuso)), agora é \(Self.quando($0.0.para, fuso: fuso))" }
        let quantas = movidas.count == 1 ? "1 reserva" : "\(movidas.count) reservas"
        let quem = remarcada.por == remarcada.usuarioId ? "Você mudou" : "A recepção mudou"
        let texto =
            "\(quem) o horário de \(quantas) da sua série de \(nome):\n" + linhas.joined(separator: "\n") + "\n"
            + "Os valores, os pagamentos e os códigos de check-in continuam os mesmos. Em anexo, o convite atualizado para a sua agenda."
        let ics = Calendario.eventos(
            movidas.map { Self.evento($0.1.solicitacao, espaco, unidade, sequencia: $0.1.remarcacoes) }, criadoEm: remarcada.em,
            organizador: remetente.address)
        return Aviso(
            tipo: .remarcacao, usuarioId: remarcada.usuarioId, reservaId: nil,
            titulo: "Série remarcada: \(nome), \(quantas)", texto: texto,
            anexos: [EmailAttachment(filename: "serie.ics", contentType: Calendario.contentType, data: ics)])
    }

    /// "todo mês, no dia 15" (from the 29th, "…, ou no último dia dos meses que não o têm") for a
    /// series by the day of the month whose first occurrence starts at `inicio`.
    static func mensalNoDia(_ inicio: Date?, fuso: String?) -> String {
        guard let inicio else { return "todo mês" }
        let dia = DataLocal(inicio, em: Unidade.fuso(fuso)).dia
        return "todo mês, no dia \(dia)" + (dia > 28 ? " (ou no último dia dos meses que não o têm)" : "")
    }

    /// "todo mês, na segunda terça-feira" (or "na última sexta-feira") for a monthly series whose
    /// first occurrence starts at `inicio`, on the unit's calendar.
    static func mensal(_ inicio: Date?, fuso: String?) -> String {
        guard let inicio else { return "todo mês" }
        let zone = Unidade.fuso(fuso)
        let dia = DataLocal(inicio, em: zone)
        let qual = SerieDeReservas.semanaDoMes(dia).map { ["primeira", "segunda", "terceira", "quarta"][$0 - 1] } ?? "última"
        let nome =
            switch dia.diaDaSemana {
            case .domingo: "domingo"
            case .segunda: "segunda-feira"
            case .terca: "terça-feira"
            case .quarta: "quarta-feira"
            case .quinta: "quinta-feira"
            case .sexta: "sexta-feira"
            case .sabado: "sábado"
            }
        let artigo = dia.diaDaSemana == .domingo || dia.diaDaSemana == .sabado ? "no" : "na"
        let ordinal = artigo == "no" ? (qual == "última" ? "último" : String(qual.dropLast()) + "o") : qual
        return "todo mês, \(artigo) \(ordinal) \(nome)"
    }
}
