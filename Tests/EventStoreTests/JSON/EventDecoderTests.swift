import Domain
import Foundation
import Testing

@testable import EventStore

/// ``EventDecoder`` reads what Foundation's decoder (with the store's instants) reads, to the same
/// values; what it does not read in place, it leaves to that decoder, whose answer is then its own.
@Suite("EventDecoder")
struct EventDecoderTests {
    /// The answer of both decoders to `json`, as text (a value written back, or the error), and
    /// whether `EventDecoder` read it in place.
    func answers<T: Decodable & Encodable>(_ type: T.Type, _ json: String) -> (ours: String, foundation: String, inPlace: Bool) {
        let data = Data(json.utf8)
        func text(_ body: () throws -> T) -> String {
            do {
                return String(decoding: try EventJSON.encoder.encode(try body()), as: UTF8.self)
            } catch {
                return "error: \(error)"
            }
        }
        return (
            text { try EventJSON.decoder.decode(T.self, from: data) }, text { try EventDecoder.foundation.decode(T.self, from: data) },
            EventDecoder.inPlace(T.self, from: data) != nil
        )
    }

    /// ``EventDecoder`` without Foundation: fails where that would leave the text to it.
    struct InPlaceOnly: PayloadDecoder {
        struct LeftToFoundation: Error {}
        func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
            guard let value = EventDecoder.inPlace(type, from: data) else { throw LeftToFoundation() }
            return value
        }
    }

    @Test("every stored event of the fixture is read in place, to the value Foundation reads")
    func every_stored_event() throws {
        let payloads = try StoredPayloads.todos()
        for (tipo, dados) in payloads {
            // As the store holds it: written by the store's encoder.
            let evento = try #require(try Catalogos.decode(type: tipo, data: dados, using: EventDecoder.foundation), "\(tipo)")
            let stored = try JSONWriter.encode(evento)
            let foundation = try #require(try Catalogos.decode(type: tipo, data: stored, using: EventDecoder.foundation), "\(tipo)")
            // Read in place, not left to Foundation.
            let ours = try #require(try Catalogos.decode(type: tipo, data: stored, using: InPlaceOnly()), "\(tipo)")
            #expect(try JSONWriter.encode(ours) == (try JSONWriter.encode(foundation)), "\(tipo)")
        }
        #expect(payloads.count >= Catalogos.kinds.count)
    }

    enum Forma: Codable, Equatable {
        case vazia
        case um(Int)
        case par(a: String, b: Date?)
    }

    struct Tudo: Codable, Equatable {
        var texto = "aspas \" barra \\ / nova\nlinha \t\u{08}\u{0C}\r \u{01}\u{1F}\u{7F} é ✓ 🚀 e\u{301} \u{2028}"
        var inteiros: [Int64] = [0, -1, .max, .min]
        var pequenos: [Int8] = [-128, 127]
        var semSinal: [UInt32] = [0, .max]
        var reais: [Double] = [0, 1, 0.1, 1e-7, 1e21, 123456789012345680, 3.14159, 1e15, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        var logico = true
        var falso = false
        var nada: String?
        var algo: String? = "algo"
        var numero: Int? = 7
        var semNumero: Int?
        var opcionais: [String?] = ["a", nil]
        var instantes: [Date] = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_796_112_000), Date(timeIntervalSince1970: -1)]
        var talvez: Date? = Date(timeIntervalSince1970: 86_400)
        var ids: [UUID] = [UUID(), UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))]
        var porNome: [String: Int] = ["b": 1, "B": 2, "a": 3, "A": 4, "_x": 5, "10": 6, "9": 7, "é": 8, "e": 9, "aa": 11, "a-b": 12, "~": 16, "": 0]
        var porNumero: [Int: String] = [10: "dez", 9: "nove", -1: "menos"]
        var porId: [UUID: Int] = [UUID(): 1, UUID(): 2]
        var formas: [Forma] = [.vazia, .um(3), .par(a: "x", b: nil), .par(a: "y", b: Date(timeIntervalSince1970: 86_400))]
        var aninhado: [[String: [Int]]] = [["x": [1, 2], "y": []], [:]]
        var vazio: [Int] = []
        var conjunto: Set<String> = ["x", "y"]
        var dinheiro = Money(centavos: 12_345)
        var dia = DataLocal(ano: 2026, mes: 11, dia: 26)!
        var muitos = Dictionary(uniqueKeysWithValues: (0..<300).map { ("chave-\($0)", $0) })
    }

    @Test(
        "strings with escapes, integers of every width, doubles, optionals, instants, ids, dictionaries, sets, enums, nesting: read in place as Foundation reads them"
    )
    func every_shape() throws {
        let tudo = Tudo()
        let data = try EventJSON.encode(tudo)
        let lido = try #require(EventDecoder.inPlace(Tudo.self, from: data))
        #expect(lido == tudo)
        #expect(lido == (try EventDecoder.foundation.decode(Tudo.self, from: data)))
        #expect(EventDecoder.inPlace([Tudo].self, from: try EventJSON.encode([tudo, tudo])) == [tudo, tudo])
        // Whitespace anywhere, members in any order, scalars at the top.
        let espacado = " { \"b\" : [ 1 , 2 ] ,\n\t\"a\" : null , \"c\" : \"x\" } "
        struct Solto: Codable, Equatable {
            let b: [Int]
            let a: Int?
            let c: String
        }
        #expect(EventDecoder.inPlace(Solto.self, from: Data(espacado.utf8)) == Solto(b: [1, 2], a: nil, c: "x"))
        #expect(EventDecoder.inPlace(String.self, from: Data(" \"só\" ".utf8)) == "só")
        #expect(EventDecoder.inPlace(Int.self, from: Data("-12".utf8)) == -12)
        #expect(EventDecoder.inPlace(Int?.self, from: Data("null".utf8)) == .some(nil))
    }

    /// Reads `f` as Foundation does only when its failure is not swallowed: it catches it.
    struct Tolerante: Codable, Equatable {
        let f: Float
        enum CodingKeys: CodingKey { case f }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            f = (try? container.decode(Float.self, forKey: .f)) ?? -1
        }
    }

    struct Inteiro: Codable, Equatable { let n: Int }
    struct Instante: Codable, Equatable { let em: Date }

    @Test(
        "what it leaves to Foundation, whose answer is then EventDecoder's: names twice or escaped, floats, fractions for integers, other instants, bad JSON"
    )
    func leaves_to_foundation() throws {
        let casos: [(String, (EventDecoderTests) -> (ours: String, foundation: String, inPlace: Bool))] = [
            ("name twice", { $0.answers([String: Int].self, #"{"a":1,"a":2}"#) }),
            ("name twice, in a struct", { $0.answers(Inteiro.self, #"{"n":1,"n":2}"#) }),
            ("escaped name", { $0.answers(Inteiro.self, #"{"\u006e":3}"#) }),
            ("escaped name after another, in a dictionary", { $0.answers([String: Int].self, #"{"a":1,"\u0062":2}"#) }),
            ("a Float, the failure caught by the value", { $0.answers(Tolerante.self, #"{"f":1.5}"#) }),
            ("a whole fraction for an Int", { $0.answers(Inteiro.self, #"{"n":2.0}"#) }),
            ("an exponent for an Int", { $0.answers(Inteiro.self, #"{"n":1e2}"#) }),
            ("an Int too big", { $0.answers(Inteiro.self, #"{"n":99999999999999999999}"#) }),
            ("an instant with a fraction", { $0.answers(Instante.self, #"{"em":"2026-11-21T10:00:00.500Z"}"#) }),
            ("an instant with an offset", { $0.answers(Instante.self, #"{"em":"2026-11-21T10:00:00-03:00"}"#) }),
            ("not an instant", { $0.answers(Instante.self, #"{"em":"ontem"}"#) }),
            ("a member missing", { $0.answers(Inteiro.self, #"{"m":1}"#) }),
            ("a string for an Int", { $0.answers(Inteiro.self, #"{"n":"1"}"#) }),
            ("bad JSON in a member nobody reads", { $0.answers(Inteiro.self, #"{"n":1,"x":[1,}"#) }),
            ("text after the value", { $0.answers(Inteiro.self, #"{"n":1} x"#) }),
            ("a lone surrogate", { $0.answers([String].self, #"["\ud800"]"#) }),
        ]
        for (nome, caso) in casos {
            let (ours, foundation, inPlace) = caso(self)
            #expect(!inPlace, "\(nome)")
            #expect(ours == foundation, "\(nome)")
        }
        // The value that caught its failure got Foundation's reading, not its own fallback.
        #expect(try EventJSON.decoder.decode(Tolerante.self, from: Data(#"{"f":1.5}"#.utf8)).f == 1.5)
        // A text that is not UTF-8, in a member nobody reads.
        var bytes = Array(#"{"n":1,"x":"#.utf8) + [UInt8(ascii: "\""), 0xFF, UInt8(ascii: "\"")] + [UInt8(ascii: "}")]
        #expect(EventDecoder.inPlace(Inteiro.self, from: Data(bytes)) == nil)
        bytes = Array(#"{"n":1,"x":"é"}"#.utf8)
        #expect(EventDecoder.inPlace(Inteiro.self, from: Data(bytes)) == Inteiro(n: 1))
        // Foundation's errors, as they are: what a caller reports.
        #expect(throws: DecodingError.self) { try EventJSON.decoder.decode(Inteiro.self, from: Data(#"{"m":1}"#.utf8)) }
    }

    @Test("members out of order are found, and checked for a name given twice up to 64; more, out of order, are left to Foundation")
    func members_out_of_order() throws {
        func objeto(_ chaves: [String]) -> String { "{" + chaves.map { "\"\($0)\":1" }.joined(separator: ",") + "}" }
        let poucos = (0..<64).map { "k\($0)" }.reversed().map { $0 }
        #expect(EventDecoder.inPlace([String: Int].self, from: Data(objeto(poucos).utf8))?.count == 64)
        let muitos = (0..<65).map { "k\($0)" }.reversed().map { $0 }
        #expect(EventDecoder.inPlace([String: Int].self, from: Data(objeto(muitos).utf8)) == nil)
        #expect(try EventJSON.decoder.decode([String: Int].self, from: Data(objeto(muitos).utf8)).count == 65)
        let ordenados = (0..<1000).map { String(format: "k%04d", $0) }
        #expect(EventDecoder.inPlace([String: Int].self, from: Data(objeto(ordenados).utf8))?.count == 1000)
        #expect(EventDecoder.inPlace([String: Int].self, from: Data(objeto(poucos + ["k3"]).utf8)) == nil)
    }
}
