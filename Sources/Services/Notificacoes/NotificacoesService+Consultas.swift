import Domain
import EventStore
import Foundation
public import Projections

extension NotificacoesService {
    // MARK: Queries

    /// The member's in-app inbox, newest first.
    public func caixaDeEntrada(usuario: String, pagina: Int) async throws -> CaixaDeEntrada {
        let decoder = ReadModelJSON.decoder
        let lidaAte = try await store.document(NotificacoesReadModel.leitura, key: usuario).map { try decoder.decode(LeituraView.self, from: $0).ate }
        func lida(_ aviso: NotificacaoView) -> Bool { lidaAte.map { aviso.em <= $0 } ?? false }
        let docs = try await store.documents(NotificacoesReadModel.caixa, grupo: usuario, limit: 50, offset: (pagina - 1) * 50)
        let itens = try docs.map { try decoder.decode(NotificacaoView.self, from: $0) }
        // Newest first: the unread ones are the first, so counting stops at the first read one
        // (or at ``CaixaDeEntrada/maximoDeNaoLidas``).
        var naoLidas = 0
        var offset = 0
        contar: while naoLidas < CaixaDeEntrada.maximoDeNaoLidas {
            let lote =
                offset == (pagina - 1) * 50
                ? itens
                : try await store.documents(NotificacoesReadModel.caixa, grupo: usuario, limit: 50, offset: offset).map {
                    try decoder.decode(NotificacaoView.self, from: $0)
                }
            for aviso in lote {
                if lida(aviso) || naoLidas == CaixaDeEntrada.maximoDeNaoLidas { break contar }
                naoLidas += 1
            }
            guard lote.count == 50 else { break }
            offset += 50
        }
        return CaixaDeEntrada(
            itens: itens.map { CaixaDeEntrada.Item($0, lida: lida($0)) },
            total: try await store.count(NotificacoesReadModel.caixa, grupo: usuario), pagina: pagina, naoLidas: naoLidas)
    }

    /// Marks every notice the member has now as read.
    public func marcarComoLidas(usuario: String, caller: Caller) async throws {
        let now = clock.now
        let meta = EventMetadata(actor: usuario, requestId: caller.requestId, service: Self.service)
        let event = Notificacao.Event.lidas(Notificacao.Lidas(usuarioId: usuario, ate: now))
        try await store.append(
            to: StreamName(category: "notificacao", id: "leitura-\(usuario)"), expected: .any,
            events: [try NewEvent(eventId: EventIDs.next(), event: event, metadata: meta, occurredAt: now)], receipt: caller.receipt)
    }

    /// A page of the inbox, each notice read or not, and how many are unread.
    public struct CaixaDeEntrada: Encodable, Sendable {
        /// Unread notices are counted up to this many ("99+" for a person).
        public static let maximoDeNaoLidas = 100

        /// A notice as the inbox read model holds it, with whether it is read: encoded as the
        /// notice's fields plus `lida`.
        public struct Item: Encodable, Sendable {
            public let aviso: NotificacaoView
            public let lida: Bool

            init(_ aviso: NotificacaoView, lida: Bool) {
                self.aviso = aviso
                self.lida = lida
            }

            private enum CodingKeys: String, CodingKey { case lida }

            public func encode(to encoder: any Encoder) throws {
                try aviso.encode(to: encoder)
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(lida, forKey: .lida)
            }
        }

        public let itens: [Item]
        public let total: Int
        public let pagina: Int
        /// Unread notices in the whole inbox (at most ``maximoDeNaoLidas``).
        public let naoLidas: Int
    }
}
