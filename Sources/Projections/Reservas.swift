public import Domain
import EventStore
public import Foundation

/// A booking as members and operators read it.
public struct ReservaView: Codable, Sendable, Equatable {
    public struct Cancelamento: Codable, Sendable, Equatable {
        public let em: Date
        public let por: String
        public let motivo: String?
        public let multa: Money
        public let reembolso: Money

        public init(em: Date, por: String, motivo: String?, multa: Money, reembolso: Money) {
            self.em = em
            self.por = por
            self.motivo = motivo
            self.multa = multa
            self.reembolso = reembolso
        }
    }

    public let id: String
    public let espacoId: String
    public let unidadeId: String
    public let usuarioId: String
    /// The time it holds: as booked, or as last moved (``remarcadaEm``).
    public var inicio: Date
    public var fim: Date
    public var dias: [DataLocal]
    public var status: Reserva.Status
    /// Integer centavos, fixed when the booking was requested.
    public let total: Money
    public let linhas: [Reserva.LinhaDePreco]
    public let cupom: String?
    /// How the member chose to pay (absent in bookings made before members could choose: PIX).
    public let metodo: MetodoDePagamento?
    /// While the booking holds its slot unpaid: when the hold runs out.
    public var expiraEm: Date?
    public let solicitadaEm: Date
    public var confirmadaEm: Date?
    public var pagamentoId: String?
    public var cancelamento: Cancelamento?
    /// The member did not show up (`NoShowRegistrado`): from this instant the rest of the slot
    /// was released, and may be someone else's. The booking stays confirmed until it concludes.
    public var naoCompareceuEm: Date?
    /// When the member checked in (`CheckinRealizado`) and out (`CheckoutRealizado`): what a
    /// reception's day board shows as present or gone. Absent until then (and, for check-ins
    /// from before the field existed, until `replay reservas`).
    public var checkinEm: Date?
    public var checkoutEm: Date?
    /// What pagamentos has asked its provider to give back for this booking (each refund's
    /// state is the payment's). Absent until a refund. It can exceed the cancellation's
    /// `reembolso`: a payment that lands after its booking was cancelled or expired is given
    /// back whole. Refunds from before the field existed show after `replay reservas`.
    public var reembolsoSolicitado: Money?
    public var atualizadaEm: Date
    /// The cancellation terms of this booking (the unit's policy when it was made; absent for
    /// bookings made before they were recorded).
    public let politicaDeCancelamento: Unidade.PoliticaDeCancelamento?
    /// The member's credits it spent (absent: none).
    public let creditos: Reserva.Creditos?
    /// The recurring booking it is an occurrence of (absent: a booking of its own).
    public let serie: Serie?
    /// How many times it was moved to another time (`ReservaRemarcada`), and when last; absent
    /// for a booking never moved.
    public var remarcacoes: Int?
    public var remarcadaEm: Date?

    public struct Serie: Codable, Sendable, Equatable {
        public let serieId: String
        public let numero: Int
    }

    public init(_ e: Reserva.Solicitada) {
        id = e.reservaId.description
        espacoId = e.espacoId.lowercasedString
        unidadeId = e.unidadeId.lowercasedString
        usuarioId = e.usuarioId
        inicio = e.intervalo.start
        fim = e.intervalo.end
        dias = e.dias
        status = .solicitada
        total = e.total
        linhas = e.linhas
        cupom = e.cupom
        metodo = e.pagamento?.metodo
        expiraEm = e.expiraEm
        solicitadaEm = e.em
        atualizadaEm = e.em
        politicaDeCancelamento = e.politica
        creditos = e.creditos
        serie = e.serie.map { Serie(serieId: $0.serieId.description, numero: $0.numero) }
    }
}

/// A timer the reservas service acts on when it falls due: expire an unpaid hold, conclude a
/// finished booking, tell a booking its series' cancellation cancelled that no record of the
/// series named (`avisarSerie`, ADR 0014). Stored (a read model), so timers survive restarts.
public struct PrazoView: Codable, Sendable, Equatable {
    public enum Acao: String, Codable, Sendable { case expirar, concluir, avisarSerie }
    public let reservaId: String
    public let acao: Acao
    public let vence: Date
    /// The trace of the event that set the timer (tracing on): the timer's work continues it.
    public var traceparent: String?
}

