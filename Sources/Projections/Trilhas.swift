import Domain
public import EventStore
public import Foundation

/// Which events are a member's, as an index the LGPD export and the audit trail read instead
/// of the whole log: per member, every event they did (the actor), every event about them (its
/// payload's `usuarioId`) and every event of one of their bookings (its correlation id, once
/// the member's `ReservaSolicitada` is met). Positions, streams and types only: no personal
/// data, nothing to erase.
///
/// Two shapes, both read (``entradas(_:)``, ``dono(_:documento:)``): a booking's events that are
/// its member's in one document keyed by the booking (``Reserva``), with any other entry on its
/// own, which ``projection`` writes (one row a booking instead of four); and, as releases up to
/// `828edfe` wrote it, an entry per event (``Entrada``, keyed by member and event) with a
/// booking's member apart (``donos``).
///
/// It reads every event and no request waits for it (``Projection/esperada`` is false): a
/// reader takes the index up to its checkpoint and scans only the log's tail after it with
/// ``TrilhasReadModel/sujeitos(_:dono:)``, the same rule.
public enum TrilhasReadModel {
    public static let trilhas = "trilhas"
    /// Booking id → the member who asked for it: what releases up to `828edfe` read it from.
    /// Read still (a booking begun then goes on through it); no longer written since `0ab4004`
    /// (``projection`` names the member in the booking's ``Reserva``).
    public static let donos = "trilhas_reservas"

    /// One event of a member's trail.
    public struct Entrada: Codable, Sendable, Equatable {
        public let posicao: GlobalPosition
        public let stream: String
        public let tipo: String
        /// The member did it (the event's actor), rather than it happened about them.
        public let ator: Bool
    }

    /// The members `event` is about, each with whether they did it. `dono` answers who asked
    /// for a booking (by its id).
    public static func sujeitos(_ event: RecordedEvent, dono: (UUID) async throws -> String?) async throws -> [String: Bool] {
        try await sujeitos(event, metadata: event.metadata, dono: dono)
    }

    /// ``sujeitos(_:dono:)`` with the event's metadata read already.
    static func sujeitos(_ event: RecordedEvent, metadata: EventMetadata, dono: (UUID) async throws -> String?) async throws -> [String: Bool] {
        var sujeitos: [String: Bool] = [:]
        func marcar(_ membro: String, ator: Bool) { sujeitos[membro.lowercased()] = (sujeitos[membro.lowercased()] ?? false) || ator }
        if let ator = metadata.actor, Identificador.usuario(ator) { marcar(ator, ator: true) }
        if let usuarioId = usuarioId(event.data), Identificador.usuario(usuarioId) { marcar(usuarioId, ator: false) }
        if let membro = locatario(event.type, event.data), Identificador.usuario(membro) { marcar(membro, ator: false) }
        if let reserva = metadata.correlationId, let membro = try await dono(reserva) { marcar(membro, ator: false) }
        return sujeitos
    }

    /// Who asked for a booking (``donos``).
    public struct Dono: Codable, Sendable {
        public let usuario: String
    }

    /// A booking's document: the member who asked for it and, in global order, the entries of
    /// its events that are that member's. Keyed by the booking's id, grouped under the member.
    public struct Reserva: Codable, Sendable, Equatable {
        public let dono: String
        public var entradas: [Entrada]
    }

    /// The entries a document of the index holds: a booking's (``Reserva``) or one
    /// (``Entrada``).
    public static func entradas(_ doc: Data) throws -> [Entrada] {
        if let reserva = try? ReadModelJSON.decoder.decode(Reserva.self, from: doc) { return reserva.entradas }
        return [try ReadModelJSON.decoder.decode(Entrada.self, from: doc)]
    }

    /// Who asked for the booking `reserva`, from the index's documents as `documento` reads
    /// them (collection, key): its ``Reserva``, or the ``donos`` document of an earlier index.
    public static func dono(_ reserva: UUID, documento: (String, String) async throws -> Data?) async throws -> String? {
        let key = reserva.lowercasedString
        if let doc = try await documento(trilhas, key) { return try ReadModelJSON.decoder.decode(Reserva.self, from: doc).dono }
        return try await documento(donos, key).map { try ReadModelJSON.decoder.decode(Dono.self, from: $0).usuario }
    }

