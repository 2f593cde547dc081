public import Foundation
public import Services

/// The embedded mailer (no `SMTP_HOST`): each message becomes `<messageId>.eml` in a directory
/// (`<pessoa>--<messageId>.eml` for a message about a member), the same bytes SMTP would carry,
/// written atomically. Sending a `messageId` again replaces the file; erasing a member deletes
/// the files about them.
public struct FileMailer: Mailer {
    public let directory: URL

    /// `directory` is created on the first send when missing.
    public init(directory: URL) {
        self.directory = directory
    }

    public func send(_ message: EmailMessage) async throws {
        try await EmailMetrics.counting("outbox") {
            let bytes = try MIME.render(message)
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try bytes.write(to: fileURL(messageId: message.messageId, pessoa: message.pessoa), options: .atomic)
            } catch {
                throw MailerError(.io, stage: .write, detail: "\(directory.path): \(error)")
            }
        }
    }

    /// Where the message with `messageId` (about `pessoa`) is, or would be, stored.
    public func fileURL(messageId: String, pessoa: String? = nil) -> URL {
        directory.appendingPathComponent(Self.prefix(pessoa) + Self.fileName(messageId: messageId))
    }

    /// Deletes the `.eml` files about `pessoa`.
    public func esquecer(pessoa: String) async throws {
        let prefix = Self.prefix(pessoa)
        for file in try messageFiles() where file.lastPathComponent.hasPrefix(prefix) {
            do {
                try FileManager.default.removeItem(at: file)
            } catch CocoaError.fileNoSuchFile {
                continue  // another erasure of the same person got there first
            } catch {
                throw MailerError(.io, stage: .write, detail: "\(directory.path): cannot delete a message of an erased member: \(error)")
            }
        }
    }

    /// `<pessoa>--` (sanitised as a file name is), or nothing.
    static func prefix(_ pessoa: String?) -> String {
        guard let pessoa, !pessoa.isEmpty else { return "" }
        return String(fileName(messageId: pessoa.lowercased()).dropLast(".eml".count)) + "--"
    }

    /// The `.eml` files in the directory, by name.
    public func messageFiles() throws -> [URL] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "eml" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Reads a stored message back.
    public static func read(_ file: URL) throws -> ParsedEmail {
        try ParsedEmail(raw: Data(contentsOf: file))
    }

    /// `messageId` without `<>`, every character outside `A-Z a-z 0-9 . _ @ + -` as `_`, plus `.eml`.
    public static func fileName(messageId: String) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._@+-")
        var name = String(messageId.trimmingCharacters(in: CharacterSet(charactersIn: "<> ")).map { allowed.contains($0) ? $0 : "_" }.prefix(200))
        if name.isEmpty || name.hasPrefix(".") { name = "_" + name }
        return name + ".eml"
    }
}
