public import Foundation
public import Logging
public import NIOCore
public import NIOPosix
import NIOSSL
public import Services

/// Sends each message over its own SMTP connection (RFC 5321): EHLO, STARTTLS when offered
/// (or required), AUTH PLAIN or LOGIN when credentials are set, one transaction, QUIT.
///
/// Every step has a timeout; an unexpected reply throws ``MailerError`` with the server's code
/// and text. No retries here: the caller retries transient failures (``MailerError/isTransient``).
/// Credentials are never sent unencrypted, except to a loopback host.
public final class SMTPMailer: Mailer {
    public let settings: SMTPSettings
    private let group: any EventLoopGroup
    private let tlsContext: NIOSSLContext?
    private let logger: Logger

    /// Throws ``SMTPConfigurationError`` when the TLS settings cannot be used (e.g. an unreadable CA file).
    public init(
        settings: SMTPSettings, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "coworkflow.smtp")
    ) throws {
        self.settings = settings
        group = eventLoopGroup
        self.logger = logger
        guard settings.tls != .none else {
            tlsContext = nil
            return
        }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if !settings.verifyCertificate { configuration.certificateVerification = .none }
        if let caFile = settings.caFile { configuration.additionalTrustRoots = [.file(caFile)] }
        do {
            tlsContext = try NIOSSLContext(configuration: configuration)
        } catch {
            throw SMTPConfigurationError(variable: settings.caFile == nil ? "SMTP_TLS" : "SMTP_CA_FILE", detail: "cannot set up TLS: \(error)")
        }
    }

    public func send(_ message: EmailMessage) async throws {
        try await EmailMetrics.counting("smtp") { try await deliver(message) }
    }

    private func deliver(_ message: EmailMessage) async throws {
        let content = try MIME.render(message)
        let channel: any Channel
        // The handler is kept beside the channel: after a close the pipeline no longer holds
        // it, and the failure it recorded is what the caller needs.
        let replies: NIOLoopBound<SMTPReplyHandler>
        do {
            (channel, replies) = try await ClientBootstrap(group: group)
                .connectTimeout(TimeAmount(settings.connectTimeout))
                .connect(host: settings.host, port: settings.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let handler = SMTPReplyHandler(eventLoop: channel.eventLoop)
                        try channel.pipeline.syncOperations.addHandler(handler)
                        return (channel, NIOLoopBound(handler, eventLoop: channel.eventLoop))
                    }
                }
        } catch {
            throw MailerError(.connectionFailed, stage: .connect, detail: "cannot connect to \(settings.host):\(settings.port): \(error)")
        }
        let session = SMTPSession(channel: channel, replies: replies, settings: settings, tlsContext: tlsContext, logger: logger)
        defer { channel.close(promise: nil) }
        try await withTaskCancellationHandler {
            try await session.deliver(message, content: content)
        } onCancel: {
            channel.close(promise: nil)
        }
    }
}

/// One connection's conversation, step by step.
struct SMTPSession: Sendable {
    let channel: any Channel
    let replies: NIOLoopBound<SMTPReplyHandler>
    let settings: SMTPSettings
    let tlsContext: NIOSSLContext?
    let logger: Logger

    func deliver(_ message: EmailMessage, content: Data) async throws {
        try expect(await reply(.greeting), [220], .greeting)
        var capabilities = try await hello(.ehlo)
        var encrypted = false
        if let tlsContext, settings.tls != .none, capabilities.startTLS {
            try await command("STARTTLS", expect: [220], .startTLS)
            try await startTLS(tlsContext)
            encrypted = true
            capabilities = try await hello(.startTLS)
        } else if settings.tls == .startTLSRequired {
            throw MailerError(.tls, stage: .startTLS, detail: "\(settings.host) does not offer STARTTLS, and TLS is required")
        }
        if let username = settings.username {
            try await authenticate(username, settings.password ?? "", capabilities, encrypted: encrypted)
        }
        try await command("MAIL FROM:<\(message.from.address)>", expect: [250], .mailFrom)
        for recipient in message.to {
            try await command("RCPT TO:<\(recipient.address)>", expect: [250, 251], .rcptTo)
        }
        try await command("DATA", expect: [354], .data)
        var terminated = MIME.dotStuffed(content)
        terminated.append(contentsOf: Array(".\r\n".utf8))
        write(ByteBuffer(bytes: terminated))
        try expect(await reply(.data), [250], .data)
        // The message is delivered: a failed or slow QUIT changes nothing.
        _ = try? await command("QUIT", expect: [221], .quit, timeout: min(settings.commandTimeout, .seconds(5)))
    }

