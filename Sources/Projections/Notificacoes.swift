public import Domain
import EventStore
public import Foundation

/// A notice in a member's in-app inbox.
public struct NotificacaoView: Codable, Sendable, Equatable {
    public let id: String
    public let tipo: Notificacao.Tipo
    public let titulo: String
    public let texto: String
    public let reservaId: String?
    public let canal: String
    /// `enviada` or `falhou` (the e-mail; the notice is in the inbox either way).
    public let status: String
    public let em: Date
}

/// Up to when a member's inbox is read.
public struct LeituraView: Codable, Sendable, Equatable {
    public let usuarioId: String
    public let ate: Date
}

/// A reminder waiting for its time: a confirmed booking that has not ended, a booked tour
/// (ADR 0020) until it is done, missed, cancelled or erased, or a member's place in a community
/// event (ADR 0019) until they give it up or the event is cancelled.
public struct LembreteView: Codable, Sendable, Equatable {
    /// The booking's id; for a tour, the tour's (``tourId`` says it is one); for an event, the
    /// event's (``encontroId``).
    public let reservaId: String
    public let usuarioId: String
    public let inicio: Date
    /// When the booking was last moved to this start (absent: never moved): the reminder of a
    /// moved booking is one of its own (a member reminded of the old time is reminded of the
    /// new one), and none is due when the move itself came inside the reminder's lead (its
    /// notice said the time).
    public let remarcadaEm: Date?
    /// A tour's reminder (ADR 0020): the prospect, who has no account, is reminded by e-mail.
    public let tourId: String?
    /// When the tour was booked, or the member got their place in the event: none is due for
    /// one inside the reminder's lead (its confirmation said the time).
    public let agendadoEm: Date?
    /// A member's place in a community event (ADR 0019); ``usuarioId`` is the member.
    public let encontroId: String?

    public init(
        reservaId: String, usuarioId: String, inicio: Date, remarcadaEm: Date? = nil, tourId: String? = nil, agendadoEm: Date? = nil,
        encontroId: String? = nil
    ) {
        self.reservaId = reservaId
        self.usuarioId = usuarioId
        self.inicio = inicio
        self.remarcadaEm = remarcadaEm
        self.tourId = tourId
        self.agendadoEm = agendadoEm
        self.encontroId = encontroId
    }
}

/// A letter or parcel still waiting at the front desk, for its reminder (ADR 0017): the entry
/// goes when it is handed over or cancelled, or when the reminder is sent.
public struct LembreteDeCorrespondenciaView: Codable, Sendable, Equatable {
    public let encomendaId: String
    public let usuarioId: String
    public let registradaEm: Date

    public init(encomendaId: String, usuarioId: String, registradaEm: Date) {
        self.encomendaId = encomendaId
        self.usuarioId = usuarioId
        self.registradaEm = registradaEm
    }
}

/// The in-app inbox (per member, newest first) and the reminder timers (by start).
public enum NotificacoesReadModel {
    public static let caixa = "notificacoes"
    public static let lembretes = "notificacoes_lembretes"
    /// Per member: up to when their inbox was read (``LeituraView``).
    public static let leitura = "notificacoes_leitura"

    /// A reminder sent (or failed) ends its booking's entry, unless the booking moved after the
    /// reminder went out: that one was the old time's (a timer read the entry just before the
    /// move), and the new time's reminder is still due (ADR 0021).
    static func lembreteFeito(_ reserva: UUID, em: Date, _ batch: ProjectionBatch) async throws {
        let key = reserva.lowercasedString
        if let remarcadaEm = try await batch.get(LembreteView.self, lembretes, key)?.remarcadaEm, em < remarcadaEm { return }
        batch.delete(lembretes, key)
    }

    /// A tour's entry in ``lembretes`` (beside the bookings', keyed by their ids).
    public static func chaveDoTour(_ tourId: String) -> String { "tour-\(tourId.lowercased())" }

    /// The group of ``lembretes`` that holds the parcels waiting (``LembreteDeCorrespondenciaView``),
    /// oldest first.
    public static let correspondenciaAguardando = "correspondencia"

    /// The id of the reminder of a parcel left waiting: the notice is written under it (once,
    /// whichever replica sends it), and its parcel's entry is keyed by it, so the notice ends
    /// the entry.
    public static func idDoLembreteDeCorrespondencia(_ encomendaId: UUID) -> UUID {
        EventIDs.derived(["lembrete-encomenda", encomendaId.lowercasedString])
    }

    static func chaveDaCorrespondencia(_ notificacaoId: UUID) -> String { "correspondencia-\(notificacaoId.lowercasedString)" }

    /// The id of a member's reminder of a community event, which also keys their entry (as
    /// ``idDoLembreteDeCorrespondencia(_:)`` does for a parcel).
    public static func idDoLembreteDeEncontro(_ encontroId: UUID, usuario: String) -> UUID {
        EventIDs.derived(["lembrete-encontro", encontroId.lowercasedString, usuario])
    }

