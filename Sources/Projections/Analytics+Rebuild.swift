public import EventStore
import Foundation
import Logging
import Synchronization

extension AnalyticsReadModel {
    /// How far a rebuild is.
    public struct Progress: Sendable {
        public enum Fase: Sendable { case leitura, escrita }

        public let fase: Fase
        /// Events read and decoded so far.
        public let eventos: Int
        /// The store's events up to the head when the rebuild began (an estimate: sequence
        /// numbers, which rolled-back appends leave gaps in).
        public let total: Int
        /// Documents written so far, of ``totalDeDocumentos`` (0 while reading).
        public let documentos: Int
        public let totalDeDocumentos: Int
        /// Since the rebuild began.
        public let segundos: Double
    }

    /// What a rebuild did.
    public struct ReplayResult: Sendable {
        /// Every event read, whatever its type, by the fast read (the tail the live runner
        /// applied meanwhile, folded onto the build before the swap, not counted).
        public let eventos: Int
        /// Events analytics decoded and folded.
        public let fatos: Int
        public let documentos: Int
        /// The projection's checkpoint now.
        public let posicao: GlobalPosition
        public let segundos: Double
        /// Reading, decoding and folding.
        public let segundosDeLeitura: Double
        public let segundosDeEscrita: Double

        public var eventosPorSegundo: Double { Double(eventos) / max(segundos, 1e-9) }
    }

    /// Rebuilds every analytics document from position zero, much faster than the runner: the
    /// store is read in large batches by `leitores` concurrent readers over consecutive ranges
    /// of the global order (each decodes its own events, skipping other types by their type
    /// string), the facts are folded in memory in global order, then the documents are
    /// written in short transactions and the checkpoint moved to the last event read.
    ///
    /// The documents are written beside the live ones (staged collections, as
    /// ``ProjectionRunner/rebuild(progress:)`` does) and swapped in by one transaction at the end:
    /// the live read model goes on being served and followed meanwhile, and an interrupted
    /// rebuild leaves it as it was. Two rebuilds take turns (the staged checkpoint's lease).
    public static func rebuild(
        store: any ProjectionStore, leitores: Int = 2, lote: Int = 10_000,
        progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) async throws -> ReplayResult {
        let destino = ProjectionTarget.staged(projection, geracao: Int64.random(in: 1...Int64.max))
        return try await store.whileHolding(lease: destino.checkpoint, retryEvery: .seconds(1)) {
            try await reconstruir(store: store, destino: destino, leitores: max(1, leitores), lote: max(1, lote), progress: progress)
        }
    }

    private static func reconstruir(
        store: any ProjectionStore, destino: ProjectionTarget, leitores: Int, lote: Int, progress: @Sendable (Progress) -> Void
    ) async throws -> ReplayResult {
        let inicio = ContinuousClock.now
        func decorrido() -> Double { (ContinuousClock.now - inicio).segundos }
        let head = try await store.headPosition()
        guard head > .start, let primeiro = try await store.readAll(after: .start, limit: 1).first else {
            let (lidos, promovido) = try await finalizador(store).promote(destino, after: .start, saved: try await destino.reset(in: store))
            return ReplayResult(
                eventos: lidos, fatos: 0, documentos: 0, posicao: promovido.position, segundos: decorrido(), segundosDeLeitura: 0,
                segundosDeEscrita: 0)
        }
        let total = Int(max(1, head.sequence - primeiro.position.sequence + 1))
        let lidos = Contador()
        let limites = particoes(de: primeiro.position.transaction, ate: head.transaction, em: leitores)

        // Read and decode in parallel, fold in order: partition k is folded once k-1 is done.
        var modelo = AnalyticsModel()
        var fatos = 0
        try await withThrowingTaskGroup(of: Void.self) { group in
            var fluxos: [AsyncThrowingStream<[AnalyticsFact], any Error>] = []
            for k in 0..<(limites.count - 1) {
                let (fluxo, saida) = AsyncThrowingStream.makeStream(of: [AnalyticsFact].self)
                fluxos.append(fluxo)
                let (de, ate) = (limites[k], limites[k + 1])
                group.addTask {
                    do {
                        try await ler(
                            store, de: k == 0 ? .start : GlobalPosition(transaction: de - 1, sequence: .max),
                            ateTransacao: ate, head: head, lote: lote, lidos: lidos, saida: saida)
                        saida.finish()
                    } catch {
                        saida.finish(throwing: error)
                        throw error
                    }
                }
            }
            for fluxo in fluxos {
                for try await chegados in fluxo {
                    for fato in chegados { modelo.apply(fato) }
                    fatos += chegados.count
                    progress(Progress(fase: .leitura, eventos: lidos.valor, total: total, documentos: 0, totalDeDocumentos: 0, segundos: decorrido()))
                }
            }
            try await group.waitForAll()
        }
        let eventos = lidos.valor
        let segundosDeLeitura = decorrido()
        progress(Progress(fase: .leitura, eventos: eventos, total: total, documentos: 0, totalDeDocumentos: 0, segundos: segundosDeLeitura))

        let documentos = try codificar(modelo, em: destino)
        let posicao: GlobalPosition
        do {
            posicao = try await escrever(documentos, store: store, em: destino, ate: head) { escritos in
                progress(
                    Progress(
                        fase: .escrita, eventos: eventos, total: total, documentos: escritos, totalDeDocumentos: documentos.count,
                        segundos: (ContinuousClock.now - inicio).segundos))
            }
        } catch {
            // The live documents are as they were.
            await destino.discard(after: error, in: store)
            throw error
        }
        let segundos = decorrido()
        return ReplayResult(
            eventos: eventos, fatos: fatos, documentos: documentos.count, posicao: posicao, segundos: segundos,
            segundosDeLeitura: segundosDeLeitura, segundosDeEscrita: segundos - segundosDeLeitura)
    }

