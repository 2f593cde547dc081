public import Domain
public import EventStore
import Foundation
import Projections

/// The assinaturas service: membership plans (``Plano``, versioned), members' subscriptions
/// (``Assinatura``: cycles, scheduled changes, upgrades, charges' outcomes) and the credits
/// members hold (``Carteira``) — granted by their plan's cycles or an operator, spent by
/// bookings in the booking's own append (reservas), given back when a booking ends early,
/// expired by a timer.
public final class AssinaturasService: Sendable {
    let store: any ServiceStore
    let clock: any WallClock
    /// Seals an invitation's e-mail and link (nil: invitations are refused with a 503).
    let vault: PersonalDataVault?
    /// A member's name for a company's managers (nil: unknown or erased).
    let nomeDoMembro: @Sendable (String) async throws -> String?

    public init(
        store: any ServiceStore, clock: any WallClock, vault: PersonalDataVault? = nil,
        nomeDoMembro: @escaping @Sendable (String) async throws -> String? = { _ in nil }
    ) {
        self.store = store
        self.clock = clock
        self.vault = vault
        self.nomeDoMembro = nomeDoMembro
    }

    static let service = "assinaturas"

    var carteiras: AggregateStore<Carteira.Command, Carteira.State, Carteira.Event, Carteira.Failure> {
        AggregateStore(store: store, decider: Carteira.decider) { try Carteira.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    var planos: AggregateStore<Plano.Command, Plano.State, Plano.Event, Plano.Failure> {
        AggregateStore(store: store, decider: Plano.decider) { try Plano.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    var assinaturas: AggregateStore<Assinatura.Command, Assinatura.State, Assinatura.Event, Assinatura.Failure> {
        AggregateStore(store: store, decider: Assinatura.decider) {
            try Assinatura.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    var unidades: AggregateStore<Unidade.Command, Unidade.State, Unidade.Event, Unidade.Failure> {
        AggregateStore(store: store, decider: Unidade.decider) { try Unidade.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    func metadata(_ caller: Caller) -> EventMetadata {
        EventMetadata(actor: caller.usuario, requestId: caller.requestId, service: Self.service)
    }

    /// Space types as a request names them, without repeats: 422 naming `campo` for an unknown one.
    static func tipos(_ textos: [String]?, campo: String) throws -> [Espaco.Tipo] {
        var tipos: [Espaco.Tipo] = []
        for texto in textos ?? [] {
            guard let tipo = Espaco.Tipo(rawValue: texto) else {
                throw ServiceError.invalido(
                    campo, "tipo de espaço desconhecido: '\(texto.prefix(40))' (use \(Espaco.Tipo.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            if !tipos.contains(tipo) { tipos.append(tipo) }
        }
        return tipos
    }

    /// The unit a request's `unidadeId` names (nil when absent): 422 when no unit has that id.
    func unidade(_ texto: String?) async throws -> UUID? {
        guard let texto else { return nil }
        guard let id = Unidade.ID(texto), try await store.streamVersion(StreamNames.unidade(id)) > 0 else {
            throw ServiceError.invalido("unidadeId", "a unidade \(texto.prefix(60)) não existe")
        }
        return id.rawValue
    }

    /// The unit a plan or bundle on sale names (nil: the whole network). A network-wide one is
    /// invoiced by the network's first unit (ADR 0009), so it is refused (422, `unidadeId`) while
    /// the network has no unit: its paid cycles and purchases would have no book to go in.
    func unidadeQueVende(_ texto: String?, oque: String) async throws -> UUID? {
        if let unidade = try await unidade(texto) { return unidade }
        guard try await store.readCategory(Unidade.Catalogo.category, after: .start, limit: 1).isEmpty else { return nil }
        throw ServiceError.invalido(
            "unidadeId", "a rede ainda não tem unidade: cadastre uma antes de vender \(oque) (a primeira unidade fatura o que a rede vende)")
    }

    /// The member `texto` names, as a wallet's holder: 404 when no account has that id.
    func titular(_ texto: String) async throws -> String {
        guard let id = Usuario.ID(texto), try await store.streamVersion(UsuariosService.stream(id)) > 0 else {
            throw ServiceError.naoEncontrado("o usuário \(texto.prefix(60)) não existe")
        }
        return id.description
    }
}
