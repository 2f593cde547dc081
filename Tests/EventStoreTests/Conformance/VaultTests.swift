import Domain
import EventStore
import Foundation
import Testing

@Suite("Personal data vault")
struct VaultTests {
    struct Registered: Codable, Equatable {
        let usuarioId: UUID
        let nome: SealedField
        let email: SealedField
        let papel: String
    }

    @Test("personal fields are stored encrypted and read back in clear", arguments: Backend.allCases)
    func sealed_in_events(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let person = UUID()
            let payload = Registered(
                usuarioId: person, nome: try await fixture.vault.seal("Maria da Silva", for: person),
                email: try await fixture.vault.seal("maria@example.com", for: person), papel: "membro")
            let stream = uniqueStream("usuario")
            let data = try EventJSON.encoder.encode(payload)
            try await fixture.store.append(
                to: stream, expected: .noStream,
                events: [
                    NewEvent(eventId: UUID(), type: "UsuarioRegistrado", data: data, occurredAt: testInstant)
                ])
            let stored = try #require(try await fixture.store.readStream(stream).first)
            let raw = String(decoding: stored.data, as: UTF8.self)
            #expect(!raw.contains("Maria"))
            #expect(!raw.contains("maria@example.com"))
            let read = try stored.decode(Registered.self)
            #expect(try await fixture.vault.open(read.nome) == .clear("Maria da Silva"))
            #expect(try await fixture.vault.open(read.email) == .clear("maria@example.com"))
        }
    }

    @Test("erasing a person shreds their fields; the events stay and still load", arguments: Backend.allCases)
    func erasure(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let maria = UUID(), joao = UUID()
            let stream = uniqueStream("usuario")
            var sent: [NewEvent] = []
            for person in [maria, joao] {
                let payload = Registered(
                    usuarioId: person, nome: try await fixture.vault.seal("Pessoa \(person)", for: person),
                    email: try await fixture.vault.seal("\(person)@example.com", for: person), papel: "membro")
                sent.append(
                    NewEvent(eventId: UUID(), type: "UsuarioRegistrado", data: try EventJSON.encoder.encode(payload), occurredAt: testInstant))
            }
            try await fixture.store.append(to: stream, expected: .noStream, events: sent)

            #expect(try await fixture.vault.erase(subject: maria))
            #expect(try await fixture.vault.erase(subject: maria) == false)

            let read = try await fixture.store.readStream(stream).map { try $0.decode(Registered.self) }
            #expect(read.count == 2)
            #expect(read[0].papel == "membro")
            #expect(try await fixture.vault.open(read[0].nome) == .erased)
            #expect(try await fixture.vault.open(read[0].email) == .erased)
            #expect(try await fixture.vault.open(read[1].nome) == .clear("Pessoa \(joao)"))
        }
    }

    @Test("a sealed field moved to another person or altered does not open", arguments: Backend.allCases)
    func tampering(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let a = UUID(), b = UUID()
            let sealed = try await fixture.vault.seal("segredo", for: a)
            _ = try await fixture.vault.seal("outro", for: b)
            let moved = SealedField(rawValue: sealed.rawValue.replacingOccurrences(of: a.uuidString.lowercased(), with: b.uuidString.lowercased()))
            await #expect(throws: (any Error).self) { try await fixture.vault.open(moved) }
            await #expect(throws: EventStoreError.self) { try await fixture.vault.open(SealedField(rawValue: "pii:v1:nonsense")) }
            #expect("\(sealed)".contains("segredo") == false)
        }
    }
}
