import Foundation
import Testing

@testable import Integrations
@testable import Services

/// The e-mail port: one conformance suite that both mailers pass (`SMTPMailer` against a real
/// SMTP server on loopback, `scripts/smtp-sink.py` on aiosmtpd, started by each test; `FileMailer`
/// against a temporary directory), then what only SMTP does: AUTH, STARTTLS, failures.
@Suite("Mailer conformance: SMTP and file deliver the same message")
struct MailerConformanceTests {
    @Test(
        "a Portuguese message with accents and an .ics attachment arrives byte for byte, subject, body and attachment intact",
        arguments: MailerKind.allCases)
    func delivers_portuguese_message_with_calendar(kind: MailerKind) async throws {
        let fixture = try await MailerFixture.start(kind)
        defer { fixture.stop() }
        let message = Sample.confirmation()
        try await fixture.mailer.send(message)
        let stored = try fixture.stored()
        try #require(stored.count == 1, "\(stored.count) messages stored")
        #expect(stored[0] == (try MIME.render(message)))
        let parsed = try ParsedEmail(raw: stored[0])
        #expect(parsed.subject == message.subject)
        #expect(parsed.text == message.text)
        #expect(parsed.from == message.from)
        #expect(parsed.to == message.to)
        #expect(parsed.messageId == "<reserva-confirmada-42@coworkflow.local>")
        #expect(parsed.header("Date") == "Fri, 20 Feb 2026 12:34:56 +0000")
        #expect(parsed.attachments == message.attachments)
        let calendar = String(decoding: try #require(parsed.attachments.first).data, as: UTF8.self)
        #expect(calendar.contains("DTSTART:20260303T130000Z\r\n"), "\(calendar)")
        #expect(calendar.contains("SUMMARY:Reserva confirmada: Sala Ipê\r\n"), "\(calendar)")
    }

    @Test("every recipient gets the message, and lines starting with a dot survive (dot-stuffing)", arguments: MailerKind.allCases)
    func delivers_to_every_recipient_with_dotted_lines(kind: MailerKind) async throws {
        let fixture = try await MailerFixture.start(kind)
        defer { fixture.stop() }
        var message = Sample.confirmation()
        message.to = [
            EmailAddress("ana@example.com", name: "Ana Souza"), EmailAddress("bruno@example.com"),
            EmailAddress("carla@example.com", name: "Carla, a gerente"),
        ]
        message.text = ".\n.começa com ponto\n..dois pontos\nfim\n.\n"
        message.attachments = []
        try await fixture.mailer.send(message)
        let stored = try fixture.stored()
        try #require(stored.count == 1)
        let parsed = try ParsedEmail(raw: stored[0])
        #expect(parsed.text == message.text)
        #expect(parsed.to == message.to)
        if let sink = fixture.sink {
            #expect(try sink.envelopes() == [["nao-responda@coworkflow.local", "ana@example.com", "bruno@example.com", "carla@example.com"]])
        }
    }

    @Test(
        "a message without recipients, or with an address that is not ASCII local@domain, is refused before anything is sent",
        arguments: MailerKind.allCases)
    func refuses_invalid_messages(kind: MailerKind) async throws {
        let fixture = try await MailerFixture.start(kind)
        defer { fixture.stop() }
        var noRecipient = Sample.confirmation()
        noRecipient.to = []
        var badAddress = Sample.confirmation()
        badAddress.to = [EmailAddress("joão@exemplo.com.br")]
        var injected = Sample.confirmation()
        injected.to = [EmailAddress("ana@example.com>\r\nBcc: x@evil.test")]
        for message in [noRecipient, badAddress, injected] {
            let error = await #expect(throws: MailerError.self) { try await fixture.mailer.send(message) }
            #expect(error?.kind == .invalidMessage)
            #expect(error?.isTransient == false)
        }
        #expect(try fixture.stored().isEmpty)
    }
}

@Suite("SMTPMailer against a real SMTP server")
struct SMTPMailerTests {
    @Test("AUTH PLAIN with the right credentials delivers; wrong ones fail with the server's 535 and nothing is stored")
    func auth_plain() async throws {
        let sink = try await SMTPSink.start(auth: "cowork:segredo-123")
        defer { sink.stop() }
        try await SMTPMailer(settings: sink.settings(username: "cowork", password: "segredo-123")).send(Sample.confirmation())
        #expect(try sink.messages().count == 1)

        let error = await #expect(throws: MailerError.self) {
            try await SMTPMailer(settings: sink.settings(username: "cowork", password: "errada")).send(Sample.confirmation())
        }
        #expect(error?.kind == .rejected)
        #expect(error?.stage == .auth)
        #expect(error?.replyCode == 535)
        #expect(error?.replyText?.contains("Authentication credentials invalid") == true, "\(String(describing: error))")
        #expect(error?.isTransient == false)
        #expect(try sink.messages().count == 1)
    }

