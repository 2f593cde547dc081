public import Foundation

/// The e-mail port: hands one message to whatever delivers it (an SMTP server, a directory).
///
/// A send either hands the whole message over or throws; it never retries. Sending the same
/// `messageId` twice may deliver twice over SMTP: deduplicate before calling.
public protocol Mailer: Sendable {
    func send(_ message: EmailMessage) async throws

    /// Removes every copy this mailer kept of the messages about `pessoa` (their
    /// ``EmailMessage/pessoa``): what an LGPD erasure asks of it. A mailer that keeps nothing
    /// (SMTP: the message left with the server) does nothing.
    func esquecer(pessoa: String) async throws
}

extension Mailer {
    public func esquecer(pessoa: String) async throws {}
}

/// An address with an optional display name, as in `Ana Souza <ana@example.com>`.
public struct EmailAddress: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The `local@domain` part (ASCII: SMTPUTF8 is not used).
    public var address: String
    public var name: String?

    public init(_ address: String, name: String? = nil) {
        self.address = address
        self.name = name
    }

    /// Reads `Name <local@domain>`, `"Name" <local@domain>` or a bare `local@domain`.
    public init?(parsing text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let open = text.lastIndex(of: "<"), text.hasSuffix(">") {
            let address = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
            var name = text[..<open].trimmingCharacters(in: .whitespaces)
            if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
            self.init(address, name: name.isEmpty ? nil : name)
        } else {
            self.init(text)
        }
        guard Self.isValid(address) else { return nil }
    }

    public var description: String { name.map { "\($0) <\(address)>" } ?? address }

    /// One `@`, non-empty local part and domain, printable ASCII without spaces or brackets.
    public static func isValid(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && address.unicodeScalars.allSatisfy { $0.value > 32 && $0.value < 127 && !"<>()[]\\,;:\"".unicodeScalars.contains($0) }
    }
}

/// A file sent with a message, e.g. `reserva.ics` as `text/calendar; method=REQUEST; charset=UTF-8`.
public struct EmailAttachment: Sendable, Equatable {
    public var filename: String
    /// The full `Content-Type` value, parameters included.
    public var contentType: String
    public var data: Data

    public init(filename: String, contentType: String, data: Data) {
        self.filename = filename
        self.contentType = contentType
        self.data = data
    }
}

/// One e-mail, fully determined by its fields: rendering it twice gives the same bytes.
public struct EmailMessage: Sendable, Equatable {
    public var from: EmailAddress
    public var to: [EmailAddress]
    public var subject: String
    /// The plain-text body; `\n` line breaks are sent as CRLF.
    public var text: String
    /// An HTML alternative to `text`, or nil.
    public var html: String?
    public var attachments: [EmailAttachment]
    /// The `Message-ID` (with or without `<>`): deterministic, e.g. derived from the event that
    /// caused the message, so a resend can be recognised. `FileMailer` names its file after it.
    public var messageId: String
    /// The `Date` header: the caller's clock, never read here.
    public var date: Date
    /// Whom the message is about (the member's id), so that an erasure finds every copy kept
    /// (``Mailer/esquecer(pessoa:)``); never sent.
    public var pessoa: String?

    public init(
        from: EmailAddress, to: [EmailAddress], subject: String, text: String, html: String? = nil,
        attachments: [EmailAttachment] = [], messageId: String, date: Date, pessoa: String? = nil
    ) {
        self.pessoa = pessoa
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.attachments = attachments
        self.messageId = messageId
        self.date = date
    }
}

/// A failed send: at which stage, what the server replied (code and text), and whether trying
/// again later can help.
public struct MailerError: Error, Sendable, CustomStringConvertible {
    public enum Stage: String, Sendable {
        case render, connect, greeting, ehlo, startTLS, auth, mailFrom, rcptTo, data, quit, write
    }

    public enum Kind: Sendable, Equatable {
        /// The server answered with an unexpected reply (`replyCode`, `replyText`).
        case rejected
        /// No reply within the configured timeout.
        case timedOut
        /// The TCP connection could not be opened, or dropped mid-conversation.
        case connectionFailed
        /// TLS was required (settings) but the server does not offer STARTTLS, or the handshake failed.
        case tls
        /// Credentials are set but the server offers no usable AUTH mechanism, or sending them
        /// would expose them over plain text to a non-loopback host.
        case authUnavailable
        /// The message cannot be sent as it is (an address that is not ASCII `local@domain`, no recipient).
        case invalidMessage
        /// Writing the message file failed (`FileMailer`).
        case io
    }

    public let kind: Kind
    public let stage: Stage
    /// The server's three-digit reply code, when the failure is a reply.
    public let replyCode: Int?
    /// The server's reply text (lines joined with a space), when the failure is a reply, or the
    /// line it sent instead of one. It may name the recipient: see ``semDadosPessoais``.
    public let replyText: String?
    public let detail: String

    public init(_ kind: Kind, stage: Stage, replyCode: Int? = nil, replyText: String? = nil, detail: String) {
        self.kind = kind
        self.stage = stage
        self.replyCode = replyCode
        self.replyText = replyText
        self.detail = detail
    }

    /// 4xx replies, timeouts and connection failures may pass later; 5xx and bad messages will not.
    public var isTransient: Bool {
        switch kind {
        case .rejected: (400..<500).contains(replyCode ?? 0)
        case .timedOut, .connectionFailed, .io: true
        case .tls, .authUnavailable, .invalidMessage: false
        }
    }

    public var description: String {
        let reply = replyCode.map { " (server replied \($0) \(replyText ?? ""))" } ?? replyText.map { ": \($0)" } ?? ""
        return "e-mail \(stage.rawValue) failed: \(detail)\(reply)"
    }

    /// The failure without the server's reply text, which often echoes the recipient's address
    /// (`550 5.1.1 <ana@example.com>: Recipient address rejected`): what may go into an event
    /// (append-only, so never erased) or a log line. The stage and the reply code say what failed.
    public var semDadosPessoais: String {
        let reply = replyCode.map { " (server replied \($0))" } ?? ""
        return "e-mail \(stage.rawValue) failed: \(detail)\(reply)"
    }
}
