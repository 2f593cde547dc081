import Domain
import Foundation
import Testing

@testable import EventStore

/// ``JSONWriter`` writes what `EventJSON.encoder` (Foundation's) writes, byte for byte: the
/// stored events, read-model documents and answers are the same as before it.
@Suite("JSONWriter")
struct JSONWriterTests {
    func foundation<T: Encodable>(_ value: T) throws -> String { String(decoding: try EventJSON.encoder.encode(value), as: UTF8.self) }
    func writer<T: Encodable>(_ value: T) throws -> String { String(decoding: try JSONWriter.encode(value), as: UTF8.self) }

    @Test("every stored event of the fixture, decoded, is written as Foundation writes it")
    func every_stored_event() throws {
        let payloads = try StoredPayloads.todos()
        for (tipo, dados) in payloads {
            let evento = try #require(try Catalogos.decode(type: tipo, data: dados, using: EventJSON.decoder), "\(tipo)")
            #expect(try writer(evento) == (try foundation(evento)), "\(tipo)")
        }
        #expect(payloads.count >= Catalogos.kinds.count)
    }

    enum Forma: Codable, Equatable {
        case vazia
        case um(Int)
        case par(a: String, b: Date?)
    }

    enum K: String, CodingKey { case vazia, um, par, lista }

    struct Chave: Codable, Hashable, CodingKeyRepresentable {
        let texto: String
        var codingKey: any CodingKey { K(stringValue: texto) ?? K.vazia }
        init?<T: CodingKey>(codingKey: T) { texto = codingKey.stringValue }
        init(_ texto: String) { self.texto = texto }
    }

    struct Tudo: Codable {
        var texto = "aspas \" barra \\ / nova\nlinha \t\u{08}\u{0C}\r \u{01}\u{1F}\u{7F} é ✓ 🚀 e\u{301} \u{2028}"
        var inteiros: [Int64] = [0, -1, .max, .min]
        var naoNegativos: [UInt64] = [0, .max]
        var pequenos: [Int8] = [-128, 127]
        var reais: [Double] = [0, -0.0, 1, 0.1, 1e-7, 1e21, 123456789012345680, 3.14159, 1e15, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        var floats: [Float] = [1, 0.1, 3.3, 1e-7]
        var logico = true
        var nada: String?
        var algo: String? = "algo"
        var opcionais: [String?] = ["a", nil]
        var instantes: [Date] = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_796_112_000.75), Date(timeIntervalSince1970: -1)]
        var ids: [UUID] = [UUID(), UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))]
        var porNome: [String: Int] = ["b": 1, "B": 2, "a": 3, "A": 4, "_x": 5, "10": 6, "9": 7, "é": 8, "e": 9, "aa": 11, "a-b": 12, "~": 16, "": 0]
        var porNumero: [Int: String] = [10: "dez", 9: "nove", -1: "menos"]
        var porId: [UUID: Int] = [UUID(): 1, UUID(): 2]
        var porChave: [Chave: Int] = [Chave("z"): 1, Chave("a"): 2]
        var formas: [Forma] = [.vazia, .um(3), .par(a: "x", b: nil), .par(a: "y", b: Date(timeIntervalSince1970: 86_400))]
        var aninhado: [[String: [Int]]] = [["x": [1, 2], "y": []], [:]]
        var vazio: [Int] = []
        var dinheiro = Money(centavos: 12_345)
        var dia = DataLocal(ano: 2026, mes: 11, dia: 26)!
    }

    @Test("strings, numbers, floats, optionals, instants, ids, dictionaries, enums and nesting: as Foundation writes them")
    func every_shape() throws {
        let tudo = Tudo()
        #expect(try writer(tudo) == (try foundation(tudo)))
        #expect(try writer([tudo, tudo]) == (try foundation([tudo, tudo])))
        #expect(try writer("só um texto") == (try foundation("só um texto")))
        #expect(try writer(42) == (try foundation(42)))
        #expect(try writer([Int?.none]) == (try foundation([Int?.none])))
    }

    @Test("strings with characters to escape at their start, middle and end, one after another, every control character: as Foundation writes them")
    func escapes() throws {
        let controls = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        let texts = [
            "", "\"", "\\", "\"começo", "fim\\", "meio\ndo\ttexto", "\"\"\\\\\n\r", "a/b", "ação — ünïcode 🚀", controls,
            "antes" + controls + "depois", "x\u{7F}y",
        ]
        for text in texts {
            #expect(try writer(text) == (try foundation(text)), "\(Array(text.utf8))")
            #expect(try writer([text: text]) == (try foundation([text: text])), "\(Array(text.utf8))")
        }
    }

    struct Sobrescrito: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: K.self)
            try container.encode(1, forKey: .vazia)
            try container.encode(2, forKey: .um)
            try container.encode(3, forKey: .vazia)
            var outro = encoder.container(keyedBy: K.self)
            var aninhado = outro.nestedContainer(keyedBy: K.self, forKey: .par)
            try aninhado.encode("primeiro", forKey: .um)
            var denovo = outro.nestedContainer(keyedBy: K.self, forKey: .par)
            try denovo.encode("segundo", forKey: .vazia)
            var lista = outro.nestedUnkeyedContainer(forKey: .lista)
            try lista.encode(1)
            var mesmaLista = outro.nestedUnkeyedContainer(forKey: .lista)
            try mesmaLista.encode(2)
            try super_(container.superEncoder())
            try super_(container.superEncoder(forKey: .um))
        }
        func super_(_ encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode("no super")
        }
    }

    @Test("a key written twice keeps its last value; a container, or a nested one, asked for twice is one; super encoders as Foundation's")
    func rewritten_keys() throws {
        #expect(try writer(Sobrescrito()) == (try foundation(Sobrescrito())))
    }

    @Test("what it leaves to Foundation: data, a float that is not finite, a value that encodes nothing or two kinds, Int128")
    func leaves_to_foundation() throws {
        struct Nada: Encodable { func encode(to encoder: any Encoder) throws {} }
        struct Misturado: Encodable {
            func encode(to encoder: any Encoder) throws {
                var single = encoder.singleValueContainer()
                try single.encode(1)
                var keyed = encoder.container(keyedBy: K.self)
                try keyed.encode(2, forKey: .um)
            }
        }
        struct Grande: Encodable { let n: Int128 }
        #expect(throws: JSONWriter.Unsupported.self) { try JSONWriter.encode(["d": Data([1, 2])]) }
        #expect(throws: JSONWriter.Unsupported.self) { try JSONWriter.encode([Double.nan]) }
        #expect(throws: JSONWriter.Unsupported.self) { try JSONWriter.encode([Nada()]) }
        #expect(throws: JSONWriter.Unsupported.self) { try JSONWriter.encode([Misturado()]) }
        #expect(throws: JSONWriter.Unsupported.self) { try JSONWriter.encode(Grande(n: 1)) }
        #expect(try EventJSON.encode(Grande(n: 1)) == (try EventJSON.encoder.encode(Grande(n: 1))))
        // Through EventJSON.encode, Foundation's answer, whatever it is.
        #expect(try EventJSON.encode(["d": Data([1, 2])]) == (try EventJSON.encoder.encode(["d": Data([1, 2])])))
        #expect((try? EventJSON.encode([Double.nan])) == nil)
    }
}
