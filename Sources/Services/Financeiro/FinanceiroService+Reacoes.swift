import Crypto
import Domain
public import EventStore
import Foundation
import Projections

extension FinanceiroService {
    // MARK: Reactor

    /// The payload of `PagamentoConfirmado` this service reads (pagamentos owns the event).
    struct PagamentoConfirmado: Decodable {
        let pagamentoId: UUID
        let reservaId: UUID
        let usuarioId: String
        let unidadeId: UUID
        let espacoId: UUID
        let metodo: String
        let valor: Money
        let em: Date
    }

    /// The payload of `ReembolsoConcluido` this service reads.
    struct ReembolsoConcluido: Decodable {
        let pagamentoId: UUID
        let reembolsoId: UUID
        let unidadeId: UUID
        let valor: Money
        let em: Date
    }

    /// An event this service cannot act on: the bus retries it and then dead-letters it, where
    /// an operator sees `motivo`.
    struct ReacaoImpossivel: Error, CustomStringConvertible {
        let evento: UUID
        let tipo: String
        let motivo: String

        var description: String { "financeiro não pode tratar \(tipo) \(evento.lowercasedString): \(motivo)" }
    }

    /// The bus reactor: the writes `event` calls for (none for an event already accounted for,
    /// a payment or refund of zero, or a type it does not handle). An event it cannot account
    /// for (unknown unit or space, a refund beyond its invoice) throws: the bus retries it and
    /// then dead-letters it.
    public func reagir(_ event: RecordedEvent) async throws -> [StreamWrite] {
        switch event.type {
        case Pagamento.Catalogo.confirmado: try await faturar(event)
        case Pagamento.Catalogo.reembolsoConcluido: try await creditar(event)
        case Assinatura.Catalogo.cobrancaConfirmada: try await faturarCiclo(event)
        case CompraDePacote.Catalogo.paga: try await faturarPacote(event)
        case CompraDePacote.Catalogo.reembolsada: try await creditarPacote(event)
        default: []
        }
    }

    private func faturar(_ event: RecordedEvent) async throws -> [StreamWrite] {
        let pagamento = try event.decode(PagamentoConfirmado.self)
        guard pagamento.valor != .zero else { return [] }  // nothing was charged: nothing to invoice
        let unidadeId = Unidade.ID(pagamento.unidadeId)
        let unidade = try await self.unidade(unidadeId, causa: event)
        guard case .existente(let espaco) = try await espacos.load(StreamNames.espaco(Espaco.ID(pagamento.espacoId))).state else {
            throw ReacaoImpossivel(evento: event.eventId, tipo: event.type, motivo: "o espaço \(pagamento.espacoId) não existe")
        }
        let now = clock.now
        let command = Fatura.Command.emitir(
            Fatura.Pagamento(
                pagamentoId: pagamento.pagamentoId, reservaId: pagamento.reservaId, usuarioId: pagamento.usuarioId, unidadeId: unidadeId,
                espacoId: pagamento.espacoId, tipoDeEspaco: espaco.tipo.rawValue, metodo: pagamento.metodo, valor: pagamento.valor,
                pagoEm: pagamento.em),
            faturaId: Fatura.ID(Self.id(causa: event.eventId, "fatura")), lancamentoId: Self.id(causa: event.eventId, "lancamento"),
            // Dated when the money moved, not when this reaction ran (a lagging bus, a
            // redriven event): the revenue of a day is what was paid that day, as analytics
            // counts it. The decider keeps dates in the order of the numbers.
            aliquotaISSBP: unidade.aliquotaISSBP, fuso: unidade.fuso, em: min(pagamento.em, now))
        return try await decidir(command, unidade: unidadeId, causa: event, em: now)
    }

