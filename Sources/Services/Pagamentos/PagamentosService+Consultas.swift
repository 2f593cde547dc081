public import Domain
import EventStore
public import Foundation
import Projections

extension PagamentosService {
    // MARK: Queries

    /// The payment of a booking, as its member (or an admin) sees it. Read from its stream: a
    /// handful of events, and the member polls it right after booking.
    public func pagamento(reserva texto: String, usuario: String, admin: Bool) async throws -> PagamentoView {
        guard let reservaId = Reserva.ID(texto) else { throw ServiceError.naoEncontrado("a reserva \(texto.prefix(60)) não existe") }
        let (state, _) = try await pagamentos.load(Self.stream(Pagamento.ID(reservaId.rawValue)))
        guard case .existente(let dados) = state else {
            // The charge is created just after the booking: say so while it is on its way.
            let reserva = try await store.readStream(StreamNames.reserva(reservaId))
            guard let first = reserva.first,
                let solicitada = try? EventJSON.decoder.decode(Reserva.Solicitada.self, from: first.data),
                admin || solicitada.usuarioId == usuario
            else { throw ServiceError.naoEncontrado("a reserva \(reservaId) não existe") }
            return PagamentoView(aguardando: solicitada)
        }
        guard admin || dados.inicio.usuarioId == usuario else { throw ServiceError.naoEncontrado("a reserva \(reservaId) não existe") }
        return PagamentoView(dados)
    }
}

/// A booking's payment as clients read it. `status` is `aguardando_cobranca` for the moment
/// between the booking and its charge.
public struct PagamentoView: Codable, Sendable, Equatable {
    public struct ReembolsoView: Codable, Sendable, Equatable {
        public let id: String
        public let valor: Money
        public let concluido: Bool
    }

    public let id: String
    public let reservaId: String
    public let status: String
    public let metodo: MetodoDePagamento?
    public let valor: Money
    public let cobrancaId: String?
    public let pix: Pagamento.Pix?
    public let boleto: Pagamento.Boleto?
    public let expiraEm: Date?
    public let confirmadoEm: Date?
    public let motivo: String?
    public let reembolsos: [ReembolsoView]
    public let reembolsado: Money

    init(_ d: Pagamento.Dados) {
        id = d.id.description
        reservaId = d.inicio.reservaId.lowercasedString
        status = d.status.rawValue
        metodo = d.inicio.metodo
        valor = d.valor
        cobrancaId = d.inicio.cobrancaId
        pix = d.inicio.pix
        boleto = d.inicio.boleto
        expiraEm = d.status == .pendente ? d.inicio.expiraEm : nil
        confirmadoEm = d.confirmadoEm
        motivo = d.motivo
        reembolsos = d.reembolsos.map { ReembolsoView(id: $0.reembolsoId.lowercasedString, valor: $0.valor, concluido: $0.concluido) }
        reembolsado = d.reembolsos.filter(\.concluido).reduce(.zero) { $0 + $1.valor }
    }

    init(aguardando reserva: Reserva.Solicitada) {
        id = reserva.reservaId.description
        reservaId = reserva.reservaId.description
        status = "aguardando_cobranca"
        metodo = reserva.pagamento?.metodo ?? .pix
        valor = reserva.total
        cobrancaId = nil
        pix = nil
        boleto = nil
        expiraEm = reserva.expiraEm
        confirmadoEm = nil
        motivo = nil
        reembolsos = []
        reembolsado = .zero
    }
}
