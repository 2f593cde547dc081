public import Foundation
public import Services

/// Renders an ``EmailMessage`` as RFC 5322 / MIME bytes, the same bytes every ``Mailer`` hands over.
///
/// Output is 7-bit ASCII with CRLF line endings: non-ASCII header text as RFC 2047 encoded-words
/// (UTF-8, base64), text parts quoted-printable, attachments base64 in 76-column lines. Nothing
/// is random: boundaries are fixed (they cannot occur in quoted-printable or base64 content).
public enum MIME {
    static let crlf = "\r\n"
    static let mixedBoundary = "=_CoworkFlow_mixed"
    static let alternativeBoundary = "=_CoworkFlow_alternative"

    public static func render(_ message: EmailMessage) throws -> Data {
        guard !message.to.isEmpty else { throw invalid("the message has no recipient") }
        for address in [message.from] + message.to where !EmailAddress.isValid(address.address) {
            throw invalid("\"\(address.address)\" is not an ASCII local@domain address")
        }
        var lines = [
            header("From", addressAtoms([message.from])),
            header("To", addressAtoms(message.to)),
            header("Subject", textAtoms(message.subject)),
            "Date: " + date(message.date),
            "Message-ID: " + messageID(message),
            "MIME-Version: 1.0",
        ]
        let body = entity(message)
        lines += body.headers
        return Data((lines.joined(separator: crlf) + crlf + crlf + body.content + crlf).utf8)
    }

    /// `data` made safe for the SMTP DATA phase: a `.` doubled at the start of every line, and a
    /// final CRLF. The terminating `.` line is not included.
    public static func dotStuffed(_ data: Data) -> Data {
        var out = Data(capacity: data.count + 64)
        var atLineStart = true
        for byte in data {
            if atLineStart && byte == UInt8(ascii: ".") { out.append(UInt8(ascii: ".")) }
            out.append(byte)
            atLineStart = byte == UInt8(ascii: "\n")
        }
        if !out.isEmpty && !out.endsWithCRLF { out.append(contentsOf: [13, 10]) }
        return out
    }

    // MARK: - Structure

    struct Entity {
        var headers: [String]
        /// Encoded content, CRLF-separated, without a final CRLF (that belongs to what follows).
        var content: String
    }

    static func entity(_ message: EmailMessage) -> Entity {
        var text = textEntity(message.text, subtype: "plain")
        if let html = message.html {
            text = multipart("alternative", boundary: alternativeBoundary, [text, textEntity(html, subtype: "html")])
        }
        guard !message.attachments.isEmpty else { return text }
        return multipart("mixed", boundary: mixedBoundary, [text] + message.attachments.map(attachmentEntity))
    }

    static func multipart(_ subtype: String, boundary: String, _ parts: [Entity]) -> Entity {
        var content: [String] = []
        for part in parts {
            content.append("--" + boundary)
            content += part.headers
            content.append("")
            content.append(part.content)
        }
        content.append("--" + boundary + "--")
        return Entity(headers: ["Content-Type: multipart/\(subtype); boundary=\"\(boundary)\""], content: content.joined(separator: crlf))
    }

    static func textEntity(_ text: String, subtype: String) -> Entity {
        Entity(
            headers: ["Content-Type: text/\(subtype); charset=UTF-8", "Content-Transfer-Encoding: quoted-printable"],
            content: quotedPrintable(text))
    }

