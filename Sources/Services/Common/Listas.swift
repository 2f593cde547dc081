import EventStore
import Foundation
import Projections

extension ReadModelStore {
    /// The offset of the first document of a list (sorted by `ordem`) for which `alcancou`
    /// holds, when it holds for every document after that one too; `total` when it holds for
    /// none. A binary search: a handful of one-document reads however long the list.
    func primeiro<T: Decodable>(
        _ collection: String, grupo: String?, total: Int, _ type: T.Type, onde alcancou: (T) -> Bool
    ) async throws -> Int {
        var baixo = 0
        var alto = total
        while baixo < alto {
            let meio = (baixo + alto) / 2
            guard let doc = try await documents(collection, grupo: grupo, limit: 1, offset: meio).first else {
                alto = meio
                continue
            }
            if alcancou(try ReadModelJSON.decoder.decode(T.self, from: doc)) { alto = meio } else { baixo = meio + 1 }
        }
        return baixo
    }
}
