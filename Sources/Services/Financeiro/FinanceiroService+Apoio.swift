import Domain
import Foundation
import Projections

extension FinanceiroService {
    // MARK: Reading ranges

    /// The offsets of the documents whose local date lies in `periodo`. Lists are sorted by
    /// `ordem`, which starts with the date, so each end is a binary search (a handful of
    /// one-document reads however long the list).
    func faixa<T: Datado>(_ collection: String, grupo: String?, _ periodo: Periodo, _ type: T.Type) async throws -> Range<Int> {
        let total = try await store.count(collection, grupo: grupo)
        var inicio = 0
        var fim = total
        if let de = periodo.de { inicio = try await primeiro(collection, grupo: grupo, total: total, naoAntesDe: de, T.self) }
        if let ate = periodo.ate { fim = try await primeiro(collection, grupo: grupo, total: total, naoAntesDe: ate.seguinte, T.self) }
        return inicio..<max(inicio, fim)
    }

    /// The offset of the first document dated `limite` or later (`total` when none is).
    private func primeiro<T: Datado>(
        _ collection: String, grupo: String?, total: Int, naoAntesDe limite: DataLocal, _ type: T.Type
    ) async throws -> Int {
        try await store.primeiro(collection, grupo: grupo, total: total, T.self) { $0.data >= limite }
    }

    /// The documents at `offsets`, read 500 at a time.
    func ler<T: Decodable>(_ collection: String, grupo: String?, _ offsets: Range<Int>) async throws -> [T] {
        var itens: [T] = []
        var offset = offsets.lowerBound
        while offset < offsets.upperBound {
            let limite = min(500, offsets.upperBound - offset)
            let docs = try await store.documents(collection, grupo: grupo, limit: limite, offset: offset)
            itens += try docs.map { try ReadModelJSON.decoder.decode(T.self, from: $0) }
            guard docs.count == limite else { break }
            offset += limite
        }
        return itens
    }

    // MARK: Input

    /// ``grupo(_:)`` for a unit that exists (its own stream, not a read model that may lag):
    /// a filter naming no unit is a 404, not a report of zeros.
    func filtro(_ unidade: String?) async throws -> String? {
        guard let grupo = try Self.grupo(unidade) else { return nil }
        guard let id = Unidade.ID(grupo), case .existente = try await unidades.load(StreamNames.unidade(id)).state else {
            throw ServiceError.naoEncontrado("a unidade \(grupo) não existe")
        }
        return grupo
    }

    /// The unit filter: nil or blank for every unit, else a unit id (the read models' group).
    static func grupo(_ unidade: String?) throws -> String? {
        guard let texto = unidade?.trimmingCharacters(in: .whitespaces), !texto.isEmpty else { return nil }
        guard let id = Unidade.ID(texto) else {
            throw ServiceError.requisicaoInvalida("'unidade' deve ser o id (UUID) de uma unidade", detalhes: ["campo": "unidade"])
        }
        return id.description
    }

    /// `de` and `ate` as local dates (`AAAA-MM-DD`): `de` not after `ate`, at most 366 days
    /// together; both required when `obrigatorio`.
    static func periodo(de: String?, ate: String?, obrigatorio: Bool) throws -> Periodo {
        func data(_ texto: String?, _ campo: String) throws -> DataLocal? {
            guard let texto = texto?.trimmingCharacters(in: .whitespaces), !texto.isEmpty else {
                guard !obrigatorio else {
                    throw ServiceError.requisicaoInvalida("'\(campo)' é obrigatório: uma data AAAA-MM-DD", detalhes: ["campo": campo])
                }
                return nil
            }
            guard let valor = DataLocal(texto) else {
                throw ServiceError.requisicaoInvalida("'\(campo)' deve ser uma data AAAA-MM-DD válida", detalhes: ["campo": campo])
            }
            return valor
        }
        let periodo = Periodo(de: try data(de, "de"), ate: try data(ate, "ate"))
        if let inicio = periodo.de, let fim = periodo.ate {
            guard inicio <= fim else {
                throw ServiceError.requisicaoInvalida("'de' deve ser anterior ou igual a 'ate'", detalhes: ["campo": "de"])
            }
            guard fim < inicio.adding(dias: diasMaximos) else {
                throw ServiceError.requisicaoInvalida(
                    "o período de 'de' a 'ate' pode ter no máximo \(diasMaximos) dias", detalhes: ["campo": "ate"])
            }
        }
        return periodo
    }
}