    /// The payload's top-level `usuarioId` (or a wallet's `titular`), when it has one (a cheap
    /// look before parsing).
    static func usuarioId(_ data: Data) -> String? {
        guard data.range(of: Data(#""usuarioId""#.utf8)) != nil || data.range(of: Data(#""titular""#.utf8)) != nil else { return nil }
        // Read in place (parsing the whole payload for it took a twenty-fifth of the projections
        // process under a load of bookings); what the reader refuses, the ordinary way.
        do throws(JSONReader.Failure) {
            return try JSONReader.read(data) { reader throws(JSONReader.Failure) -> String? in
                var names: [JSONReader.Quoted] = []
                var usuarioId: String??
                var titular: String??
                try reader.openObject()
                while let name = try reader.nextUniqueName(&names) {
                    if reader.matches(name, "usuarioId") {
                        usuarioId = .some(try campo(&reader))
                    } else if reader.matches(name, "titular") {
                        titular = .some(try campo(&reader))
                    } else {
                        try reader.skipValue()
                    }
                }
                reader.skipWhitespace()
                guard reader.atEnd else { throw reader.failure("more after the object") }
                return usuarioId ?? titular ?? nil
            }
        } catch {}
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return (object["usuarioId"] ?? object["titular"]) as? String
    }

    /// The member a lease's event is about (ADR 0016): the holder, nested in the block of a
    /// `BloqueioAgendado` (`bloqueio.locatario.usuarioId`) and at the top of a
    /// `BloqueioEncurtado` or `BloqueioRemovido` (`locatario.usuarioId`). Nil for any other
    /// type, for a company's lease and for another block.
    static func locatario(_ tipo: String, _ data: Data) -> String? {
        let aninhado = tipo == Espaco.Catalogo.bloqueioAgendado.type
        guard aninhado || tipo == Espaco.Catalogo.bloqueioEncurtado.type || tipo == Espaco.Catalogo.bloqueioRemovido.type,
            data.range(of: Data(#""locatario""#.utf8)) != nil
        else { return nil }
        func membro(_ reader: inout JSONReader) throws(JSONReader.Failure) -> String? {
            var primeira = true
            var usuarioId: String?
            try reader.openObject()
            while let name = try reader.nextName(&primeira) {
                if reader.matches(name, "usuarioId") { usuarioId = try campo(&reader) } else { try reader.skipValue() }
            }
            return usuarioId
        }
        return try? JSONReader.read(data) { reader throws(JSONReader.Failure) -> String? in
            var primeira = true
            var holder: String?
            try reader.openObject()
            while let name = try reader.nextName(&primeira) {
                if aninhado, reader.matches(name, "bloqueio") {
                    var primeiraDoBloqueio = true
                    try reader.openObject()
                    while let campo = try reader.nextName(&primeiraDoBloqueio) {
                        if reader.matches(campo, "locatario"), reader.peek() == UInt8(ascii: "{") {
                            holder = try membro(&reader)
                        } else {
                            try reader.skipValue()
                        }
                    }
                } else if !aninhado, reader.matches(name, "locatario"), reader.peek() == UInt8(ascii: "{") {
                    holder = try membro(&reader)
                } else {
                    try reader.skipValue()
                }
            }
            return holder
        }
    }

    /// A member's value: a string, or nil for any other value (skipped).
    private static func campo(_ reader: inout JSONReader) throws(JSONReader.Failure) -> String? {
        if reader.peek() == UInt8(ascii: "\"") { return try reader.string() }
        try reader.skipValue()
        return nil
    }

    /// The booking's document an event of it looks up (its correlation's), but for a
    /// booking's first event, which starts it (as ``projection`` decides).
    static func documentos(_ recorded: RecordedEvent) -> [(collection: String, key: String)] {
        let metadata = recorded.metadata
        guard let correlacao = metadata.correlationId, abreReserva(recorded, metadata) == nil else { return [] }
        return [(trilhas, correlacao.lowercasedString)]
    }

    /// The member who made the booking, when the event is a booking's first (its correlation
    /// is the new booking's id): its document starts here, with nothing to look up.
    static func abreReserva(_ recorded: RecordedEvent, _ metadata: EventMetadata) -> String? {
        guard recorded.type == Domain.Reserva.Catalogo.solicitada.type, let ator = metadata.actor, Identificador.usuario(ator) else {
            return nil
        }
        return ator
    }

    /// The order of a member's trail: the global order.
    public static func ordem(_ posicao: GlobalPosition) -> String {
        func fixo(_ n: Int64) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(0, 19 - digits.count)) + digits
        }
        return fixo(posicao.transaction) + "|" + fixo(posicao.sequence)
    }

    /// The writer: a booking's events that are its member's in its document (``Reserva``), one
    /// row a booking; any other entry on its own (``Entrada``). A booking whose first event an
    /// earlier release projected goes on in entries per event, its member found in ``donos``,
    /// which no longer gains documents: `25155a8`, the release before this one, finds a
    /// booking's member in its document first, so it follows on after a rollback to it; rolling
    /// back further needs `replay trilhas` with the older binary (docs/deploy.md).
    public static let projection = Projection(
        name: "trilhas", collections: [trilhas, donos], types: [], todos: true, esperada: false, documents: documentos
    ) { recorded, batch in
        let metadata = recorded.metadata
        let correlacao = metadata.correlationId
        var reserva: Reserva?
        if let correlacao {
            if let ator = abreReserva(recorded, metadata) {
                // A booking's first event: nothing to look up, and a read under load would
                // find nothing once per booking.
                reserva = Reserva(dono: ator.lowercased(), entradas: [])
            } else {
                reserva = try await batch.get(Reserva.self, trilhas, correlacao.lowercasedString)
            }
        }
        // `sujeitos` asks only for the correlation's member: the booking's document, or an
        // earlier index's `donos` document.
        let sujeitos = try await sujeitos(recorded, metadata: metadata) { id in
            if let reserva { return reserva.dono }
            return try await batch.get(Dono.self, donos, id.lowercasedString)?.usuario
        }
        let entrada = { (ator: Bool) in Entrada(posicao: recorded.position, stream: recorded.stream.rawValue, tipo: recorded.type, ator: ator) }
        for (membro, ator) in sujeitos {
            if let correlacao, var doc = reserva, doc.dono == membro {
                doc.entradas.append(entrada(ator))
                reserva = doc
                try batch.put(doc, trilhas, correlacao.lowercasedString, grupo: membro, ordem: ordem(doc.entradas[0].posicao))
            } else {
                try batch.put(
                    entrada(ator), trilhas, "\(membro)|\(recorded.eventId.lowercasedString)", grupo: membro, ordem: ordem(recorded.position))
            }
        }
    }
}

/// Whether a text is a member's id (a UUID), not a system actor (`system:pagamentos`).
enum Identificador {
    static func usuario(_ texto: String) -> Bool { texto.utf8.count == 36 && UUID(text: texto) != nil }
}
