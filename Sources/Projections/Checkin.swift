public import Domain
public import EventStore
public import Foundation

extension StreamNames {
    /// The check-in of one booking: `checkin-<reservaId>`.
    public static func checkin(_ id: Reserva.ID) -> StreamName { StreamName(category: "checkin", id: id.description) }
}

/// A booking's check-in as its member and the front desk read it. `id` is the booking's id.
public struct CheckinView: Codable, Sendable, Equatable {
    public let id: String
    public let reservaId: String
    public let usuarioId: String
    public let espacoId: String
    public let unidadeId: String
    /// The booking's time (moved with it, `CheckinRemarcado`).
    public var inicio: Date
    public var fim: Date
    public var status: Checkin.Status
    /// While the check-in is awaited: the code and the QR payload. Absent afterwards.
    public var codigo: String?
    public var qr: String?
    /// When check-in is allowed, both ends included.
    public var janela: Checkin.Janela
    public let liberadoEm: Date
    public var checkinEm: Date?
    public var checkoutEm: Date?
    public var atualizadoEm: Date

    public init(_ e: Checkin.Liberado) {
        id = e.reservaId.description
        reservaId = e.reservaId.description
        usuarioId = e.usuarioId
        espacoId = e.espacoId.lowercasedString
        unidadeId = e.unidadeId.lowercasedString
        inicio = e.inicio
        fim = e.fim
        status = .aguardando
        codigo = e.codigo.texto
        qr = e.qr
        janela = e.janela
        liberadoEm = e.em
        atualizadoEm = e.em
    }

    /// The view of an aggregate's state (what a command answers before the projection catches up).
    public init(_ dados: Checkin.Dados) {
        self.init(dados.liberacao)
        status = dados.status
        checkinEm = dados.checkinEm
        checkoutEm = dados.checkoutEm
        atualizadoEm = dados.atualizadoEm
        if status != .aguardando {
            codigo = nil
            qr = nil
        }
    }

    /// Folds one event after ``Checkin/Liberado`` into the view, as the aggregate's `evolve` does.
    public mutating func registrar(_ event: Checkin.Event) {
        switch event {
        case .liberado: return
        case .remarcado(let e):
            inicio = e.inicio
            fim = e.fim
            janela = e.janela
            atualizadoEm = e.em
        case .realizado(let e):
            status = .presente
            checkinEm = e.em
            atualizadoEm = e.em
        case .checkoutRealizado(let e):
            status = .encerrado
            checkoutEm = e.em
            atualizadoEm = e.em
        case .noShowRegistrado(let e):
            status = .noShow
            atualizadoEm = e.em
        case .revogado(let e):
            status = .revogado
            atualizadoEm = e.em
        }
        if status != .aguardando {
            codigo = nil
            qr = nil
        }
    }
}

/// Which booking an awaited code belongs to (codes are short, so two bookings may share one).
public struct CheckinCodigoView: Codable, Sendable, Equatable {
    public let reservaId: String
    public let usuarioId: String
    public let janela: Checkin.Janela
}

/// The no-show timer of a booking awaiting check-in: due when its window closes.
public struct NoShowPrazoView: Codable, Sendable, Equatable {
    public let reservaId: String
    public let vence: Date
    /// The trace of the check-in code's event (tracing on): a no-show continues it.
    public var traceparent: String?
}

public enum CheckinReadModel {
    public static let checkins = "checkins"
    public static let codigos = "checkin_codigos"
    public static let prazos = "checkin_prazos"

    /// `checkins` (by booking id, grouped by member, ordered by start), `checkin_codigos` (the
    /// awaited codes, grouped by code, keyed `<codigo>|<reservaId>`) and `checkin_prazos` (the
    /// no-show timers in group `prazo`, ordered by due time). A code and its timer go when the
    /// check-in happens, is revoked or lapses.
    public static let projection = Projection(name: "checkin", collections: [checkins, codigos, prazos], types: Checkin.Catalogo.todos.types) {
        recorded, batch in
        guard let event = try Checkin.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) else { return }
        switch event {
        case .liberado(let e):
            let view = CheckinView(e)
            try save(view, batch)
            try batch.put(
                CheckinCodigoView(reservaId: view.id, usuarioId: view.usuarioId, janela: e.janela), codigos, codigoKey(e.codigo, view.id),
                grupo: e.codigo.texto, ordem: ReservasReadModel.ordem(e.janela.abreEm))
            // No timer for a code issued when its booking was over (no no-show follows it).
            if e.janela.fechaEm > e.em {
                try batch.put(
                    NoShowPrazoView(reservaId: view.id, vence: e.janela.fechaEm, traceparent: MetadataJSON.traceparent(in: recorded.metadataJSON)),
                    prazos, view.id, grupo: "prazo",
                    ordem: ReservasReadModel.ordem(e.janela.fechaEm))
            }
        case .remarcado(let e):
            // The same code, its window and no-show timer moved with the booking.
            guard var view = try await batch.get(CheckinView.self, checkins, e.reservaId.description), view.status == .aguardando else { return }
            view.registrar(event)
            try save(view, batch)
            try batch.put(
                CheckinCodigoView(reservaId: view.id, usuarioId: view.usuarioId, janela: e.janela), codigos, codigoKey(e.codigo, view.id),
                grupo: e.codigo.texto, ordem: ReservasReadModel.ordem(e.janela.abreEm))
            try batch.put(
                NoShowPrazoView(reservaId: view.id, vence: e.janela.fechaEm, traceparent: MetadataJSON.traceparent(in: recorded.metadataJSON)),
                prazos, view.id, grupo: "prazo", ordem: ReservasReadModel.ordem(e.janela.fechaEm))
        case .realizado(let e), .checkoutRealizado(let e), .noShowRegistrado(let e), .revogado(let e):
            guard var view = try await batch.get(CheckinView.self, checkins, e.reservaId.description) else { return }
            let awaited = view.status == .aguardando ? view.codigo.flatMap(Checkin.Codigo.init) : nil
            view.registrar(event)
            try save(view, batch)
            if let awaited, view.status != .aguardando {
                batch.delete(codigos, codigoKey(awaited, view.id))
                batch.delete(prazos, view.id)
            }
        }
    }

    public static func codigoKey(_ codigo: Checkin.Codigo, _ reservaId: String) -> String { "\(codigo.texto)|\(reservaId)" }

    private static func save(_ view: CheckinView, _ batch: ProjectionBatch) throws {
        try batch.put(view, checkins, view.id, grupo: view.usuarioId, ordem: ReservasReadModel.ordem(view.inicio))
    }
}