    @Test("AUTH LOGIN is used when the server offers only LOGIN")
    func auth_login() async throws {
        let sink = try await SMTPSink.start(auth: "cowork:segredo-123", mechanisms: "LOGIN")
        defer { sink.stop() }
        try await SMTPMailer(settings: sink.settings(username: "cowork", password: "segredo-123")).send(Sample.confirmation())
        #expect(try sink.messages().count == 1)
        let error = await #expect(throws: MailerError.self) {
            try await SMTPMailer(settings: sink.settings(username: "cowork", password: "errada")).send(Sample.confirmation())
        }
        #expect(error?.replyCode == 535)
    }

    @Test("without credentials, a server that requires AUTH refuses MAIL FROM with 530")
    func auth_required_by_server() async throws {
        let sink = try await SMTPSink.start(auth: "cowork:segredo-123")
        defer { sink.stop() }
        let error = await #expect(throws: MailerError.self) { try await SMTPMailer(settings: sink.settings()).send(Sample.confirmation()) }
        #expect(error?.stage == .mailFrom)
        #expect(error?.replyCode == 530)
    }

    @Test("STARTTLS with a self-signed certificate (verification off) delivers, authenticating inside TLS")
    func starttls_delivers() async throws {
        let certificate = try await SelfSignedCertificate.make()
        defer { certificate.remove() }
        let sink = try await SMTPSink.start(auth: "cowork:segredo-123", certificate: certificate)
        defer { sink.stop() }
        var settings = sink.settings(username: "cowork", password: "segredo-123", tls: .startTLSRequired)
        settings.verifyCertificate = false
        try await SMTPMailer(settings: settings).send(Sample.confirmation())
        let stored = try sink.messages()
        try #require(stored.count == 1)
        #expect(stored[0] == (try MIME.render(Sample.confirmation())))
    }

    @Test("the certificate is verified by default: a self-signed one fails the send at STARTTLS, as a TLS error")
    func starttls_verifies_certificate() async throws {
        let certificate = try await SelfSignedCertificate.make()
        defer { certificate.remove() }
        let sink = try await SMTPSink.start(certificate: certificate)
        defer { sink.stop() }
        let error = await #expect(throws: MailerError.self) { try await SMTPMailer(settings: sink.settings()).send(Sample.confirmation()) }
        #expect(error?.kind == .tls, "\(String(describing: error))")
        #expect(error?.stage == .startTLS)
        #expect(try sink.messages().isEmpty)
    }

    @Test("a CA file that holds the server's certificate makes it trusted (verification on)")
    func starttls_with_ca_file() async throws {
        let certificate = try await SelfSignedCertificate.make()
        defer { certificate.remove() }
        let sink = try await SMTPSink.start(certificate: certificate)
        defer { sink.stop() }
        var settings = sink.settings(host: "localhost", tls: .startTLSRequired)
        settings.caFile = certificate.certificate.path
        try await SMTPMailer(settings: settings).send(Sample.confirmation())
        #expect(try sink.messages().count == 1)
    }

    @Test("TLS required but not offered: the send fails before MAIL FROM; TLS off against a server that requires it: 530")
    func tls_mismatches() async throws {
        let plain = try await SMTPSink.start()
        defer { plain.stop() }
        let required = await #expect(throws: MailerError.self) {
            try await SMTPMailer(settings: plain.settings(tls: .startTLSRequired)).send(Sample.confirmation())
        }
        #expect(required?.kind == .tls)
        #expect(try plain.messages().isEmpty)

        let certificate = try await SelfSignedCertificate.make()
        defer { certificate.remove() }
        let secured = try await SMTPSink.start(certificate: certificate)
        defer { secured.stop() }
        let off = await #expect(throws: MailerError.self) {
            try await SMTPMailer(settings: secured.settings(tls: .none)).send(Sample.confirmation())
        }
        #expect(off?.kind == .rejected)
        #expect(off?.replyCode == 530, "\(String(describing: off))")
    }

    @Test("a port nobody listens on fails at connect at once (not after the connect timeout), as a transient error")
    func nobody_listening() async throws {
        let sink = try await SMTPSink.start()
        var settings = sink.settings()
        settings.connectTimeout = .seconds(30)
        sink.stop()
        let started = ContinuousClock.now
        let error = await #expect(throws: MailerError.self) { try await SMTPMailer(settings: settings).send(Sample.confirmation()) }
        #expect(ContinuousClock.now - started < .seconds(15))
        #expect(error?.kind == .connectionFailed)
        #expect(error?.stage == .connect)
        #expect(error?.isTransient == true)
    }

    @Test("a server that accepts the connection but never greets fails with a timeout at the greeting")
    func silent_server_times_out() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        var settings = SMTPSettings(host: "127.0.0.1", port: silent.port, tls: .none)
        settings.commandTimeout = .milliseconds(300)
        settings.connectTimeout = .seconds(30)
        let started = ContinuousClock.now
        let error = await #expect(throws: MailerError.self) { try await SMTPMailer(settings: settings).send(Sample.confirmation()) }
        #expect(ContinuousClock.now - started < .seconds(15))
        #expect(error?.kind == .timedOut)
        #expect(error?.stage == .greeting)
        #expect(error?.isTransient == true)
    }

    @Test("credentials are not sent in clear text to a host that is not loopback")
    func no_credentials_in_clear() async throws {
        #expect(SMTPSettings.isLoopback("localhost") && SMTPSettings.isLoopback("127.0.0.1") && SMTPSettings.isLoopback("::1"))
        #expect(!SMTPSettings.isLoopback("smtp.example.com") && !SMTPSettings.isLoopback("10.0.0.5") && !SMTPSettings.isLoopback("127.example.com"))
    }
}