    /// EHLO, or HELO (no extensions) when the server refuses EHLO.
    func hello(_ stage: MailerError.Stage) async throws -> SMTPCapabilities {
        let answer = try await command("EHLO \(settings.heloName)", expect: nil, stage)
        if answer.code == 250 { return SMTPCapabilities(ehlo: answer) }
        guard (500..<600).contains(answer.code), stage == .ehlo else { throw rejected(answer, stage) }
        try await command("HELO \(settings.heloName)", expect: [250], stage)
        return SMTPCapabilities()
    }

    func startTLS(_ context: NIOSSLContext) async throws {
        let channel = channel
        let replies = replies
        let host = settings.host
        do {
            try await channel.eventLoop.submit {
                // Bytes that arrived before the handshake were not protected by it: refuse them (RFC 3207 §5).
                guard !replies.value.hasUnreadInput else {
                    throw MailerError(.tls, stage: .startTLS, detail: "the server sent data before the TLS handshake")
                }
                let serverName = SMTPSettings.isIPAddress(host) ? nil : host
                try channel.pipeline.syncOperations.addHandler(
                    try NIOSSLClientHandler(context: context, serverHostname: serverName), position: .first)
            }.get()
        } catch let error as MailerError {
            throw error
        } catch {
            throw MailerError(.tls, stage: .startTLS, detail: "cannot start TLS: \(error)")
        }
    }

    func authenticate(_ username: String, _ password: String, _ capabilities: SMTPCapabilities, encrypted: Bool) async throws {
        guard encrypted || SMTPSettings.isLoopback(settings.host) else {
            throw MailerError(
                .authUnavailable, stage: .auth,
                detail: "refusing to send credentials to \(settings.host) without TLS (it offers no STARTTLS, or TLS is off)")
        }
        let base64 = { (text: String) in Data(text.utf8).base64EncodedString() }
        if capabilities.auth.contains("PLAIN") {
            try await command("AUTH PLAIN " + base64("\0\(username)\0\(password)"), expect: [235], .auth, logged: "AUTH PLAIN ****")
        } else if capabilities.auth.contains("LOGIN") {
            try await command("AUTH LOGIN", expect: [334], .auth)
            try await command(base64(username), expect: [334], .auth, logged: "(user name)")
            try await command(base64(password), expect: [235], .auth, logged: "(password)")
        } else {
            let offered = capabilities.auth.isEmpty ? "no AUTH" : "AUTH " + capabilities.auth.sorted().joined(separator: " ")
            throw MailerError(
                .authUnavailable, stage: .auth, detail: "credentials are set but \(settings.host) offers \(offered) (PLAIN or LOGIN needed)")
        }
    }

    /// Sends `line` and waits for the reply; `expect` nil takes any reply.
    @discardableResult
    func command(
        _ line: String, expect codes: Set<Int>?, _ stage: MailerError.Stage, logged: String? = nil, timeout: Duration? = nil
    ) async throws -> SMTPReply {
        logger.debug("smtp >", metadata: ["command": "\(logged ?? line)"])
        write(ByteBuffer(string: line + "\r\n"))
        let answer = try await reply(stage, timeout: timeout)
        if let codes { try expect(answer, codes, stage) }
        return answer
    }

    func write(_ buffer: ByteBuffer) {
        let channel = channel
        // A failed write closes the connection; the pending reply then fails.
        channel.writeAndFlush(buffer).whenFailure { _ in channel.close(promise: nil) }
    }

    func reply(_ stage: MailerError.Stage, timeout: Duration? = nil) async throws -> SMTPReply {
        let replies = replies
        let limit = timeout ?? settings.commandTimeout
        let amount = TimeAmount(limit)
        do {
            let answer = try await channel.eventLoop.flatSubmit { replies.value.nextReply(timeout: amount) }.get()
            logger.debug("smtp <", metadata: ["code": "\(answer.code)"])
            return answer
        } catch let failure as SMTPConnectionFailure {
            throw failure.error(at: stage, timeout: limit)
        }
    }

    func expect(_ answer: SMTPReply, _ codes: Set<Int>, _ stage: MailerError.Stage) throws {
        guard codes.contains(answer.code) else { throw rejected(answer, stage) }
    }

    func rejected(_ answer: SMTPReply, _ stage: MailerError.Stage) -> MailerError {
        MailerError(.rejected, stage: stage, replyCode: answer.code, replyText: answer.text, detail: "unexpected reply from \(settings.host)")
    }
}

/// Why no reply came.
enum SMTPConnectionFailure: Error {
    case timedOut
    case closed
    case failed(String)
    case notSMTP(String)

    func error(at stage: MailerError.Stage, timeout: Duration) -> MailerError {
        switch self {
        case .timedOut:
            MailerError(.timedOut, stage: stage, detail: "no reply within \(timeout)")
        case .closed:
            stage == .startTLS
                ? MailerError(.tls, stage: stage, detail: "the connection closed while starting TLS")
                : MailerError(.connectionFailed, stage: stage, detail: "the server closed the connection")
        case .failed(let description):
            MailerError(stage == .startTLS ? .tls : .connectionFailed, stage: stage, detail: description)
        case .notSMTP(let description):
            MailerError(.connectionFailed, stage: stage, replyText: description, detail: "not an SMTP reply")
        }
    }
}

