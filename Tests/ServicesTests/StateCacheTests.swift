import Domain
import EventStore
import Foundation
import Projections
import TestSupport
import Testing

@testable import Services

@Suite("Aggregate state cache")
struct StateCacheTests {
    let espaco = UUID()
    let dia = DataLocal(ano: 2026, mes: 12, dia: 1)!
    let inicio = Date(timeIntervalSince1970: 1_796_112_000)  // 2026-12-01T00:00:00Z

    func agenda(_ store: any EventStore, _ cache: StateCache?) -> AggregateStore<Agenda.Command, Agenda.State, Agenda.Event, Agenda.Failure> {
        AggregateStore(store: store, decider: Agenda.decider(espacoId: espaco, data: dia), cache: cache) {
            try Agenda.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    /// Books hour `hora` of the day through `aggregate`, with the version it loaded.
    func ocupar(_ aggregate: AggregateStore<Agenda.Command, Agenda.State, Agenda.Event, Agenda.Failure>, hora: Int) async throws {
        let intervalo = try TimeRange(
            start: inicio.addingTimeInterval(Double(hora) * 3_600), end: inicio.addingTimeInterval(Double(hora + 1) * 3_600))
        try await aggregate.handle(
            StreamNames.agenda(espaco, dia), at: inicio, metadata: EventMetadata(), receipt: nil, failure: { _ in ServiceError.conflito("x", "x") }
        ) { _ in
            .ocupar(reserva: UUID(), intervalo: intervalo, limite: 1, em: inicio)
        }
    }

    @Test("two replicas with their own caches see each other's appends, and agree with a full fold")
    func replicas_stay_current() async throws {
        let path = TemporarySQLite.path("coworkflow-cache")
        defer { TemporarySQLite.remove(path) }
        let store = try SQLiteEventStore(path: path)
        let (cacheA, cacheB) = (StateCache(), StateCache())
        let stream = StreamNames.agenda(espaco, dia)

        try await ocupar(agenda(store, cacheA), hora: 8)
        #expect(try await agenda(store, cacheA).load(stream).version == 1)
        // Replica B appends twice; A's cached state is one version behind, then three.
        try await ocupar(agenda(store, cacheB), hora: 9)
        try await ocupar(agenda(store, cacheB), hora: 10)
        let (cached, version) = try await agenda(store, cacheA).load(stream)
        let (full, fullVersion) = try await agenda(store, nil).load(stream)
        #expect(version == 3)
        #expect(fullVersion == 3)
        #expect(cached == full)
        #expect(cached.ocupacoes.count == 3)

        // A decides on the cached state: the slot B took is refused, a free one is taken.
        await #expect(throws: ServiceError.self) { try await ocupar(agenda(store, cacheA), hora: 9) }
        try await ocupar(agenda(store, cacheA), hora: 11)
        #expect(try await agenda(store, cacheB).load(stream).state.ocupacoes.count == 4)
    }

    @Test("with a staleness, a state a read confirmed that recently is answered without a read; one from a prefetch, or older, is read")
    func staleness() async throws {
        let path = TemporarySQLite.path("coworkflow-cache")
        defer { TemporarySQLite.remove(path) }
        let store = try SQLiteEventStore(path: path)
        let (cacheA, cacheB) = (StateCache(), StateCache())
        let stream = StreamNames.agenda(espaco, dia)
        try await ocupar(agenda(store, cacheB), hora: 8)
        // A reads the stream (version 1), then reads again and finds nothing new: confirmed.
        #expect(try await agenda(store, cacheA).load(stream).version == 1)
        #expect(try await agenda(store, cacheA).load(stream).version == 1)
        try await ocupar(agenda(store, cacheB), hora: 9)
        // Within the staleness A answers what it confirmed; a load without one, or with a
        // staleness already past, reads B's append.
        #expect(try await agenda(store, cacheA).load(stream, staleness: .seconds(3_600)).version == 1)
        try await Task.sleep(for: .milliseconds(20))
        #expect(try await agenda(store, cacheA).load(stream, staleness: .milliseconds(10)).version == 2)
        try await ocupar(agenda(store, cacheB), hora: 10)
        #expect(try await agenda(store, cacheA).load(stream).version == 3)

        // A state folded from a prefetch is not confirmed by a read of its own: it is read.
        let cacheC = StateCache()
        let prefetched = try await Prefetched.read([agenda(store, cacheC).read(stream)], from: store)
        #expect(try await agenda(store, cacheC).load(stream, prefetched: prefetched).version == 3)
        try await ocupar(agenda(store, cacheB), hora: 11)
        #expect(try await agenda(store, cacheC).load(stream, staleness: .seconds(3_600)).version == 4)
    }

    @Test("a full cache starts over and still answers the stream's true state")
    func bounded() async throws {
        let path = TemporarySQLite.path("coworkflow-cache")
        defer { TemporarySQLite.remove(path) }
        let store = try SQLiteEventStore(path: path)
        let cache = StateCache(capacity: 1)
        try await ocupar(agenda(store, cache), hora: 8)
        // Another stream takes the cache's only place.
        cache.keep(Agenda.State(), version: 1, of: StreamName(category: "agenda", id: "outro"))
        #expect(cache.state(of: StreamNames.agenda(espaco, dia), as: Agenda.State.self) == nil)
        try await ocupar(agenda(store, cache), hora: 9)
        #expect(try await agenda(store, cache).load(StreamNames.agenda(espaco, dia)).state.ocupacoes.count == 2)
    }
}

@Suite("Stream turns")
struct StreamTurnsTests {
    actor Log {
        var entries: [String] = []
        func add(_ entry: String) { entries.append(entry) }
    }

    @Test("tasks on one stream take turns in arrival order; other streams go meanwhile; multi-stream turns do not deadlock")
    func turns() async throws {
        let turns = StreamTurns()
        let log = Log()
        let (held, holding) = AsyncStream<Void>.makeStream()
        let (release, releasing) = AsyncStream<Void>.makeStream()
        let a = Task {
            try await turns.withTurn(of: ["agenda-1"]) {
                await log.add("a in")
                holding.yield()
                for await _ in release { break }
                await log.add("a out")
            }
        }
        for await _ in held { break }
        let b = Task { try await turns.withTurn(of: ["agenda-1"]) { await log.add("b") } }
        // Another stream is not held up by a's turn.
        try await turns.withTurn(of: ["agenda-2"]) { await log.add("c") }
        try await Task.sleep(for: .milliseconds(50))
        #expect(await log.entries == ["a in", "c"])
        releasing.yield()
        try await a.value
        try await b.value
        #expect(await log.entries == ["a in", "c", "a out", "b"])

        // Two multi-day bookings naming the same days in opposite orders both finish.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<50 {
                let days: [StreamName] = round.isMultiple(of: 2) ? ["agenda-x", "agenda-y"] : ["agenda-y", "agenda-x"]
                group.addTask { try await turns.withTurn(of: days) { await Task.yield() } }
            }
            try await group.waitForAll()
        }
    }
}