@Suite("SMTP configuration and replies")
struct SMTPSettingsTests {
    @Test("no SMTP_HOST means no SMTP settings (the file mailer is used); the defaults are STARTTLS when offered, port 25, or 587 with credentials")
    func defaults() throws {
        #expect(try SMTPSettings.fromEnvironment([:]) == nil)
        #expect(try SMTPSettings.fromEnvironment(["SMTP_HOST": ""]) == nil)
        let plain = try #require(try SMTPSettings.fromEnvironment(["SMTP_HOST": "mail.example.com"]))
        #expect(plain.port == 25)
        #expect(plain.tls == .startTLSIfOffered)
        #expect(plain.from == EmailAddress("nao-responda@coworkflow.local", name: "CoworkFlow"))
        let submission = try #require(
            try SMTPSettings.fromEnvironment([
                "SMTP_HOST": "email-smtp.sa-east-1.amazonaws.com", "SMTP_USER": "AKIA", "SMTP_PASSWORD": "s3cr3t",
                "SMTP_FROM": "Reservas CoworkFlow <reservas@coworkflow.com.br>", "SMTP_TLS": "required",
            ]))
        #expect(submission.port == 587)
        #expect(submission.username == "AKIA" && submission.password == "s3cr3t")
        #expect(submission.tls == .startTLSRequired)
        #expect(submission.from == EmailAddress("reservas@coworkflow.com.br", name: "Reservas CoworkFlow"))
        #expect(!submission.description.contains("s3cr3t"))
    }

    @Test(
        "an unusable value throws an error that names its variable",
        arguments: [
            ("SMTP_PORT", ["SMTP_HOST": "h", "SMTP_PORT": "smtp"]),
            ("SMTP_PORT", ["SMTP_HOST": "h", "SMTP_PORT": "70000"]),
            ("SMTP_TLS", ["SMTP_HOST": "h", "SMTP_TLS": "sim"]),
            ("SMTP_FROM", ["SMTP_HOST": "h", "SMTP_FROM": "CoworkFlow <sem-arroba>"]),
            ("SMTP_PASSWORD", ["SMTP_HOST": "h", "SMTP_USER": "u"]),
            ("SMTP_USER", ["SMTP_HOST": "h", "SMTP_PASSWORD": "p"]),
            ("SMTP_CA_FILE", ["SMTP_HOST": "h", "SMTP_CA_FILE": "/nao/existe.pem"]),
        ])
    func invalid_values(variable: String, environment: [String: String]) {
        let error = #expect(throws: SMTPConfigurationError.self) { try SMTPSettings.fromEnvironment(environment) }
        #expect(error?.variable == variable)
        #expect(error?.description.hasPrefix(variable) == true)
    }

    @Test("multi-line replies are joined, a continuation with another code or a line that is not a reply is refused")
    func reply_parser() throws {
        var parser = SMTPReplyParser()
        #expect(try parser.consume("250-smtp.example.com") == nil)
        #expect(try parser.consume("250-AUTH=LOGIN") == nil)
        #expect(try parser.consume("250-AUTH PLAIN LOGIN CRAM-MD5") == nil)
        let reply = try #require(try parser.consume("250 STARTTLS"))
        #expect(reply.code == 250 && reply.lines.count == 4)
        let capabilities = SMTPCapabilities(ehlo: reply)
        #expect(capabilities.startTLS)
        #expect(capabilities.auth == ["PLAIN", "LOGIN", "CRAM-MD5"])
        #expect(try parser.consume("354") == SMTPReply(code: 354, lines: [""]))
        _ = try parser.consume("250-first")
        #expect(throws: SMTPReplyParser.Malformed.self) { try parser.consume("251 other") }
        var fresh = SMTPReplyParser()
        #expect(throws: SMTPReplyParser.Malformed.self) { try fresh.consume("HTTP/1.1 400 Bad Request") }
    }
}

