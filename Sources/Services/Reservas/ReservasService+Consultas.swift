import Domain
import EventStore
import Foundation
public import Projections

extension ReservasService {
    // MARK: Queries (read models)

    public func reserva(_ id: String, usuario: String, admin: Bool) async throws -> ReservaView {
        guard let id = Reserva.ID(id), let doc = try await store.document(ReservasReadModel.reservas, key: id.description) else {
            throw ServiceError.naoEncontrado("a reserva \(id.prefix(60)) não existe")
        }
        let view = try ReadModelJSON.decoder.decode(ReservaView.self, from: doc)
        guard admin || view.usuarioId == usuario else { throw ServiceError.naoEncontrado("a reserva \(id) não existe") }
        return view
    }

    public func minhas(usuario: String, pagina: Int) async throws -> Pagina<ReservaView> {
        try await page(ReservasReadModel.reservas, grupo: usuario, pagina: pagina)
    }

    /// The member's bookings that still hold a slot (held or confirmed, not yet over, not a
    /// no-show), oldest first. Erasing an account's personal data waits until there are none.
    ///
    /// `emDia`: the bookings' own streams where the log after the read model's checkpoint names
    /// them: the ones it has not reached yet (a booking made a moment ago) and the ones it shows
    /// that changed since (cancelled a moment ago). A no-show is the check-in's event: one
    /// recorded since still counts as active (it refuses an erasure a moment longer). No wait for
    /// the projection, which may be down or rebuilding.
    public func ativas(usuario: String, emDia: Bool = false) async throws -> [ReservaView] {
        let now = clock.now, lote = 500
        // Read before the documents, which are at least as new as it.
        let desde = emDia ? try await store.checkpoint(ReservasReadModel.projection.checkpoint) : nil
        var vistas: [String: ReservaView] = [:]
        var offset = 0
        while true {
            let docs = try await store.documents(ReservasReadModel.reservas, grupo: usuario, limit: lote, offset: offset)
            for doc in docs {
                let view = try ReadModelJSON.decoder.decode(ReservaView.self, from: doc)
                vistas[view.id] = view
            }
            guard docs.count == lote else { break }
            offset += lote
        }
        if var position = desde {
            var mudadas: Set<String> = []
            // A no-show is the check-in's (its stream, not the booking's): taken as it comes.
            var naoCompareceu: [String: Date] = [:]
            let prefixo = "\(Reserva.Catalogo.category)-"
            while true {
                let events = try await store.readAllPayloads(after: position, limit: 1_000)
                for event in events {
                    if event.type == Checkin.Catalogo.noShowRegistrado.type, event.stream.category == Checkin.Catalogo.category {
                        let ocorrencia = try EventJSON.decoder.decode(Checkin.Ocorrencia.self, from: event.data)
                        naoCompareceu[ocorrencia.reservaId.description] = ocorrencia.em
                        continue
                    }
                    guard event.stream.category == Reserva.Catalogo.category else { continue }
                    if event.type == Reserva.Catalogo.solicitada.type {
                        let pedido = try EventJSON.decoder.decode(Reserva.Solicitada.self, from: event.data)
                        if pedido.usuarioId == usuario { mudadas.insert(pedido.reservaId.description) }
                    } else {
                        // One of the documents above, ended or changed after them.
                        let id = String(event.stream.rawValue.dropFirst(prefixo.count))
                        if vistas[id] != nil { mudadas.insert(id) }
                    }
                }
                guard let last = events.last, events.count == 1_000 else { break }
                position = last.position
            }
            for id in mudadas {
                guard let reserva = Reserva.ID(id) else { continue }
                let state = try await reservas.load(StreamNames.reserva(reserva)).state
                guard case .existente = state else { continue }
                // The stream has no no-show (the check-in's): the document's is kept.
                var view = try Self.view(state)
                view.naoCompareceuEm = vistas[id]?.naoCompareceuEm
                vistas[id] = view
            }
            for (id, em) in naoCompareceu { vistas[id]?.naoCompareceuEm = em }
        }
        return vistas.values
            .filter { [.solicitada, .confirmada].contains($0.status) && $0.fim > now && $0.naoCompareceuEm == nil }
            .sorted { $0.inicio < $1.inicio }
    }

    public func doDia(unidade: String, data texto: String, pagina: Int) async throws -> Pagina<ReservaView> {
        guard let unidade = Unidade.ID(unidade) else {
            throw ServiceError.requisicaoInvalida("'unidade' deve ser o id (UUID) de uma unidade", detalhes: ["campo": "unidade"])
        }
        guard let data = DataLocal(texto) else {
            throw ServiceError.requisicaoInvalida("'data' deve ser uma data AAAA-MM-DD", detalhes: ["campo": "data"])
        }
        // An empty day of a unit that does not exist would hide a typo in the id.
        guard try await store.streamVersion(StreamNames.unidade(unidade)) > 0 else {
            throw ServiceError.naoEncontrado("a unidade \(unidade) não existe")
        }
        return try await page(ReservasReadModel.porDia, grupo: ReservasReadModel.diaGrupo(unidade: unidade.description, data: data), pagina: pagina)
    }

    private func page(_ collection: String, grupo: String, pagina: Int) async throws -> Pagina<ReservaView> {
        let docs = try await store.documents(collection, grupo: grupo, limit: 50, offset: (pagina - 1) * 50)
        return Pagina(
            itens: try docs.map { try ReadModelJSON.decoder.decode(ReservaView.self, from: $0) },
            total: try await store.count(collection, grupo: grupo), pagina: pagina)
    }

    static func reservaId(_ text: String) throws -> Reserva.ID {
        guard let id = Reserva.ID(text) else {
            throw ServiceError.naoEncontrado(text.isEmpty ? "a reserva não existe" : "a reserva \(text.prefix(60)) não existe")
        }
        return id
    }

    static func view(_ state: Reserva.State) throws -> ReservaView {
        guard case .existente(let dados) = state else { throw ServiceError.naoEncontrado("a reserva não existe") }
        var view = ReservaView(dados.solicitacao)
        view.status = dados.status
        view.atualizadaEm = dados.atualizadaEm
        if dados.status != .solicitada { view.expiraEm = nil }
        if dados.status == .confirmada {
            view.confirmadaEm = dados.confirmadaEm ?? dados.atualizadaEm
            view.pagamentoId = dados.pagamentoId
        }
        if dados.remarcacoes > 0 {
            view.remarcacoes = dados.remarcacoes
            view.remarcadaEm = dados.remarcadaEm
        }
        if let c = dados.cancelamento {
            view.cancelamento = ReservaView.Cancelamento(em: c.em, por: c.por, motivo: c.motivo, multa: c.multa, reembolso: c.reembolso)
        }
        return view
    }
}