    /// Boundaries of `n` ranges of transaction ids covering `[primeira, ultima]`: range k is
    /// `[limites[k], limites[k + 1])`. The global order is `(transaction, sequence)`, so a
    /// range of transactions is a contiguous stretch of it.
    static func particoes(de primeira: Int64, ate ultima: Int64, em n: Int) -> [Int64] {
        let largura = ultima - primeira + 1
        var limites: [Int64] = [primeira]
        for k in 1..<max(2, n + 1) {
            let limite = k >= n ? ultima + 1 : primeira + largura * Int64(k) / Int64(n)
            if limite > limites[limites.count - 1] { limites.append(limite) }
        }
        if limites.count == 1 { limites.append(ultima + 1) }
        return limites
    }

    /// Reads the events after `posicao` whose transaction is below `ateTransacao` (and not
    /// past `head`), decodes the ones analytics reads and hands their facts on, batch by batch.
    private static func ler(
        _ store: any ProjectionStore, de posicao: GlobalPosition, ateTransacao: Int64, head: GlobalPosition, lote: Int,
        lidos: Contador, saida: AsyncThrowingStream<[AnalyticsFact], any Error>.Continuation
    ) async throws {
        var posicao = posicao
        while true {
            try Task.checkCancellation()
            let eventos = try await store.readAllPayloads(after: posicao, limit: lote)
            var fatos: [AnalyticsFact] = []
            fatos.reserveCapacity(eventos.count)
            var contados = 0
            var fim = eventos.count < lote
            for evento in eventos {
                guard evento.position.transaction < ateTransacao, evento.position <= head else {
                    fim = true
                    break
                }
                contados += 1
                if let fato = try fato(evento) { fatos.append(fato) }
            }
            lidos.somar(contados)
            if !fatos.isEmpty { saida.yield(fatos) }
            guard !fim, let ultimo = eventos.last else { return }
            posicao = ultimo.position
        }
    }

    private static func codificar(_ modelo: AnalyticsModel, em destino: ProjectionTarget) throws -> [ReadModelChange] {
        try modelo.todasAsChaves.flatMap { chave in
            try modelo.documentos(chave).map { documento in
                ReadModelChange(
                    collection: destino.name(documento.colecao), key: documento.chave, grupo: documento.grupo, ordem: documento.ordem,
                    doc: try ReadModelJSON.encode(documento.valor))
            }
        }
    }

    /// Empties the staged collections, writes `documentos` there in batches of 500 (a few in
    /// flight), the last batch with the staged checkpoint at `posicao`, then swaps them in;
    /// returns the live checkpoint's position.
    private static func escrever(
        _ documentos: [ReadModelChange], store: any ProjectionStore, em destino: ProjectionTarget, ate posicao: GlobalPosition,
        progresso: (Int) -> Void
    ) async throws -> GlobalPosition {
        let tamanho = 500
        try await destino.reset(in: store)
        let lotes = stride(from: 0, to: documentos.count, by: tamanho).map { Array(documentos[$0..<min($0 + tamanho, documentos.count)]) }
        var escritos = 0
        try await withThrowingTaskGroup(of: Int.self) { group in
            var emVoo = 0
            for lote in lotes.dropLast() {
                if emVoo == 4, let feitos = try await group.next() {
                    emVoo -= 1
                    escritos += feitos
                    progresso(escritos)
                }
                group.addTask {
                    try await store.commit(lote, checkpoint: destino.checkpoint, at: .start)
                    return lote.count
                }
                emVoo += 1
            }
            for try await feitos in group {
                escritos += feitos
                progresso(escritos)
            }
        }
        let escrito = try await store.commit(lotes.last ?? [], checkpoint: destino.checkpoint, at: posicao, from: nil)
        progresso(documentos.count)
        // The live runner went on folding meanwhile: what it applied after `posicao` is folded
        // onto the staged documents too before they are swapped in.
        return try await finalizador(store).promote(destino, after: posicao, saved: escrito).promoted.position
    }

    /// Folds the events after a fast rebuild's head onto its staged documents, one at a time
    /// like the live runner, and swaps them in (``ProjectionRunner/promote(_:after:saved:progress:)``).
    private static func finalizador(_ store: any ProjectionStore) -> ProjectionRunner {
        ProjectionRunner(projection, store: store, logger: Logger(label: "coworkflow.analytics.rebuild"))
    }
}

/// Events read so far by all readers of a rebuild.
final class Contador: Sendable {
    private let atomico = Atomic<Int>(0)

    func somar(_ n: Int) { atomico.add(n, ordering: .relaxed) }

    var valor: Int { atomico.load(ordering: .relaxed) }
}

extension Duration {
    var segundos: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