@Suite("MIME and iCalendar encodings")
struct MailEncodingTests {
    @Test("a Portuguese subject and name become UTF-8 encoded-words; every line ends in CRLF and stays within 78 characters")
    func headers_and_line_endings() throws {
        let raw = try MIME.render(Sample.confirmation())
        let text = String(decoding: raw, as: UTF8.self)
        #expect(raw.allSatisfy { $0 < 128 }, "the message is 7-bit")
        let bytes = [UInt8](raw)
        for (index, byte) in bytes.enumerated() {
            if byte == 10 { #expect(index > 0 && bytes[index - 1] == 13, "a bare LF at \(index)") }
            if byte == 13 { #expect(index + 1 < bytes.count && bytes[index + 1] == 10, "a bare CR at \(index)") }
        }
        #expect(text.hasSuffix("\r\n"))
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.count <= 78 }, "\(lines.filter { $0.count > 78 })")
        #expect(text.contains("Subject: =?UTF-8?B?"))
        #expect(text.contains("From: CoworkFlow <nao-responda@coworkflow.local>\r\n"))
        #expect(text.contains("To: =?UTF-8?B?"))
        #expect(text.contains("MIME-Version: 1.0\r\n"))
        #expect(text.contains("Date: Fri, 20 Feb 2026 12:34:56 +0000\r\n"))
        let parsed = try ParsedEmail(raw: raw)
        #expect(parsed.subject == "Reserva confirmada: Sala Ipê, terça-feira às 10h")
        #expect(parsed.to.first?.name == "João Conceição")
    }