    static func chaveDoEncontro(_ notificacaoId: UUID) -> String { "encontro-\(notificacaoId.lowercasedString)" }

    /// The tour a prospect's notice went to (`tour:<id>`, as ``Aviso`` addresses them).
    static func tourDoDestinatario(_ usuarioId: String) -> String? {
        usuarioId.hasPrefix("tour:") ? String(usuarioId.dropFirst("tour:".count)) : nil
    }

    /// Newest first: the order key counts down.
    static func recentesPrimeiro(_ instante: Date) -> String {
        // Not `String(format: "%012d")`: `%d` takes 32 bits, and this number does not fit (its
        // cut was negative, and negative strings sort backwards: oldest first).
        let segundos = String(max(0, 99_999_999_999 - Int64(instante.timeIntervalSince1970)))
        return String(repeating: "0", count: max(0, 12 - segundos.count)) + segundos
    }

    public static let projection = Projection(
        name: "notificacoes", collections: [caixa, lembretes, leitura],
        types: Set(
            [
                Notificacao.Catalogo.enviada.type, Notificacao.Catalogo.falhou.type, Notificacao.Catalogo.lidas.type,
                Reserva.Catalogo.confirmada.type,
                Reserva.Catalogo.cancelada.type, Reserva.Catalogo.concluida.type, Reserva.Catalogo.remarcada.type,
                Checkin.Catalogo.noShowRegistrado.type,
            ] + Tour.Catalogo.todos.map(\.type) + Encomenda.Catalogo.todos.map(\.type)
                + [Encontro.Catalogo.inscrito.type, Encontro.Catalogo.vagaConcedida.type, Encontro.Catalogo.desistiu.type])
    ) { recorded, batch in
        let decoder = EventJSON.decoder
        switch recorded.type {
        case Notificacao.Catalogo.lidas:
            guard case .lidas(let e)? = try Notificacao.Event.decode(type: recorded.type, data: recorded.data, using: decoder) else { return }
            let antes = try await batch.get(LeituraView.self, leitura, e.usuarioId)?.ate
            try batch.put(LeituraView(usuarioId: e.usuarioId, ate: max(antes ?? e.ate, e.ate)), leitura, e.usuarioId)
        case Notificacao.Catalogo.enviada, Notificacao.Catalogo.falhou:
            guard let event = try Notificacao.Event.decode(type: recorded.type, data: recorded.data, using: decoder) else { return }
            let view: NotificacaoView
            switch event {
            case .lidas: return
            case .enviada(let e):
                view = NotificacaoView(
                    id: e.notificacaoId.lowercasedString, tipo: e.tipo, titulo: e.titulo, texto: e.texto,
                    reservaId: e.reservaId?.lowercasedString, canal: e.canal, status: "enviada", em: e.em)
                if e.tipo == .lembrete, let reserva = e.reservaId { try await lembreteFeito(reserva, em: e.em, batch) }
                if e.tipo == .lembrete, e.reservaId == nil, let tour = tourDoDestinatario(e.usuarioId) { batch.delete(lembretes, chaveDoTour(tour)) }
                if e.tipo == .correspondencia { batch.delete(lembretes, chaveDaCorrespondencia(e.notificacaoId)) }
                if e.tipo == .encontro { batch.delete(lembretes, chaveDoEncontro(e.notificacaoId)) }
            case .falhou(let e):
                view = NotificacaoView(
                    id: e.notificacaoId.lowercasedString, tipo: e.tipo, titulo: e.titulo, texto: e.texto,
                    reservaId: e.reservaId?.lowercasedString, canal: e.canal, status: "falhou", em: e.em)
                if e.tipo == .lembrete, let reserva = e.reservaId { try await lembreteFeito(reserva, em: e.em, batch) }
                if e.tipo == .lembrete, e.reservaId == nil, let tour = tourDoDestinatario(e.usuarioId) { batch.delete(lembretes, chaveDoTour(tour)) }
                if e.tipo == .correspondencia { batch.delete(lembretes, chaveDaCorrespondencia(e.notificacaoId)) }
                if e.tipo == .encontro { batch.delete(lembretes, chaveDoEncontro(e.notificacaoId)) }
            }
            let usuario: String =
                switch event {
                case .enviada(let e): e.usuarioId
                case .falhou(let e): e.usuarioId
                case .lidas(let e): e.usuarioId
                }
            // Newest first; within one second (several e-mails of one event go out together), the
            // later event first.
            let depois = String(format: "%019lld", Int64.max - recorded.position.sequence)
            try batch.put(view, caixa, view.id, grupo: usuario, ordem: recentesPrimeiro(view.em) + depois + view.id)
        case Reserva.Catalogo.confirmada:
            let confirmada = try decoder.decode(Reserva.Confirmada.self, from: recorded.data)
            guard let first = try await batch.history(StreamNames.reserva(confirmada.reservaId)).first,
                let reserva = try? decoder.decode(Reserva.Solicitada.self, from: first.data),
                confirmada.em < reserva.intervalo.start  // confirmed once started: nothing to remind
            else { return }
            let iso = ISO8601DateFormatter().string(from: reserva.intervalo.start)
            try batch.put(
                LembreteView(reservaId: confirmada.reservaId.description, usuarioId: reserva.usuarioId, inicio: reserva.intervalo.start),
                lembretes, confirmada.reservaId.description, grupo: "prazo", ordem: iso)
        case Reserva.Catalogo.remarcada:
            // Only a confirmed booking moves, and only before it starts.
            let e = try decoder.decode(Reserva.Remarcada.self, from: recorded.data)
            guard e.em < e.para.start else { return }
            try batch.put(
                LembreteView(reservaId: e.reservaId.description, usuarioId: e.usuarioId, inicio: e.para.start, remarcadaEm: e.em),
                lembretes, e.reservaId.description, grupo: "prazo", ordem: ISO8601DateFormatter().string(from: e.para.start))
        case Tour.Catalogo.agendado:
            // Booked before it starts (the team may record one already under way: nothing to remind).
            guard case .agendado(let a)? = try Tour.Event.decode(type: recorded.type, data: recorded.data, using: decoder), a.em < a.inicio
            else { return }
            let id = a.tourId.description
            try batch.put(
                LembreteView(reservaId: id, usuarioId: "tour:\(id)", inicio: a.inicio, tourId: id, agendadoEm: a.em),
                lembretes, chaveDoTour(id), grupo: "prazo", ordem: ISO8601DateFormatter().string(from: a.inicio))
        case Tour.Catalogo.cancelado, Tour.Catalogo.realizado, Tour.Catalogo.ausente, Tour.Catalogo.dadosApagados:
            struct Ref: Decodable { let tourId: UUID }
            batch.delete(lembretes, chaveDoTour(try decoder.decode(Ref.self, from: recorded.data).tourId.lowercasedString))
        case Encontro.Catalogo.inscrito, Encontro.Catalogo.vagaConcedida:
            // A place (not a turn on the waiting list), taken before the event starts.
            let (encontro, usuario, em): (Encontro.ID, String, Date)
            switch try Encontro.Event.decode(type: recorded.type, data: recorded.data, using: decoder) {
            case .inscrito(let e) where !e.naEspera: (encontro, usuario, em) = (e.encontroId, e.usuarioId, e.em)
            case .vagaConcedida(let e): (encontro, usuario, em) = (e.encontroId, e.usuarioId, e.em)
            default: return
            }
            guard let first = try await batch.history(StreamNames.encontro(encontro)).first,
                case .publicado(let publicado)? = try Encontro.Event.decode(type: first.type, data: first.data, using: decoder),
                em < publicado.inicio
            else { return }
            let id = encontro.rawValue
            try batch.put(
                LembreteView(
                    reservaId: id.lowercasedString, usuarioId: usuario, inicio: publicado.inicio, agendadoEm: em, encontroId: id.lowercasedString),
                lembretes, chaveDoEncontro(idDoLembreteDeEncontro(id, usuario: usuario)), grupo: "prazo",
                ordem: ISO8601DateFormatter().string(from: publicado.inicio))
        case Encontro.Catalogo.desistiu:
            // Given up, taken off the waiting list, the event cancelled or the account erased.
            let e = try decoder.decode(Encontro.Desistiu.self, from: recorded.data)
            batch.delete(lembretes, chaveDoEncontro(idDoLembreteDeEncontro(e.encontroId.rawValue, usuario: e.usuarioId)))
        case Encomenda.Catalogo.registrada:
            let e = try decoder.decode(Encomenda.Registrada.self, from: recorded.data)
            let id = e.encomendaId.rawValue
            try batch.put(
                LembreteDeCorrespondenciaView(encomendaId: id.lowercasedString, usuarioId: e.usuarioId, registradaEm: e.em),
                lembretes, chaveDaCorrespondencia(idDoLembreteDeCorrespondencia(id)), grupo: correspondenciaAguardando,
                ordem: ISO8601DateFormatter().string(from: e.em) + id.lowercasedString)
        case Encomenda.Catalogo.retirada, Encomenda.Catalogo.cancelada:
            struct Ref: Decodable { let encomendaId: UUID }
            let ref = try decoder.decode(Ref.self, from: recorded.data)
            batch.delete(lembretes, chaveDaCorrespondencia(idDoLembreteDeCorrespondencia(ref.encomendaId)))
        case Reserva.Catalogo.cancelada, Reserva.Catalogo.concluida, Checkin.Catalogo.noShowRegistrado:
            struct Ref: Decodable { let reservaId: UUID }
            let ref = try decoder.decode(Ref.self, from: recorded.data)
            batch.delete(lembretes, ref.reservaId.lowercasedString)
        default:
            return
        }
    }
}