/// Frames bytes into lines and lines into replies, handing each reply to whoever waits for it.
final class SMTPReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private var pending = ByteBuffer()
    private var parser = SMTPReplyParser()
    private var replies: [SMTPReply] = []
    private var waiter: (promise: EventLoopPromise<SMTPReply>, timeout: Scheduled<Void>)?
    private var failure: SMTPConnectionFailure?
    private let eventLoop: any EventLoop

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Replies or bytes received and not yet taken.
    var hasUnreadInput: Bool { !replies.isEmpty || pending.readableBytes > 0 }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = Self.unwrapInboundIn(data)
        pending.writeBuffer(&bytes)
        while let newline = pending.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            var line = pending.readString(length: newline - pending.readerIndex + 1) ?? ""
            while line.last?.isNewline == true { line.removeLast() }
            do {
                if let reply = try parser.consume(line) { deliver(reply) }
            } catch {
                fail(.notSMTP(String(line.prefix(80))))
                context.close(promise: nil)
                return
            }
        }
        pending.discardReadBytes()
        if pending.readableBytes > 4096 {
            fail(.notSMTP("a line longer than 4096 bytes"))
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(.closed)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(.failed(String(describing: error)))
        context.close(promise: nil)
    }

    /// The next reply: one already received, or the next to arrive within `timeout`.
    func nextReply(timeout: TimeAmount) -> EventLoopFuture<SMTPReply> {
        if !replies.isEmpty { return eventLoop.makeSucceededFuture(replies.removeFirst()) }
        if let failure { return eventLoop.makeFailedFuture(failure) }
        let promise = eventLoop.makePromise(of: SMTPReply.self)
        let scheduled = eventLoop.assumeIsolated().scheduleTask(in: timeout) { self.fail(.timedOut) }
        waiter = (promise, scheduled)
        return promise.futureResult
    }

    private func deliver(_ reply: SMTPReply) {
        guard let waiter else { return replies.append(reply) }
        self.waiter = nil
        waiter.timeout.cancel()
        waiter.promise.succeed(reply)
    }

    private func fail(_ failure: SMTPConnectionFailure) {
        if self.failure == nil { self.failure = failure }
        guard let waiter else { return }
        self.waiter = nil
        waiter.timeout.cancel()
        waiter.promise.fail(failure)
    }
}

/// One reply: its code and text lines (`250-a` / `250 b` gives `["a", "b"]`).
struct SMTPReply: Sendable, Equatable {
    let code: Int
    let lines: [String]

    var text: String { lines.joined(separator: " ") }
}

/// Assembles reply lines (RFC 5321 §4.2) into replies; pure, so tests drive it directly.
struct SMTPReplyParser {
    struct Malformed: Error {}

    private var code: Int?
    private var lines: [String] = []

    /// The reply `line` completes, or nil while a multi-line reply goes on.
    mutating func consume(_ line: String) throws(Malformed) -> SMTPReply? {
        let characters = Array(line)
        guard characters.count >= 3, let code = Int(String(characters[0..<3])), (200..<600).contains(code),
            characters.count == 3 || characters[3] == " " || characters[3] == "-",
            self.code == nil || self.code == code
        else { throw Malformed() }
        self.code = code
        lines.append(characters.count > 4 ? String(characters[4...]) : "")
        guard characters.count == 3 || characters[3] == " " else { return nil }
        defer {
            self.code = nil
            lines = []
        }
        return SMTPReply(code: code, lines: lines)
    }
}

/// What an EHLO reply advertises that this client uses.
struct SMTPCapabilities: Equatable {
    var startTLS = false
    /// AUTH mechanisms, uppercased.
    var auth: Set<String> = []

    init() {}

    init(ehlo: SMTPReply) {
        for line in ehlo.lines.dropFirst() {
            let words = line.uppercased().split(whereSeparator: { $0 == " " || $0 == "=" }).map(String.init)
            switch words.first {
            case "STARTTLS": startTLS = true
            case "AUTH": auth.formUnion(words.dropFirst())
            default: break
            }
        }
    }
}

/// Where and how to send e-mail: the `SMTP_*` variables.
public struct SMTPSettings: Sendable, Equatable {
    public enum TLSMode: String, Sendable {
        /// Never STARTTLS (credentials then go only to a loopback host).
        case none
        /// STARTTLS when the server offers it, plain otherwise.
        case startTLSIfOffered
        /// STARTTLS or fail.
        case startTLSRequired
    }

