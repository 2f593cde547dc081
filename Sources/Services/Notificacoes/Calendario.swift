public import Foundation

/// iCalendar (RFC 5545) invitations for bookings, attached to e-mails as `text/calendar`.
public enum Calendario {
    /// The `Content-Type` of an invitation from ``evento(uid:inicio:fim:resumo:local:descricao:criadoEm:organizador:cancelado:)``.
    public static let contentType = "text/calendar; method=REQUEST; charset=UTF-8"
    /// The `Content-Type` of its cancellation (`cancelado: true`).
    public static let contentTypeDeCancelamento = "text/calendar; method=CANCEL; charset=UTF-8"

    /// One VEVENT in a VCALENDAR with `METHOD:REQUEST` (`STATUS:CONFIRMED`, `SEQUENCE:0`, or the
    /// event's ``Evento/sequencia``), or, `cancelado`, with `METHOD:CANCEL` (`STATUS:CANCELLED`,
    /// `SEQUENCE` one above: calendars remove the event they had under that `uid`): UTF-8, CRLF, lines folded at 75 octets, times in UTC.
    ///
    /// `uid` must stay the same for the same booking (calendars update the event rather than add
    /// one); `criadoEm` is the DTSTAMP, from the caller's clock; `organizador` is an e-mail address.
    public static func evento(
        uid: String, inicio: Date, fim: Date, resumo: String, local: String?, descricao: String?,
        criadoEm: Date, organizador: String?, cancelado: Bool = false
    ) -> Data {
        eventos(
            [Evento(uid: uid, inicio: inicio, fim: fim, resumo: resumo, local: local, descricao: descricao)], criadoEm: criadoEm,
            organizador: organizador, cancelado: cancelado)
    }

    /// One event of ``eventos(_:criadoEm:organizador:cancelado:)``.
    public struct Evento: Sendable {
        public let uid: String
        public let inicio: Date
        public let fim: Date
        public let resumo: String
        public let local: String?
        public let descricao: String?
        /// The event's revision (RFC 5545 `SEQUENCE`): 0 as first sent, one more for each change
        /// of its time; its cancellation goes one above the last.
        public let sequencia: Int

        public init(uid: String, inicio: Date, fim: Date, resumo: String, local: String?, descricao: String?, sequencia: Int = 0) {
            self.uid = uid
            self.sequencia = max(0, sequencia)
            self.inicio = inicio
            self.fim = fim
            self.resumo = resumo
            self.local = local
            self.descricao = descricao
        }
    }

    /// ``evento(uid:inicio:fim:resumo:local:descricao:criadoEm:organizador:cancelado:)`` for
    /// several events in one calendar (the bookings of a series), each its own VEVENT and `uid`.
    public static func eventos(_ eventos: [Evento], criadoEm: Date, organizador: String?, cancelado: Bool = false) -> Data {
        var lines = [
            "BEGIN:VCALENDAR",
            "PRODID:-//CoworkFlow//Reservas//PT-BR",
            "VERSION:2.0",
            "CALSCALE:GREGORIAN",
            cancelado ? "METHOD:CANCEL" : "METHOD:REQUEST",
        ]
        for evento in eventos {
            lines += [
                "BEGIN:VEVENT",
                "UID:" + escaped(evento.uid),
                "DTSTAMP:" + utc(criadoEm),
                "DTSTART:" + utc(evento.inicio),
                "DTEND:" + utc(evento.fim),
                "SUMMARY:" + escaped(evento.resumo),
            ]
            if let local = evento.local { lines.append("LOCATION:" + escaped(local)) }
            if let descricao = evento.descricao { lines.append("DESCRIPTION:" + escaped(descricao)) }
            if let organizador {
                let address = String(String.UnicodeScalarView(organizador.unicodeScalars.filter { !"\r\n\";:,".unicodeScalars.contains($0) }))
                lines.append("ORGANIZER;CN=CoworkFlow:mailto:" + address)
            }
            lines += cancelado ? ["STATUS:CANCELLED", "SEQUENCE:\(evento.sequencia + 1)"] : ["STATUS:CONFIRMED", "SEQUENCE:\(evento.sequencia)"]
            lines += ["TRANSP:OPAQUE", "END:VEVENT"]
        }
        lines.append("END:VCALENDAR")
        return Data(lines.map(folded).joined().utf8)
    }

    /// A TEXT value (RFC 5545 §3.3.11): `\`, `;`, `,` escaped, line breaks as `\n`.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in MIMEText.lines(of: text).joined(separator: "\n") {
            switch character {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// A UTC DATE-TIME, e.g. `20260303T140000Z`.
    static func utc(_ date: Date) -> String {
        let utc = UTCFields(date)
        return MIMEText.padded(utc.year, 4) + MIMEText.padded(utc.month, 2) + MIMEText.padded(utc.day, 2) + "T"
            + MIMEText.padded(utc.hour, 2) + MIMEText.padded(utc.minute, 2) + MIMEText.padded(utc.second, 2) + "Z"
    }

    /// The content line with CRLF, folded so no line exceeds 75 octets (RFC 5545 §3.1):
    /// continuation lines start with a space, and no UTF-8 character is split.
    static func folded(_ line: String) -> String {
        var out = ""
        var octets = 0
        for character in line {
            let size = String(character).utf8.count
            if octets + size > 75 {
                out += "\r\n "
                octets = 1
            }
            out.append(character)
            octets += size
        }
        return out + "\r\n"
    }
}
