import Domain
import Foundation

/// The payloads of `Fixtures/stored-events.jsonl` (as the server stored them) whose kind a
/// catalog lists at the stored schema version: what the JSON tests read and write back.
enum StoredPayloads {
    static let arquivo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/stored-events.jsonl")

    struct Unreadable: Error { let linha: String }

    /// Each payload with its type, in the file's order.
    static func todos() throws -> [(tipo: String, dados: Data)] {
        try String(contentsOf: arquivo, encoding: .utf8).split(separator: "\n").filter { !$0.isEmpty }.compactMap { linha in
            guard let objeto = try JSONSerialization.jsonObject(with: Data(linha.utf8)) as? [String: Any], let tipo = objeto["type"] as? String
            else { throw Unreadable(linha: String(linha)) }
            guard let kind = Catalogos.kind(tipo), objeto["schemaVersion"] as? Int == kind.schemaVersion, let payload = objeto["data"] else {
                return nil
            }
            return (tipo, try JSONSerialization.data(withJSONObject: payload))
        }
    }
}