    public static let defaultFrom = EmailAddress("nao-responda@coworkflow.local", name: "CoworkFlow")

    public var host: String
    public var port: Int
    public var username: String?
    public var password: String?
    /// The sender the notificacoes service puts in `From` (the envelope sender is the message's `from`).
    public var from: EmailAddress
    public var tls: TLSMode
    /// Extra CA certificates (PEM) trusted besides the system's.
    public var caFile: String?
    /// False only in tests against a self-signed certificate.
    public var verifyCertificate: Bool
    public var connectTimeout: Duration
    /// The longest wait for any one reply, the final reply to DATA included.
    public var commandTimeout: Duration
    /// The name this client gives in EHLO.
    public var heloName: String

    /// `port` nil is 587 with credentials (submission), 25 without.
    public init(
        host: String, port: Int? = nil, username: String? = nil, password: String? = nil, from: EmailAddress = defaultFrom,
        tls: TLSMode = .startTLSIfOffered, caFile: String? = nil, verifyCertificate: Bool = true,
        connectTimeout: Duration = .seconds(10), commandTimeout: Duration = .seconds(60), heloName: String = "localhost"
    ) {
        self.host = host
        self.port = port ?? (username == nil ? 25 : 587)
        self.username = username
        self.password = password
        self.from = from
        self.tls = tls
        self.caFile = caFile
        self.verifyCertificate = verifyCertificate
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.heloName = heloName
    }

    /// The settings from `SMTP_HOST`, `SMTP_PORT`, `SMTP_USER`, `SMTP_PASSWORD`, `SMTP_FROM`,
    /// `SMTP_TLS` (`none`, `starttls` — the default: when offered —, `required`) and
    /// `SMTP_CA_FILE`; nil when `SMTP_HOST` is unset or empty (use ``FileMailer``).
    ///
    /// Throws ``SMTPConfigurationError`` naming the variable whose value cannot be used.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SMTPSettings? {
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        }
        guard let host = value("SMTP_HOST")?.trimmingCharacters(in: .whitespaces) else { return nil }
        guard !host.contains(where: { $0.isWhitespace || $0 == "/" }) else {
            throw SMTPConfigurationError(variable: "SMTP_HOST", detail: "\"\(host)\" is not a host name or address")
        }
        var port: Int?
        if let text = value("SMTP_PORT") {
            guard let number = Int(text.trimmingCharacters(in: .whitespaces)), (1...65_535).contains(number) else {
                throw SMTPConfigurationError(variable: "SMTP_PORT", detail: "\"\(text)\" is not a port (1-65535)")
            }
            port = number
        }
        let username = value("SMTP_USER")
        let password = environment["SMTP_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        if username != nil && password == nil {
            throw SMTPConfigurationError(variable: "SMTP_PASSWORD", detail: "SMTP_USER is set but SMTP_PASSWORD is not")
        }
        if username == nil && password != nil {
            throw SMTPConfigurationError(variable: "SMTP_USER", detail: "SMTP_PASSWORD is set but SMTP_USER is not")
        }
        var from = defaultFrom
        if let text = value("SMTP_FROM") {
            guard let address = EmailAddress(parsing: text) else {
                throw SMTPConfigurationError(
                    variable: "SMTP_FROM", detail: "\"\(text)\" is not an address such as \"CoworkFlow <nao-responda@example.com>\"")
            }
            from = address
        }
        var tls = TLSMode.startTLSIfOffered
        if let text = value("SMTP_TLS") {
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "none": tls = .none
            case "starttls": tls = .startTLSIfOffered
            case "required": tls = .startTLSRequired
            default: throw SMTPConfigurationError(variable: "SMTP_TLS", detail: "\"\(text)\" is not one of none, starttls, required")
            }
        }
        let caFile = value("SMTP_CA_FILE")
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw SMTPConfigurationError(variable: "SMTP_CA_FILE", detail: "cannot read \(caFile)")
        }
        return SMTPSettings(host: host, port: port, username: username, password: password, from: from, tls: tls, caFile: caFile)
    }

    /// `localhost`, `127.x.x.x` or `::1`: credentials may go there without TLS.
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return host == "localhost" || host == "::1" || (host.hasPrefix("127.") && isIPAddress(host))
    }

    /// An IPv4 or IPv6 literal (no SNI for those).
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }
}

extension SMTPSettings: CustomStringConvertible {
    /// The settings for a log line: the password left out.
    public var description: String {
        "smtp://\(username.map { $0 + ":****@" } ?? "")\(host):\(port) tls=\(tls.rawValue) from=\(from)"
    }
}

/// An `SMTP_*` variable whose value cannot be used.
public struct SMTPConfigurationError: Error, Sendable, CustomStringConvertible {
    public let variable: String
    public let detail: String

    public var description: String { "\(variable): \(detail)" }
}
