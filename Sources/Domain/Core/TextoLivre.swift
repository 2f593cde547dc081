import Foundation

/// Free text a person types (names, reasons, descriptions, captions): bounded in characters
/// and in UTF-8 bytes, and never in the form a sealed personal field takes when stored.
///
/// The limit counts the text as it was sent, blanks around it included, though what is stored
/// is trimmed: the published schema's `maxLength` counts the same (a JSON Schema cannot count
/// after trimming), and so does a web form's `maxlength`, so no text that one refuses is taken.
///
/// Characters alone do not bound a text: Swift counts grapheme clusters, and one "character"
/// may carry tens of thousands of combining marks. Every free-text limit is therefore also a
/// byte limit, ``bytesPorCaractere`` bytes for each character allowed (a letter with an accent
/// or an emoji fits; a pile of combining marks does not).
public enum TextoLivre {
    /// UTF-8 bytes allowed for each character of a limit.
    public static let bytesPorCaractere = 4

    /// How a sealed personal field begins when stored (`pii:v1:<subject>:<ciphertext>`): no
    /// text a person typed may begin so, or it could be taken for someone's sealed data.
    public static let prefixoSelado = "pii:"

    /// The most UTF-8 bytes a text of at most `maximo` characters may take.
    public static func maximoDeBytes(_ maximo: Int) -> Int { maximo * bytesPorCaractere }

    /// Why `texto`, as sent (before trimming), cannot be stored as free text of at most `maximo`
    /// characters, or nil when it can. The sealed form is looked for after the leading blanks,
    /// which trimming removes before the text is stored.
    public static func problema(_ texto: some StringProtocol, maximo: Int) -> Problema? {
        if texto.utf8.count > maximoDeBytes(maximo) || texto.count > maximo { return .longo }
        if texto.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix(prefixoSelado) { return .formaSelada }
        return nil
    }

    /// Whether `texto`, as sent, fits ``problema(_:maximo:)``.
    public static func cabe(_ texto: some StringProtocol, maximo: Int) -> Bool { problema(texto, maximo: maximo) == nil }

    /// The rule in words, for error messages: "até 200 caracteres (800 bytes em UTF-8)".
    public static func limite(_ maximo: Int) -> String {
        "até \(maximo) caracteres (\(maximoDeBytes(maximo)) bytes em UTF-8)"
    }

    public enum Problema: Sendable, Equatable {
        /// More characters, or more bytes, than the limit.
        case longo
        /// Begins with ``prefixoSelado``.
        case formaSelada
    }
}