/// The bookings holding one space's time on one local day.
public struct OcupacaoView: Codable, Sendable, Equatable {
    public let espacoId: String
    public let data: DataLocal
    public var reservas: [String: TimeRange]
}

public enum ReservasReadModel {
    public static let reservas = "reservas"
    public static let porDia = "reservas_por_dia"
    public static let prazos = "reservas_prazos"
    public static let ocupacao = "ocupacao"
    /// How long after a booking cancelled with its series (`daSerie`) the series is expected to
    /// have named it (it does so within the same request): then the timer tells it.
    public static let esperaPeloRegistroDaSerie: TimeInterval = 120

    /// `reservas` (by id, grouped by member), `reservas_por_dia` (grouped by unit and day, for
    /// operators) and `reservas_prazos` (the hold and conclusion timers, ordered by due time).
    public static let projection = Projection(
        name: "reservas", collections: [reservas, porDia, prazos],
        types: [
            Reserva.Catalogo.solicitada.type, Reserva.Catalogo.confirmada.type, Reserva.Catalogo.cancelada.type, Reserva.Catalogo.expirada.type,
            Reserva.Catalogo.concluida.type, Reserva.Catalogo.remarcada.type, Checkin.Catalogo.noShowRegistrado.type,
            Pagamento.Catalogo.reembolsoSolicitado.type, Checkin.Catalogo.realizado.type, Checkin.Catalogo.checkoutRealizado.type,
            SerieDeReservas.Catalogo.cancelada.type,
        ]
    ) { recorded, batch in
        if recorded.type == SerieDeReservas.Catalogo.cancelada.type {
            // The bookings it names are told: their `avisarSerie` timers go.
            guard case .cancelada(let e)? = try SerieDeReservas.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder)
            else { return }
            for reserva in e.canceladas { batch.delete(prazos, reserva.description) }
            return
        }
        if recorded.type == Pagamento.Catalogo.reembolsoSolicitado.type {
            guard case .reembolsoSolicitado(let e)? = try Pagamento.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder),
                var view = try await batch.get(ReservaView.self, reservas, Reserva.ID(e.reservaId).description)
            else { return }
            view.reembolsoSolicitado = (view.reembolsoSolicitado ?? .zero) + e.valor
            view.atualizadaEm = e.em
            try save(view, batch)
            return
        }
        if Checkin.Catalogo.todos.types.contains(recorded.type) {
            guard let event = try Checkin.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) else { return }
            let ocorrencia: Checkin.Ocorrencia
            switch event {
            case .noShowRegistrado(let e), .realizado(let e), .checkoutRealizado(let e): ocorrencia = e
            case .liberado, .revogado, .remarcado: return
            }
            guard var view = try await batch.get(ReservaView.self, reservas, ocorrencia.reservaId.description) else { return }
            switch event {
            case .noShowRegistrado: view.naoCompareceuEm = ocorrencia.em
            case .realizado: view.checkinEm = ocorrencia.em
            case .checkoutRealizado: view.checkoutEm = ocorrencia.em
            case .liberado, .revogado, .remarcado: return
            }
            view.atualizadaEm = ocorrencia.em
            try save(view, batch)
            return
        }
        guard let event = try Reserva.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) else { return }
        switch event {
        case .solicitada(let e):
            let view = ReservaView(e)
            try save(view, batch)
            try batch.put(
                PrazoView(reservaId: view.id, acao: .expirar, vence: e.expiraEm, traceparent: MetadataJSON.traceparent(in: recorded.metadataJSON)),
                prazos, view.id, grupo: "prazo", ordem: ordem(e.expiraEm))
        case .confirmada(let e):
            guard var view = try await batch.get(ReservaView.self, reservas, e.reservaId.description) else { return }
            view.status = .confirmada
            view.expiraEm = nil
            view.confirmadaEm = e.em
            view.pagamentoId = e.pagamentoId
            view.atualizadaEm = e.em
            try save(view, batch)
            try batch.put(
                PrazoView(reservaId: view.id, acao: .concluir, vence: view.fim, traceparent: MetadataJSON.traceparent(in: recorded.metadataJSON)),
                prazos, view.id, grupo: "prazo", ordem: ordem(view.fim))
        case .cancelada(let e):
            try await finish(e.reservaId, .cancelada, at: e.em, batch) { view in
                view.cancelamento = ReservaView.Cancelamento(em: e.em, por: e.por, motivo: e.motivo, multa: e.multa, reembolso: e.reembolso)
            }
            if e.daSerie == true {
                // Normally named by its series' record a moment later (which drops this timer);
                // if that record never comes (a cancellation cut short), the timer tells it.
                let vence = e.em.addingTimeInterval(esperaPeloRegistroDaSerie)
                try batch.put(
                    PrazoView(
                        reservaId: e.reservaId.description, acao: .avisarSerie, vence: vence,
                        traceparent: MetadataJSON.traceparent(in: recorded.metadataJSON)),
                    prazos, e.reservaId.description, grupo: "prazo", ordem: ordem(vence))
            }
        case .expirada(let e):
            try await finish(e.reservaId, .expirada, at: e.em, batch) { _ in }
        case .concluida(let e):
            try await finish(e.reservaId, .concluida, at: e.em, batch) { _ in }
        case .remarcada(let e):
            guard var view = try await batch.get(ReservaView.self, reservas, e.reservaId.description) else { return }
            // The days it left no longer list it.
            for dia in view.dias where !e.dias.contains(dia) { batch.delete(porDia, "\(dia)|\(view.id)") }
            view.inicio = e.para.start
            view.fim = e.para.end
            view.dias = e.dias
            view.remarcacoes = (view.remarcacoes ?? 0) + 1
            view.remarcadaEm = e.em
            view.atualizadaEm = e.em
            try save(view, batch)
            if view.status == .confirmada {
                try batch.put(
                    PrazoView(reservaId: view.id, acao: .concluir, vence: view.fim, traceparent: MetadataJSON.traceparent(in: recorded.metadataJSON)),
                    prazos, view.id, grupo: "prazo", ordem: ordem(view.fim))
            }
        }
    }

    /// Occupancy per space and local day, from the agenda streams: what availability is made of.
    public static let agendas = Projection(
        name: "ocupacao", collections: [ocupacao], types: [Agenda.Catalogo.ocupada.type, Agenda.Catalogo.liberada.type]
    ) { recorded, batch in
        guard let event = try Agenda.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) else { return }
        switch event {
        case .ocupada(let e):
            let key = ocupacaoKey(e.espacoId, e.data)
            var view =
                try await batch.get(OcupacaoView.self, ocupacao, key)
                ?? OcupacaoView(espacoId: e.espacoId.lowercasedString, data: e.data, reservas: [:])
            view.reservas[e.reservaId.lowercasedString] = e.intervalo
            try batch.put(view, ocupacao, key, grupo: view.espacoId, ordem: e.data.description)
        case .liberada(let e):
            let key = ocupacaoKey(e.espacoId, e.data)
            guard var view = try await batch.get(OcupacaoView.self, ocupacao, key) else { return }
            view.reservas[e.reservaId.lowercasedString] = nil
            try batch.put(view, ocupacao, key, grupo: view.espacoId, ordem: e.data.description)
        case .bloqueada, .desbloqueada, .capacidadeDefinida:
            return  // availability takes blocks and capacity from the space (the catalog projection); not subscribed
        }
    }

    public static func ocupacaoKey(_ espaco: UUID, _ data: DataLocal) -> String { "\(espaco.lowercasedString)|\(data)" }

    public static func diaGrupo(unidade: String, data: DataLocal) -> String { "\(unidade)|\(data)" }

    /// Sortable text of an instant: UTC, fixed width, milliseconds.
    public static func ordem(_ instant: Date) -> String {
        instant.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// The booking by id (for its member) and under each of its days (for the unit's
    /// operators): one document, encoded once.
    private static func save(_ view: ReservaView, _ batch: ProjectionBatch) throws {
        let start = ordem(view.inicio)
        let doc = try ReadModelJSON.encode(view)
        batch.put(json: doc, reservas, view.id, grupo: view.usuarioId, ordem: start)
        for dia in view.dias {
            batch.put(json: doc, porDia, "\(dia)|\(view.id)", grupo: diaGrupo(unidade: view.unidadeId, data: dia), ordem: start)
        }
    }

    private static func finish(
        _ id: Reserva.ID, _ status: Reserva.Status, at instant: Date, _ batch: ProjectionBatch, _ change: (inout ReservaView) -> Void
    ) async throws {
        guard var view = try await batch.get(ReservaView.self, reservas, id.description) else { return }
        view.status = status
        view.expiraEm = nil
        view.atualizadaEm = instant
        change(&view)
        try save(view, batch)
        batch.delete(prazos, view.id)
    }
}