    @Test("a long non-ASCII subject is split into encoded-words without cutting a character, and reads back whole")
    func long_subject() throws {
        var message = Sample.confirmation()
        message.subject = String(repeating: "ação é ótima — ", count: 12)
        let raw = try MIME.render(message)
        let subject = try #require(String(decoding: raw, as: UTF8.self).components(separatedBy: "\r\n\r\n").first)
        #expect(subject.components(separatedBy: "\r\n").allSatisfy { $0.count <= 78 })
        #expect(try ParsedEmail(raw: raw).subject == message.subject)
    }

    @Test("a line break in the subject cannot add a header")
    func subject_injection() throws {
        var message = Sample.confirmation()
        message.subject = "Olá\r\nBcc: alguem@evil.test"
        let parsed = try ParsedEmail(raw: try MIME.render(message))
        #expect(parsed.header("Bcc") == nil)
        #expect(parsed.subject == "Olá  Bcc: alguem@evil.test")
    }

    @Test("attachments are base64 in lines of at most 76 characters; text is quoted-printable within 76")
    func body_encodings() throws {
        var message = Sample.confirmation()
        let payload = Data((0..<1000).map { UInt8($0 % 256) })
        message.attachments.append(EmailAttachment(filename: "recibo.bin", contentType: "application/octet-stream", data: payload))
        message.text = String(repeating: "Sua reserva está confirmada = ótimo. ", count: 10) + "\nlinha com espaço no fim \n"
        let raw = try MIME.render(message)
        let text = String(decoding: raw, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.count <= 78 })
        #expect(lines.filter { !$0.contains(": ") && !$0.hasPrefix(" ") }.allSatisfy { $0.count <= 76 }, "body lines")
        let base64 = lines.filter { !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || "+/=".contains($0) } && $0.count > 40 }
        #expect(!base64.isEmpty && base64.allSatisfy { $0.count <= 76 })
        #expect(text.contains("Content-Transfer-Encoding: quoted-printable"))
        #expect(text.contains("est=C3=A1") && text.contains("=3D"))
        #expect(text.contains("no fim=20\r\n"), "trailing space encoded")
        let parsed = try ParsedEmail(raw: raw)
        #expect(parsed.text == message.text)
        #expect(parsed.attachments.map(\.data) == [message.attachments[0].data, payload])
        #expect(parsed.attachments.map(\.filename) == ["reserva.ics", "recibo.bin"])
    }

    @Test("an HTML alternative and a non-ASCII file name read back")
    func html_and_file_name() throws {
        var message = Sample.confirmation()
        message.html = "<p>Olá, <b>João</b></p>"
        message.attachments[0].filename = "confirmação.ics"
        let parsed = try ParsedEmail(raw: try MIME.render(message))
        #expect(parsed.text == message.text)
        #expect(parsed.html == message.html)
        #expect(parsed.attachments == message.attachments)
    }

    @Test("dot-stuffing doubles a dot at the start of every line, and only there")
    func dot_stuffing() {
        let stuffed = MIME.dotStuffed(Data("a.b\r\n.\r\n..c\r\nd".utf8))
        #expect(String(decoding: stuffed, as: UTF8.self) == "a.b\r\n..\r\n...c\r\nd\r\n")
        #expect(MIME.dotStuffed(Data(".x\r\n".utf8)) == Data("..x\r\n".utf8))
    }

    @Test("the iCalendar event: UTC times, escaped text, CRLF lines folded at 75 octets without splitting a character")
    func calendar() {
        let ics = String(decoding: Sample.calendar(), as: UTF8.self)
        #expect(ics.hasPrefix("BEGIN:VCALENDAR\r\nPRODID:-//CoworkFlow//Reservas//PT-BR\r\nVERSION:2.0\r\n"))
        #expect(ics.contains("\r\nMETHOD:REQUEST\r\n"))
        #expect(ics.hasSuffix("END:VEVENT\r\nEND:VCALENDAR\r\n"))
        #expect(ics.contains("\r\nDTSTART:20260303T130000Z\r\n"))
        #expect(ics.contains("\r\nDTEND:20260303T150000Z\r\n"))
        #expect(ics.contains("\r\nDTSTAMP:20260220T123456Z\r\n"))
        #expect(ics.contains("\r\nUID:reserva-42@coworkflow.local\r\n"))
        #expect(ics.contains("ORGANIZER;CN=CoworkFlow:mailto:nao-responda@coworkflow.local"))
        let bytes = [UInt8](Sample.calendar())
        #expect(!zip(bytes, bytes.dropFirst()).enumerated().contains { $0.element.1 == 10 && $0.element.0 != 13 })
        let physical = ics.components(separatedBy: "\r\n")
        #expect(physical.allSatisfy { $0.utf8.count <= 75 }, "\(physical.map { $0.utf8.count })")
        #expect(physical.contains { $0.hasPrefix(" ") }, "the long description is folded")
        let unfolded = ics.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("\r\nLOCATION:Av. Paulista\\, 1000 – São Paulo\\; 3º andar\r\n"))
        #expect(
            unfolded.contains(
                "\r\nDESCRIPTION:Sala Ipê\\, capacidade 6.\\nLeve seu notebook: C:\\\\reservas\\; "
                    + String(repeating: "café incluído ", count: 8) + "\r\n"))
    }
}

