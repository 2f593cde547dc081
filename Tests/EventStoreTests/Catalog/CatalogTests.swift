import Domain
import EventStore
import Foundation
import Testing

/// The event catalogs are the one list of stored event types: each type once, each decoded by
/// its context's enum, none written as a string anywhere else in the sources, and every shape
/// ever stored still readable.
@Suite("Event catalogs")
struct CatalogTests {
    static let repositorio = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("every stored type is listed once, in one context, and its category belongs to that context")
    func every_type_once() {
        let tipos = Catalogos.kinds.map(\.type)
        #expect(Set(tipos).count == tipos.count, "listed twice: \(Dictionary(grouping: tipos) { $0 }.filter { $1.count > 1 }.keys.sorted())")
        for kind in Catalogos.kinds {
            #expect(Catalogos.kind(kind.type) == kind)
            #expect(Catalogos.owners[kind.category] == kind.context, "\(kind.type): category \(kind.category)")
            #expect(kind.schemaVersion >= 1 && !kind.label.isEmpty)
        }
        #expect(Catalogos.kind("Inexistente") == nil)
    }

    @Test("each event enum decodes exactly its catalog's kinds, in order")
    func enums_decode_their_catalog() {
        for (catalogo, decodificados) in Catalogos.decodificados {
            #expect(catalogo == decodificados)
        }
        #expect(Catalogos.decodificados.flatMap(\.catalogo).count == Catalogos.kinds.count)
    }

    /// `"ReservaSolicitada"` written anywhere in `Sources/` but a `+Catalogo.swift` file is a
    /// second list that the compiler would not keep in step.
    @Test("no stored type string appears in the Swift sources outside the catalogs")
    func no_type_strings_outside_the_catalogs() throws {
        let fontes = Self.repositorio.appendingPathComponent("Sources")
        let arquivos =
            FileManager.default.enumerator(at: fontes, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && !$0.lastPathComponent.hasSuffix("+Catalogo.swift") } ?? []
        #expect(arquivos.count > 50)
        // A type is a whole identifier, so `"Type"` or `.Type"` is an identifier that ends at a
        // quote and starts after a quote or a dot: one look-up per quote instead of one search
        // per type and line (this took 20 s in a debug build).
        let tipos = Set(Catalogos.kinds.map(\.type))
        #expect(tipos.allSatisfy { $0.utf8.allSatisfy(Self.deIdentificador) })
        let aspas = UInt8(ascii: "\""), ponto = UInt8(ascii: ".")
        var achados: [String] = []
        for arquivo in arquivos {
            let texto = try String(contentsOf: arquivo, encoding: .utf8)
            for (numero, linha) in texto.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let bytes = Array(linha.utf8)
                guard let primeiro = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }), bytes.contains(aspas) else { continue }
                if bytes[primeiro...].starts(with: "//".utf8) { continue }
                for fim in bytes.indices where bytes[fim] == aspas {
                    var inicio = fim
                    while inicio > 0, Self.deIdentificador(bytes[inicio - 1]) { inicio -= 1 }
                    guard inicio < fim, inicio > 0, bytes[inicio - 1] == aspas || bytes[inicio - 1] == ponto else { continue }
                    let palavra = String(decoding: bytes[inicio..<fim], as: UTF8.self)
                    if tipos.contains(palavra) { achados.append("\(arquivo.lastPathComponent):\(numero + 1): \(palavra)") }
                }
            }
        }
        #expect(achados.isEmpty, "\(achados.joined(separator: "\n"))")
    }

    private static func deIdentificador(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }

    /// `Fixtures/stored-events.jsonl`: payloads as the server stored them (captured from a
    /// running `serve`, one per type and shape), plus older shapes that upcasters read.
    @Test(
        "every stored shape of the fixture reads back through the store's upcasters and its context's enum; every kind has one",
        arguments: Backend.allCases)
    func the_fixture_reads_back(backend: Backend) async throws {
        let linhas = try String(
            contentsOf: Self.repositorio.appendingPathComponent("Tests/EventStoreTests/Fixtures/stored-events.jsonl"), encoding: .utf8
        )
        .split(separator: "\n").filter { !$0.isEmpty }
        struct Linha: Decodable {
            let type: String
            let schemaVersion: Int
        }
        var eventos: [NewEvent] = []
        for linha in linhas {
            let dados = Data(linha.utf8)
            let cabecalho = try JSONDecoder().decode(Linha.self, from: dados)
            guard let objeto = try JSONSerialization.jsonObject(with: dados) as? [String: Any], let payload = objeto["data"] else {
                Issue.record("a line without data: \(linha.prefix(80))")
                continue
            }
            eventos.append(
                NewEvent(
                    eventId: UUID(), type: cabecalho.type, schemaVersion: cabecalho.schemaVersion,
                    data: try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]), occurredAt: testInstant))
        }
        #expect(Set(eventos.map(\.type)) == Set(Catalogos.kinds.map(\.type)), "types without a stored shape, or unknown ones")
        try await withFixture(backend, upcasters: .catalogo) { fixture in
            let stream = uniqueStream("fixture")
            try await fixture.store.append(to: stream, expected: .noStream, events: eventos)
            let lidos = try await fixture.store.readStream(stream)
            #expect(lidos.count == eventos.count)
            for lido in lidos {
                let kind = try #require(Catalogos.kind(lido.type))
                #expect(lido.schemaVersion == kind.schemaVersion, "\(lido.type) read at v\(lido.schemaVersion)")
                #expect(try Catalogos.decode(type: lido.type, data: lido.data, using: EventJSON.decoder) != nil, "\(lido.type)")
            }
        }
    }

    @Test("a unit stored before units had an ISS rate and check-in window (v1) reads as the defaults (v2)")
    func unidade_v1_reads_as_v2() throws {
        let v1 = Data(
            #"""
            {"em":"2026-01-05T12:00:00Z","endereco":{"bairro":"Bela Vista","cep":"01310-100","cidade":"São Paulo","logradouro":"Av. Paulista","numero":"1000","uf":"SP"},"fusoHorario":"America/Sao_Paulo","nome":"Paulista","politica":{"horasSemMulta":24,"multaBP":5000},"unidadeId":"0d9cf0b8-6a55-4f6b-9a53-8b1f3e6f4d11"}
            """#.utf8)
        let payload = try #require(try Upcasters.catalogo.upcast(type: Unidade.Catalogo.cadastrada.type, version: 1, data: v1))
        #expect(payload.1 == 2)
        guard
            case .cadastrada(let cadastrada)? = try Unidade.Event.decode(
                type: Unidade.Catalogo.cadastrada.type, data: payload.0, using: EventJSON.decoder)
        else {
            Issue.record("not read back")
            return
        }
        #expect(cadastrada.operacao == .padrao)
    }
}
