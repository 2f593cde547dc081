import Foundation

/// The claim on one normalised e-mail address: the cross-aggregate invariant "one account per
/// e-mail" as a stream of its own (`emailclaim-<keyed hash>`), never a read-model check.
public enum EmailClaim {
    public typealias UsuarioID = Identifier<Usuario>

    public enum Command: Sendable, Equatable {
        case reivindicar(usuario: UsuarioID)
        /// Releases the claim, e.g. after LGPD erasure, so the address can register again.
        case liberar(usuario: UsuarioID)
    }

    /// Stored in the enum's own coding (`{"reivindicado":{"usuario":…}}`).
    public enum Event: CatalogedEvent, Equatable {
        case reivindicado(usuario: UsuarioID)
        case liberado(usuario: UsuarioID)

        public var kind: EventKind {
            switch self {
            case .reivindicado: Catalogo.reivindicado
            case .liberado: Catalogo.liberado
            }
        }

        public static let decoders = EventDecoders<Event>([.kind(Catalogo.reivindicado), .kind(Catalogo.liberado)])
    }

    public enum State: Sendable, Equatable {
        case livre
        case reivindicado(por: UsuarioID)
    }

    public enum Failure: Error, Equatable, Sendable {
        case emailEmUso
        case naoReivindicadoPor(UsuarioID)
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .livre,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.reivindicar(let usuario), .livre):
                return [.reivindicado(usuario: usuario)]
            case (.reivindicar(let usuario), .reivindicado(let dono)):
                // Claiming again for the same account is a no-op, so retries are harmless.
                if usuario == dono { return [] }
                throw .emailEmUso
            case (.liberar(let usuario), .reivindicado(let dono)) where usuario == dono:
                return [.liberado(usuario: usuario)]
            case (.liberar(let usuario), _):
                throw .naoReivindicadoPor(usuario)
            }
        },
        evolve: { _, event in
            switch event {
            case .reivindicado(let usuario): .reivindicado(por: usuario)
            case .liberado: .livre
            }
        }
    )

    /// The normal form two addresses are compared in: trimmed and lower-cased.
    public static func normalise(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// Whether `email`, trimmed, is an address accounts and companies may give (what the pattern
    /// of /openapi.json's e-mail fields states): ASCII `local@domain`, at most 254 characters;
    /// the local part a dot-atom (RFC 5322: letters, digits and ``!#$%&'*+-/=?^_`{|}~``, dots
    /// only between them) of at most 64; the domain a host name of two labels or more, each
    /// 1–63 letters, digits and hyphens, no hyphen at either end, and no "--" as its third and
    /// fourth characters (which marks an internationalised label: `xn--`). Checked before
    /// ``normalise(_:)``, whose lower-casing maps a few other letters to ASCII (the Kelvin sign
    /// to "k").
    public static func enderecoValido(_ email: String) -> Bool {
        let bytes = Array(email.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard bytes.count <= 254, let arroba = bytes.firstIndex(of: UInt8(ascii: "@")) else { return false }
        let local = bytes[..<arroba]
        let dominio = bytes[(arroba + 1)...]
        guard (1...64).contains(local.count) else { return false }
        let atomos = local.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard atomos.allSatisfy({ !$0.isEmpty && $0.allSatisfy(atext) }) else { return false }
        let rotulos = dominio.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return rotulos.count >= 2 && rotulos.allSatisfy(rotuloValido)
    }

    /// A character of a dot-atom's atom (RFC 5322 `atext`).
    private static func atext(_ byte: UInt8) -> Bool {
        alfanumerico(byte) || "!#$%&'*+-/=?^_`{|}~".utf8.contains(byte)
    }

    private static func alfanumerico(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func rotuloValido(_ rotulo: ArraySlice<UInt8>) -> Bool {
        let hifen = UInt8(ascii: "-")
        guard (1...63).contains(rotulo.count), rotulo.allSatisfy({ alfanumerico($0) || $0 == hifen }), rotulo.first != hifen, rotulo.last != hifen
        else { return false }
        let inicio = rotulo.startIndex
        return rotulo.count < 4 || rotulo[inicio + 2] != hifen || rotulo[inicio + 3] != hifen
    }
}

/// Namespace tag for user ids (`Identifier<Usuario>`); the aggregate itself arrives with the
/// usuarios service.
public enum Usuario {}
