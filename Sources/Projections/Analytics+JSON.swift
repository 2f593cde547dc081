import EventStore
import Foundation

/// A stored payload analytics could not read: the event type, the byte offset and what was
/// wrong there.
public struct AnalyticsDecodingError: Error, Sendable, CustomStringConvertible {
    public let tipo: String
    public let byte: Int
    public let mensagem: String
    /// The event's place in the store, when the reader knows it.
    public var evento: String?

    public var description: String {
        "analytics cannot read \(tipo)\(evento.map { " at \($0)" } ?? "") (byte \(byte)): \(mensagem)"
    }
}

/// Analytics reads payloads with the store's ``JSONReader``, in place: a replay of millions of
/// events cannot afford `JSONDecoder`'s tree. Unknown keys are skipped (their values checked),
/// so payloads may grow new fields.
extension JSONReader {
    /// A member id as analytics keys it: UUID-shaped ids lower-cased (services write them in
    /// either case), anything else as it is.
    mutating func idDeUsuario() throws(Failure) -> String {
        let texto = try string()
        guard texto.utf8.count == 36, texto.utf8.contains(where: { (0x41...0x46).contains($0) }) else { return texto }
        return String(decoding: texto.utf8.map { (0x41...0x46).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
