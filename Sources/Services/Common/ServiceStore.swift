public import EventStore
import Foundation
import Projections

/// What a service asks of the store: its aggregates' streams, the read models it answers from,
/// and the log's head with the projections' checkpoints, to wait for a read model to have what
/// was written (``emDia(_:_:limite:pausa:)``). Services that forget request keys (usuarios) name that
/// port besides.
public typealias ServiceStore = EventLog & EventFeed & Checkpoints & ReadModelStore

/// Waits until the read model kept under `checkpoint` has every event the log held when called
/// (its checkpoint at the head then), for at most `limite`. A member's write answers before the
/// read models have it (ADR 0005): a timer, or a decision that reads a read model (a space's
/// bookings to come), calls this first so that a booking made a moment ago is not missed. A
/// projection that is down or rebuilding costs the limit, not an error: the read model is then
/// as far as it got, as before. The checkpoint is read again every `pausa` (a statement each).
func emDia(
    _ store: any EventFeed & Checkpoints, _ checkpoint: String, limite: Duration = .seconds(2), pausa: Duration = .milliseconds(5)
) async throws {
    let head = try await store.headPosition()
    let deadline = ContinuousClock.now + limite
    while try await store.checkpoint(checkpoint) < head, ContinuousClock.now < deadline {
        try await Task.sleep(for: pausa)
    }
}

/// How often a timer's pass looks at its read model's checkpoint while it catches up
/// (``emDia(_:_:limite:pausa:)``). The pass waits for nobody, so every 20 ms (a third of the
/// runners' 60 ms beat under load: a read model is up to a beat behind then) rather than every
/// 5: the eight timers of a deployment polled their checkpoints 0.08–0.17 times a booking under
/// load (docs/benchmarks.md, session 57).
let pausaDeTemporizador: Duration = .milliseconds(20)

/// What a timer's pass looks at: the first `limite` documents of a read model's timers, in
/// group `grupo` of `colecao` (ordered by when they fall due), once `projecao` has the log as it
/// was when called (``emDia(_:_:limite:pausa:)``), so that one set a moment ago is not missed.
func lerPrazos<Prazo: Decodable>(
    _ tipo: Prazo.Type, de projecao: Projection, em colecao: String, grupo: String = "prazo", limite: Int, store: any ServiceStore
) async throws -> [Prazo] {
    try await emDia(store, projecao.checkpoint, pausa: pausaDeTemporizador)
    return try await store.documents(colecao, grupo: grupo, limit: limite, offset: 0).map { try ReadModelJSON.decoder.decode(tipo, from: $0) }
}
