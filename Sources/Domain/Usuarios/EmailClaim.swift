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
}

/// Namespace tag for user ids (`Identifier<Usuario>`); the aggregate itself arrives with the
/// usuarios service.
public enum Usuario {}
