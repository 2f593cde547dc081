public import Domain
import EventStore
import Foundation
import Projections
import Synchronization

/// The espacos service: units and spaces (admin commands) and the catalog, detail and
/// availability queries, answered from the read models.
public final class EspacosService: Sendable {
    let store: any ServiceStore
    let clock: any WallClock

    let pages = Mutex<(position: CatalogoReadModel.Revisao, pages: [String: Data])>((CatalogoReadModel.Revisao(.start, geracao: nil), [:]))

    let cache = Mutex<Snapshot?>(nil)

    /// Concurrent catalog reads share one revision query (and one reload), never one that
    /// began before they asked: see ``FreshRead``.
    let snapshots = FreshRead<Snapshot>()

    public init(store: any ServiceStore, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    static let service = "espacos"

    var unidades: AggregateStore<Unidade.Command, Unidade.State, Unidade.Event, Unidade.Failure> {
        AggregateStore(store: store, decider: Unidade.decider) { try Unidade.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    var espacos: AggregateStore<Espaco.Command, Espaco.State, Espaco.Event, Espaco.Failure> {
        AggregateStore(store: store, decider: Espaco.decider) { try Espaco.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    func metadata(_ caller: Caller) -> EventMetadata {
        EventMetadata(actor: caller.usuario, requestId: caller.requestId, service: Self.service)
    }

    // MARK: Helpers

    /// 404 when no unit has id `id` (a catalog filtered by a unit that does not exist is not
    /// an empty catalog: the id is wrong).
    public func exigirUnidade(_ id: String) async throws {
        let id = try Self.unidadeId(id)
        _ = try await unidades.existing(StreamNames.unidade(id), naoEncontrado: "unidade \(id) não existe")
    }

    static func unidadeId(_ text: String, campo: String? = nil) throws -> Unidade.ID {
        guard let id = Unidade.ID(text) else {
            if let campo { throw ServiceError.invalido(campo, "'\(text.prefix(60))' não é um id de unidade (UUID)") }
            throw ServiceError.naoEncontrado("unidade \(text.prefix(60)) não existe")
        }
        return id
    }

    static func espacoId(_ text: String, campo: String? = nil) throws -> Espaco.ID {
        guard let id = Espaco.ID(text) else {
            if let campo { throw ServiceError.invalido(campo, "'\(text.prefix(60))' não é um id de espaço (UUID)") }
            throw ServiceError.naoEncontrado("espaço \(text.prefix(60)) não existe")
        }
        return id
    }

    static func view(_ state: Unidade.State) throws -> UnidadeView {
        guard case .existente(let dados) = state else { throw ServiceError.naoEncontrado("unidade não existe") }
        return UnidadeView(dados)
    }

    static func view(_ state: Espaco.State) throws -> EspacoView {
        guard case .existente(let dados) = state else { throw ServiceError.naoEncontrado("espaço não existe") }
        return EspacoView(dados)
    }
}