    private func creditar(_ event: RecordedEvent) async throws -> [StreamWrite] {
        let reembolso = try event.decode(ReembolsoConcluido.self)
        guard reembolso.valor != .zero else { return [] }  // nothing went back: nothing to credit
        return try await creditar(
            Fatura.Reembolso(
                reembolsoId: reembolso.reembolsoId, pagamentoId: reembolso.pagamentoId, unidadeId: Unidade.ID(reembolso.unidadeId),
                valor: reembolso.valor, reembolsadoEm: reembolso.em), causa: event)
    }

    /// The credit note of `reembolso` in its unit's book, dated when the money went back.
    func creditar(_ reembolso: Fatura.Reembolso, causa event: RecordedEvent) async throws -> [StreamWrite] {
        let unidade = try await self.unidade(reembolso.unidadeId, causa: event)
        let now = clock.now
        let command = Fatura.Command.emitirNotaDeCredito(
            reembolso, notaId: Fatura.NotaDeCredito.ID(Self.id(causa: event.eventId, "nota")),
            lancamentoId: Self.id(causa: event.eventId, "lancamento"), fuso: unidade.fuso, em: min(reembolso.reembolsadoEm, now))
        return try await decidir(command, unidade: reembolso.unidadeId, causa: event, em: now)
    }

    func unidade(_ id: Unidade.ID, causa event: RecordedEvent) async throws -> Unidade.Dados {
        guard case .existente(let unidade) = try await unidades.load(StreamNames.unidade(id)).state else {
            throw ReacaoImpossivel(evento: event.eventId, tipo: event.type, motivo: "a unidade \(id) não existe")
        }
        return unidade
    }

    /// Decides `command` on the unit's book as it is now; the write expects exactly that version.
    func decidir(_ command: Fatura.Command, unidade: Unidade.ID, causa event: RecordedEvent, em now: Date) async throws -> [StreamWrite] {
        let livro = self.livro(unidade)
        let stream = StreamNames.faturas(unidade)
        let (state, version) = try await livro.load(stream)
        let events: [Fatura.Event]
        do throws(Fatura.Failure) {
            events = try livro.decider.decide(command, state)
        } catch {
            throw ReacaoImpossivel(evento: event.eventId, tipo: event.type, motivo: Self.motivo(error))
        }
        guard !events.isEmpty else { return [] }
        var metadata = event.metadata.caused(by: event.eventId, correlationId: event.metadata.correlationId)
        metadata.actor = Self.ator
        metadata.service = Self.consumidor
        let novos = try events.enumerated().map { index, domainEvent in
            try NewEvent(eventId: Self.id(causa: event.eventId, "evento-\(index)"), event: domainEvent, metadata: metadata, occurredAt: now)
        }
        return [StreamWrite(stream: stream, expected: .after(version), events: novos)]
    }

    static func motivo(_ failure: Fatura.Failure) -> String {
        switch failure {
        case .outraUnidade(let unidade): "o comando é da unidade \(unidade), não deste livro"
        case .valorInvalido(let valor): "valor \(valor) inválido: deve ser positivo"
        case .aliquotaInvalida(let bp): "alíquota de ISS \(bp) pontos-base fora de 0…10000"
        case .faturaNaoEncontrada(let pagamento): "não há fatura do pagamento \(pagamento.lowercasedString) nesta unidade"
        case .reembolsoExcedeFatura(let disponivel): "o reembolso excede o saldo da fatura (\(disponivel))"
        case .lancamentoInvalido(let falha): "lançamento contábil inválido: \(falha)"
        }
    }

    /// A name-based UUID (RFC 9562 version 8, SHA-256) of the cause's event id and `nome`:
    /// the same cause always yields the same ids.
    static func id(causa: UUID, _ nome: String) -> UUID {
        let digest = SHA256.hash(data: Data("coworkflow.financeiro|\(causa.lowercasedString)|\(nome)".utf8))
        var b = Array(digest.prefix(16))
        b[6] = (b[6] & 0x0F) | 0x80
        b[8] = (b[8] & 0x3F) | 0x80
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