// MARK: - Fixtures

enum Sample {
    static let sentAt = Date(timeIntervalSince1970: 1_771_590_896)  // 2026-02-20T12:34:56Z

    static func calendar() -> Data {
        Calendario.evento(
            uid: "reserva-42@coworkflow.local",
            inicio: Date(timeIntervalSince1970: 1_772_542_800),  // 2026-03-03 10:00 in São Paulo
            fim: Date(timeIntervalSince1970: 1_772_550_000),
            resumo: "Reserva confirmada: Sala Ipê",
            local: "Av. Paulista, 1000 – São Paulo; 3º andar",
            descricao: "Sala Ipê, capacidade 6.\nLeve seu notebook: C:\\reservas; " + String(repeating: "café incluído ", count: 8),
            criadoEm: sentAt, organizador: "nao-responda@coworkflow.local")
    }

    /// A booking confirmation as the notificacoes service sends it.
    static func confirmation() -> EmailMessage {
        EmailMessage(
            from: SMTPSettings.defaultFrom,
            to: [EmailAddress("joao@example.com", name: "João Conceição")],
            subject: "Reserva confirmada: Sala Ipê, terça-feira às 10h",
            text: """
                Olá, João!

                Sua reserva da Sala Ipê está confirmada: terça-feira, 3 de março, das 10h às 12h.
                Endereço: Av. Paulista, 1000 – São Paulo.
                O convite para a sua agenda está anexo (reserva.ics).

                Até lá,
                Equipe CoworkFlow
                """,
            attachments: [EmailAttachment(filename: "reserva.ics", contentType: Calendario.contentType, data: calendar())],
            messageId: "reserva-confirmada-42@coworkflow.local", date: sentAt)
    }
}

enum MailerKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case smtp, file
    var testDescription: String { rawValue }
}

/// A mailer and the messages it has delivered so far.
struct MailerFixture {
    let mailer: any Mailer
    let sink: SMTPSink?
    let directory: URL?

    static func start(_ kind: MailerKind) async throws -> MailerFixture {
        switch kind {
        case .smtp:
            let sink = try await SMTPSink.start()
            return MailerFixture(mailer: try SMTPMailer(settings: sink.settings()), sink: sink, directory: nil)
        case .file:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-mail-\(UUID().uuidString)")
            return MailerFixture(mailer: FileMailer(directory: directory), sink: nil, directory: directory)
        }
    }

    /// The raw bytes of every message delivered, oldest first.
    func stored() throws -> [Data] {
        if let sink { return try sink.messages() }
        guard let directory else { return [] }
        return try FileMailer(directory: directory).messageFiles().map { try Data(contentsOf: $0) }
    }

    func stop() {
        sink?.stop()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }
}

/// `scripts/smtp-sink.py` (aiosmtpd) on a free loopback port, storing what it receives in a
/// temporary directory; `stop()` ends the process and removes the directory.
final class SMTPSink {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/smtp-sink.py")

    let process: Process
    let port: Int
    let directory: URL

    private init(process: Process, port: Int, directory: URL) {
        self.process = process
        self.port = port
        self.directory = directory
    }

