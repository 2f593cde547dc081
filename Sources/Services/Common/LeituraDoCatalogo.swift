import EventStore
import Projections

/// Units and spaces of the catalog read model by id, for what a person reads (names, time
/// zones): each read at most once per reader (one export, one receipt, one summary).
struct LeituraDoCatalogo {
    let store: any ReadModelStore
    private var espacos: [String: EspacoView?] = [:]
    private var unidades: [String: UnidadeView?] = [:]

    init(store: any ReadModelStore) {
        self.store = store
    }

    mutating func espaco(_ id: String) async throws -> EspacoView? {
        if let lido = espacos[id] { return lido }
        let espaco = try await store.document(CatalogoReadModel.espacos, key: id).map { try ReadModelJSON.decoder.decode(EspacoView.self, from: $0) }
        espacos[id] = espaco
        return espaco
    }

    mutating func unidade(_ id: String) async throws -> UnidadeView? {
        if let lida = unidades[id] { return lida }
        let unidade = try await store.document(CatalogoReadModel.unidades, key: id).map {
            try ReadModelJSON.decoder.decode(UnidadeView.self, from: $0)
        }
        unidades[id] = unidade
        return unidade
    }
}