    static func attachmentEntity(_ attachment: EmailAttachment) -> Entity {
        let type = String(String.UnicodeScalarView(attachment.contentType.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }))
        let name = String(String.UnicodeScalarView(attachment.filename.unicodeScalars.filter { !"\"\\\r\n".unicodeScalars.contains($0) }))
        let isPlain = name.unicodeScalars.allSatisfy { $0.value >= 32 && $0.value < 127 }
        let filename = isPlain ? "filename=\"\(name)\"" : "filename*=UTF-8''" + percentEncoded(name)
        return Entity(
            headers: [
                header("Content-Type", (type + (isPlain ? "; name=\"\(name)\"" : "")).split(separator: " ").map(String.init)),
                "Content-Transfer-Encoding: base64",
                header("Content-Disposition", ["attachment;", filename]),
            ],
            content: base64Lines(attachment.data).joined(separator: crlf))
    }

    // MARK: - Encodings

    /// Base64 in lines of at most 76 characters.
    static func base64Lines(_ data: Data) -> [String] {
        let encoded = Array(data.base64EncodedString().utf8)
        return stride(from: 0, to: encoded.count, by: 76).map { String(decoding: encoded[$0..<min($0 + 76, encoded.count)], as: UTF8.self) }
    }

    /// Quoted-printable (RFC 2045 §6.7) of UTF-8 text; any line break becomes a hard CRLF break,
    /// encoded lines stay within 76 characters. Leading dots are left to ``dotStuffed(_:)``.
    static func quotedPrintable(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        return MIMEText.lines(of: text).map { line in
            let bytes = Array(line.utf8)
            var out: [UInt8] = []
            var length = 0
            for (index, byte) in bytes.enumerated() {
                let isLast = index == bytes.count - 1
                let literal = (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "=")) || ((byte == 32 || byte == 9) && !isLast)
                let token = literal ? [byte] : [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
                // 75 characters plus the soft break's "=" (unless this is the line's last token).
                if length + token.count > (isLast ? 76 : 75) {
                    out += [UInt8(ascii: "="), 13, 10]
                    length = 0
                }
                out += token
                length += token.count
            }
            return String(decoding: out, as: UTF8.self)
        }.joined(separator: crlf)
    }

    /// Header text as atoms: ASCII words, or RFC 2047 encoded-words when any character is not
    /// printable ASCII. Line breaks become spaces (no header injection).
    static func textAtoms(_ text: String) -> [String] {
        let flat = String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\r" || $0 == "\n" ? " " : $0 }))
        let ascii = flat.unicodeScalars.allSatisfy { $0.value >= 32 && $0.value < 127 } && !flat.contains("=?")
        return ascii ? flat.split(separator: " ", omittingEmptySubsequences: false).map(String.init) : encodedWords(flat)
    }

    /// `=?UTF-8?B?...?=` words of at most 39 bytes of text each (64 characters), never splitting a character.
    static func encodedWords(_ text: String) -> [String] {
        var words: [String] = []
        var chunk = Data()
        for character in text {
            let bytes = Data(String(character).utf8)
            if chunk.count + bytes.count > 39, !chunk.isEmpty {
                words.append("=?UTF-8?B?" + chunk.base64EncodedString() + "?=")
                chunk = Data()
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append("=?UTF-8?B?" + chunk.base64EncodedString() + "?=") }
        return words
    }

    static func addressAtoms(_ addresses: [EmailAddress]) -> [String] {
        var atoms: [String] = []
        for (index, address) in addresses.enumerated() {
            var these: [String] = []
            if let name = address.name, !name.isEmpty {
                let printable = name.unicodeScalars.allSatisfy { $0.value >= 32 && $0.value < 127 }
                if printable && !name.contains("=?") {
                    let atext = name.unicodeScalars.allSatisfy {
                        CharacterSet.alphanumerics.contains($0) || " !#$%&'*+-/=?^_`{|}~".unicodeScalars.contains($0)
                    }
                    these =
                        atext
                        ? [name] : ["\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""]
                } else {
                    these = textAtoms(name)
                }
            }
            these.append("<\(address.address)>" + (index < addresses.count - 1 ? "," : ""))
            atoms += these
        }
        return atoms
    }

    /// `Name: atom atom ...`, folded (CRLF + space) between atoms to keep lines within 78 characters.
    static func header(_ name: String, _ atoms: [String]) -> String {
        var out = name + ":"
        var lineLength = out.count
        for atom in atoms {
            if lineLength + 1 + atom.count > 78 && lineLength > name.count + 1 {
                out += crlf
                lineLength = 0
            }
            out += " " + atom
            lineLength += 1 + atom.count
        }
        return out
    }

    static func messageID(_ message: EmailMessage) -> String {
        var id = String(message.messageId.unicodeScalars.filter { $0.value > 32 && $0.value < 127 && $0 != "<" && $0 != ">" })
        if !id.contains("@") { id += "@" + (message.from.address.split(separator: "@").last.map(String.init) ?? "coworkflow.local") }
        return "<\(id)>"
    }

    /// RFC 3986 percent-encoding of UTF-8 (unreserved characters kept), for RFC 2231 parameters.
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var out = String.UnicodeScalarView()
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 128 && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-._~".unicodeScalars.contains(scalar)) {
                out.append(scalar)
            } else {
                out += ["%", hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(out)
    }

    /// RFC 5322 date-time in UTC, e.g. `Tue, 03 Mar 2026 14:00:00 +0000`.
    static func date(_ date: Date) -> String {
        let utc = UTCFields(date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(days[(utc.weekday - 1) % 7]), \(MIMEText.padded(utc.day, 2)) \(months[(utc.month - 1) % 12]) \(MIMEText.padded(utc.year, 4)) "
            + "\(MIMEText.padded(utc.hour, 2)):\(MIMEText.padded(utc.minute, 2)):\(MIMEText.padded(utc.second, 2)) +0000"
    }

    static func invalid(_ detail: String) -> MailerError {
        MailerError(.invalidMessage, stage: .render, detail: detail)
    }
}

extension Data {
    var endsWithCRLF: Bool { count >= 2 && self[index(endIndex, offsetBy: -2)] == 13 && self[index(endIndex, offsetBy: -1)] == 10 }
}

/// A message read back from its bytes: headers, the decoded subject, text and attachments.
///
/// Good enough for tests and for the `.eml` files of ``FileMailer``; not a general MIME parser
/// (no charsets but UTF-8, US-ASCII and ISO-8859-1, no message/rfc822 parts).
public struct ParsedEmail: Sendable, Equatable {
    public struct Header: Sendable, Equatable {
        public let name: String
        /// Unfolded, not decoded.
        public let value: String
    }

    public let headers: [Header]
    /// The first `text/plain` part that is not an attachment, line breaks as `\n`.
    public let text: String?
    public let html: String?
    public let attachments: [EmailAttachment]

    public init(raw: Data) throws {
        let entity = try MIMEEntity(String(decoding: raw, as: UTF8.self), singlePart: true)
        headers = entity.headers
        var text: String?
        var html: String?
        var attachments: [EmailAttachment] = []
        try entity.walk { part in
            let type = part.contentType
            if let filename = part.filename ?? (part.disposition == "attachment" ? "" : nil) {
                attachments.append(EmailAttachment(filename: filename, contentType: type.withoutName, data: try part.decoded()))
            } else if type.value == "text/plain", text == nil {
                text = try part.decodedText()
            } else if type.value == "text/html", html == nil {
                html = try part.decodedText()
            }
        }
        self.text = text
        self.html = html
        self.attachments = attachments
    }

    /// The first header called `name` (case-insensitive), unfolded, not decoded.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The `Subject`, encoded-words decoded.
    public var subject: String? { header("Subject").map(MIMEEntity.decodeWords) }
    /// The `From`, encoded-words decoded.
    public var from: EmailAddress? { header("From").flatMap { EmailAddress(parsing: MIMEEntity.decodeWords($0)) } }
    /// The `To` addresses, encoded-words decoded.
    public var to: [EmailAddress] {
        guard let value = header("To") else { return [] }
        return MIMEEntity.splitOutsideQuotes(value, on: ",").compactMap { EmailAddress(parsing: MIMEEntity.decodeWords($0)) }
    }
    public var messageId: String? { header("Message-ID") }
}

/// A reading of the message bytes failed: what was wrong.
public struct MIMEParseError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// One MIME entity: headers and raw content, children when multipart.
struct MIMEEntity {
    struct ContentType {
        /// Lowercased, e.g. `text/calendar`.
        var value: String
        /// As written.
        var rawValue: String
        /// Parameters in their order, names lowercased, values unquoted.
        var parameters: [(name: String, value: String)]

        func parameter(_ name: String) -> String? { parameters.first { $0.name == name }?.value }

        /// The type with its parameters, `name` left out: what ``EmailAttachment/contentType`` holds.
        var withoutName: String {
            let kept = parameters.filter { $0.name != "name" && $0.name != "name*" }.map { parameter in
                let special = parameter.value.isEmpty || parameter.value.contains { " ()<>@,;:\\\"/[]?=".contains($0) }
                return parameter.name + "=" + (special ? "\"\(parameter.value)\"" : parameter.value)
            }
            return ([rawValue] + kept).joined(separator: "; ")
        }
    }

    let headers: [ParsedEmail.Header]
    let content: String

    /// `singlePart`: the whole message, whose final CRLF the renderer adds and parsing drops.
    init(_ text: String, singlePart: Bool = false) throws {
        let separator = text.range(of: "\r\n\r\n")
        let head = separator.map { String(text[..<$0.lowerBound]) } ?? text
        var body = separator.map { String(text[$0.upperBound...]) } ?? ""
        if singlePart && body.hasSuffix("\r\n") { body.removeLast() }  // "\r\n" is one Character
        var headers: [ParsedEmail.Header] = []
        for line in head.components(separatedBy: "\r\n") where !line.isEmpty {
            if line.first == " " || line.first == "\t", let last = headers.popLast() {
                headers.append(ParsedEmail.Header(name: last.name, value: last.value + line))
            } else if let colon = line.firstIndex(of: ":") {
                headers.append(
                    ParsedEmail.Header(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            } else {
                throw MIMEParseError(description: "a header line without a colon: \(line.prefix(60))")
            }
        }
        self.headers = headers
        content = body
    }

    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    var contentType: ContentType { Self.parameterized(header("Content-Type") ?? "text/plain; charset=us-ascii") }
    var disposition: String? { header("Content-Disposition").map { Self.parameterized($0).value } }

    var filename: String? {
        let disposition = header("Content-Disposition").map(Self.parameterized)
        if let encoded = disposition?.parameter("filename*") ?? contentType.parameter("name*") {
            let value = encoded.components(separatedBy: "'").last ?? encoded
            return value.removingPercentEncoding ?? value
        }
        return (disposition?.parameter("filename") ?? contentType.parameter("name")).map(Self.decodeWords)
    }

    /// Calls `body` for every leaf entity, depth first.
    func walk(_ body: (MIMEEntity) throws -> Void) throws {
        let type = contentType
        guard type.value.hasPrefix("multipart/") else { return try body(self) }
        guard let boundary = type.parameter("boundary") else { throw MIMEParseError(description: "\(type.value) without a boundary") }
        var parts: [[String]] = []
        var current: [String]?
        for line in content.components(separatedBy: "\r\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "--" + boundary || trimmed == "--" + boundary + "--" {
                if let current { parts.append(current) }
                current = trimmed.hasSuffix(boundary + "--") ? nil : []
                if current == nil { break }
            } else {
                current?.append(line)
            }
        }
        for part in parts { try MIMEEntity(part.joined(separator: "\r\n")).walk(body) }
    }

    /// The content with its transfer encoding undone.
    func decoded() throws -> Data {
        switch header("Content-Transfer-Encoding")?.lowercased() {
        case "base64":
            guard let data = Data(base64Encoded: content.filter { !$0.isWhitespace }) else {
                throw MIMEParseError(description: "base64 content that does not decode")
            }
            return data
        case "quoted-printable":
            return Self.decodeQuotedPrintable(content)
        default:
            return Data(content.utf8)
        }
    }

    func decodedText() throws -> String {
        let data = try decoded()
        let text =
            contentType.parameter("charset")?.lowercased() == "iso-8859-1"
            ? String(decoding: data.map { UInt16($0) }, as: UTF16.self) : String(decoding: data, as: UTF8.self)
        return text.replacingOccurrences(of: "\r\n", with: "\n")
    }

    static func decodeQuotedPrintable(_ text: String) -> Data {
        var out = Data()
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "="), index + 2 < bytes.count, bytes[index + 1] == 13, bytes[index + 2] == 10 {
                index += 3
            } else if byte == UInt8(ascii: "="), index + 2 < bytes.count,
                let value = UInt8(String(decoding: bytes[index + 1...index + 2], as: UTF8.self), radix: 16)
            {
                out.append(value)
                index += 3
            } else {
                out.append(byte)
                index += 1
            }
        }
        return out
    }

    /// Undoes RFC 2047 encoded-words (B and Q; UTF-8, US-ASCII, ISO-8859-1); the whitespace
    /// between two adjacent encoded-words goes away.
    static func decodeWords(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        var lastWasEncoded = false
        while let start = rest.range(of: "=?") {
            let before = rest[..<start.lowerBound]
            let fields = rest[start.upperBound...].split(separator: "?", maxSplits: 3, omittingEmptySubsequences: false)
            if fields.count == 4, fields[3].hasPrefix("="), let decoded = decodeWord(charset: fields[0], encoding: fields[1], text: fields[2]) {
                if !(lastWasEncoded && before.allSatisfy { $0 == " " || $0 == "\t" }) { out += before }
                out += decoded
                lastWasEncoded = true
                rest = fields[3].dropFirst()
            } else {
                out += before + "=?"
                lastWasEncoded = false
                rest = rest[start.upperBound...]
            }
        }
        return out + rest
    }

    static func decodeWord(charset: Substring, encoding: Substring, text: Substring) -> String? {
        let data: Data?
        switch encoding.uppercased() {
        case "B": data = Data(base64Encoded: String(text))
        case "Q": data = decodeQuotedPrintable(text.replacingOccurrences(of: "_", with: " "))
        default: data = nil
        }
        guard let data else { return nil }
        switch charset.lowercased() {
        case "utf-8", "us-ascii": return String(decoding: data, as: UTF8.self)
        case "iso-8859-1": return String(decoding: data.map { UInt16($0) }, as: UTF16.self)
        default: return nil
        }
    }

    /// `type/subtype; a=b; c="d"` as its value (lowercased) and parameters.
    static func parameterized(_ header: String) -> ContentType {
        let pieces = splitOutsideQuotes(header, on: ";")
        let rawValue = (pieces.first ?? "").trimmingCharacters(in: .whitespaces)
        let parameters: [(name: String, value: String)] = pieces.dropFirst().compactMap { piece in
            guard let equals = piece.firstIndex(of: "=") else { return nil }
            let name = piece[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var value = piece[piece.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\")
            }
            return (name, value)
        }
        return ContentType(value: rawValue.lowercased(), rawValue: rawValue, parameters: parameters)
    }

    static func splitOutsideQuotes(_ text: String, on separator: Character) -> [String] {
        var pieces: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
            } else if character == "\\" && quoted {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == separator && !quoted {
                pieces.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        pieces.append(current)
        return pieces
    }
}