    /// Starts the sink (python3 from PATH) and waits for its `ready <port>` line.
    static func start(auth: String? = nil, mechanisms: String? = nil, certificate: SelfSignedCertificate? = nil) async throws -> SMTPSink {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var arguments = ["--port", "0", "--dir", directory.appendingPathComponent("mail").path]
        if let auth { arguments += ["--auth", auth] }
        if let mechanisms { arguments += ["--auth-mechanisms", mechanisms] }
        if let certificate { arguments += ["--starttls", "--cert", certificate.certificate.path, "--key", certificate.key.path] }
        do {
            let (process, port) = try await ReadyScript.start(script, arguments, in: directory)
            return SMTPSink(process: process, port: port, directory: directory)
        } catch let failure as SinkFailed where failure.description.contains("aiosmtpd") {
            throw SinkFailed(description: failure.description + " — the SMTP tests need aiosmtpd: pip install aiosmtpd")
        }
    }

    /// SMTP settings for this sink on 127.0.0.1, TLS off unless asked.
    func settings(
        host: String = "127.0.0.1", username: String? = nil, password: String? = nil, tls: SMTPSettings.TLSMode = .startTLSIfOffered
    ) -> SMTPSettings {
        var settings = SMTPSettings(host: host, port: port, username: username, password: password, tls: tls)
        settings.commandTimeout = .seconds(10)
        return settings
    }

    /// The messages received, oldest first, as received (dot-stuffing undone).
    func messages() throws -> [Data] {
        try files("eml").map { try Data(contentsOf: $0) }
    }

    /// Per message: MAIL FROM, then every RCPT TO.
    func envelopes() throws -> [[String]] {
        try files("envelope").map { try String(contentsOf: $0, encoding: .utf8).split(separator: "\n").map(String.init) }
    }

    private func files(_ suffix: String) throws -> [URL] {
        let mail = directory.appendingPathComponent("mail")
        return try FileManager.default.contentsOfDirectory(at: mail, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == suffix }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            for _ in 0..<100 where process.isRunning { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}

struct SinkFailed: Error, CustomStringConvertible {
    let description: String
}

/// A python3 script of `scripts/` (from PATH) that prints `ready <port>` once it listens on a
/// free port: started with its output in `directory`, and waited for. The directory is removed
/// if it does not start.
enum ReadyScript {
    static func start(_ script: URL, _ arguments: [String], in directory: URL) async throws -> (Process, Int) {
        let output = directory.appendingPathComponent("script.out")
        let errors = directory.appendingPathComponent("script.err")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        for _ in 0..<600 {
            let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let line = printed.split(separator: "\n").first(where: { $0.hasPrefix("ready ") }), let port = Int(line.dropFirst(6)) {
                return (process, port)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: directory)
        throw SinkFailed(description: "scripts/\(script.lastPathComponent) did not start (status \(process.terminationStatus)): \(stderr)")
    }
}

/// A key and self-signed certificate for CN=localhost, made with the openssl command line.
struct SelfSignedCertificate {
    let directory: URL
    var certificate: URL { directory.appendingPathComponent("cert.pem") }
    var key: URL { directory.appendingPathComponent("key.pem") }

    /// Runs openssl without blocking a thread of the test pool (key generation takes a while).
    static func make() async throws -> SelfSignedCertificate {
        let certificate = SelfSignedCertificate(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-cert-\(UUID().uuidString)"))
        try FileManager.default.createDirectory(at: certificate.directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
            "-days", "1", "-keyout", certificate.key.path, "-out", certificate.certificate.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        guard process.terminationStatus == 0 else {
            certificate.remove()
            throw SinkFailed(description: "openssl req failed (\(process.terminationStatus))")
        }
        return certificate
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A loopback port that accepts connections (the kernel completes the handshake) but never answers.
struct SilentListener {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SinkFailed(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0, listen(descriptor, 8) == 0 else {
            Foundation.close(descriptor)
            throw SinkFailed(description: "cannot listen on loopback: \(errno)")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        Foundation.close(descriptor)
    }
}
