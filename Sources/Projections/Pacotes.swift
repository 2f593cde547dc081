public import Domain
public import EventStore
public import Foundation

extension StreamNames {
    /// A bundle on sale: `pacote-<id>`.
    public static func pacote(_ id: UUID) -> StreamName { StreamName(category: Pacote.Catalogo.category, id: id.lowercasedString) }
    /// A member's purchase of a bundle: `compra-<id>`.
    public static func compra(_ id: UUID) -> StreamName {
        StreamName(category: CompraDePacote.Catalogo.category, id: id.lowercasedString)
    }
}

/// A bundle as members and operators read it.
public struct PacoteView: Codable, Sendable, Equatable {
    public let pacoteId: String
    public let nome: String
    public let descricao: String?
    public let unidadeId: String?
    /// `minutos` or `centavos`.
    public let medida: Carteira.Medida
    public let quantidade: Int64
    public let tipos: [Espaco.Tipo]
    public let validadeDias: Int
    public let precoCentavos: Int64
    public var arquivado: Bool
    public let criadoEm: Date

    public init(_ e: Pacote.Criado) {
        pacoteId = e.pacoteId.lowercasedString
        nome = e.oferta.nome
        descricao = e.descricao
        unidadeId = e.oferta.unidadeId?.lowercasedString
        medida = e.oferta.medida
        quantidade = e.oferta.quantidade
        tipos = e.oferta.tipos
        validadeDias = e.oferta.validadeDias
        precoCentavos = e.oferta.precoCentavos
        arquivado = false
        criadoEm = e.em
    }

    /// The bundle its stream's events make (nil: no `PacoteCriado`).
    public static func folding(_ events: [Pacote.Event]) -> PacoteView? {
        events.reduce(nil) { $0.aplicando($1) }
    }
}

extension Optional where Wrapped == PacoteView {
    func aplicando(_ event: Pacote.Event) -> PacoteView? {
        switch (self, event) {
        case (_, .criado(let e)): return PacoteView(e)
        case (.some(var view), .arquivado):
            view.arquivado = true
            return view
        case (.none, .arquivado): return nil
        }
    }
}

/// A member's purchase of a bundle: what it buys, how it is paid (the PIX code or the boleto's
/// line while pending), and the credits it granted once paid.
public struct CompraDePacoteView: Codable, Sendable, Equatable {
    public let compraId: String
    public let titular: String
    public let pacoteId: String
    /// The bundle as it was bought.
    public let pacote: Pacote.Oferta
    public let valorCentavos: Int64
    public let metodo: MetodoDePagamento
    public var status: CompraDePacote.Status
    public var cobranca: Pagamento.Cobranca?
    /// When a PIX or boleto stops being payable (nil until the charge is made).
    public var expiraEm: Date?
    /// The wallet's lot it granted (its id is the purchase's), and until when it lasts.
    public var loteId: String?
    public var validoAte: Date?
    /// Why the provider declined it.
    public var motivo: String?
    public let solicitadaEm: Date
    public var pagaEm: Date?
    /// An operator's refund: the money given back and the credits taken back.
    public var reembolso: ReembolsoDeCompraView?

    public init(_ e: CompraDePacote.Solicitada) {
        compraId = e.compraId.lowercasedString
        titular = e.titular
        pacoteId = e.pacoteId.lowercasedString
        pacote = e.oferta
        valorCentavos = e.oferta.precoCentavos
        metodo = e.metodo
        status = .pendente
        solicitadaEm = e.em
    }

    /// The purchase its stream's events make (nil: no `CompraDePacoteSolicitada`).
    public static func folding(_ events: [CompraDePacote.Event]) -> CompraDePacoteView? {
        events.reduce(nil) { $0.aplicando($1) }
    }
}

extension Optional where Wrapped == CompraDePacoteView {
    func aplicando(_ event: CompraDePacote.Event) -> CompraDePacoteView? {
        if case .solicitada(let e) = event { return CompraDePacoteView(e) }
        guard var view = self else { return nil }
        switch event {
        case .solicitada: break
        case .cobrancaEmitida(let e):
            view.cobranca = e.emissao.cobranca
            view.expiraEm = e.emissao.expiraEm
        case .paga(let e):
            view.status = .paga
            view.loteId = e.lote.loteId.lowercasedString
            view.validoAte = e.lote.validoAte
            view.pagaEm = e.em
            view.motivo = nil
        case .recusada(let e):
            view.status = .recusada
            view.motivo = e.motivo
        case .expirada:
            view.status = .expirada
        case .reembolsada(let e):
            view.status = .reembolsada
            view.reembolso = ReembolsoDeCompraView(
                valorCentavos: e.valor.centavos, medida: e.medida, retirado: e.retirado, motivo: e.motivo, em: e.em,
                concluidoEm: e.valor > .zero ? nil : e.em)
        case .reembolsoConcluido(let e):
            view.reembolso?.concluidoEm = e.em
        }
        return view
    }
}

/// A purchase's refund: `valorCentavos` paid back through the provider, `retirado` (of
/// `medida`) taken from the wallet.
public struct ReembolsoDeCompraView: Codable, Sendable, Equatable {
    public let valorCentavos: Int64
    public let medida: Carteira.Medida
    public let retirado: Int64
    public let motivo: String
    public let em: Date
    /// When the provider paid the money out (nil: not yet); a refund of no money is concluded
    /// when it is made.
    public var concluidoEm: Date?
}

/// When an unpaid purchase's charge expires.
public struct PrazoDeCompraView: Codable, Sendable, Equatable {
    public let compraId: String
    public let vence: Date
}

public enum PacotesReadModel {
    public static let pacotes = "pacotes"
    public static let compras = "compras_de_pacotes"
    /// The unpaid PIX and boleto purchases by their charge's expiry (group `prazo`), for the
    /// timer that expires them.
    public static let prazos = "compras_de_pacotes_prazos"

    /// `pacotes` (group `todos`, by name) and `compras_de_pacotes` (group: the buyer, the most
    /// recent first).
    public static let projection = Projection(
        name: "pacotes", collections: [pacotes, compras, prazos], types: Pacote.Catalogo.todos.types.union(CompraDePacote.Catalogo.todos.types)
    ) { recorded, batch in
        if let event = try Pacote.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) {
            let id: UUID
            switch event {
            case .criado(let e): id = e.pacoteId
            case .arquivado(let e): id = e.pacoteId
            }
            let chave = id.lowercasedString
            guard let view = try await batch.get(PacoteView.self, pacotes, chave).aplicando(event) else { return }
            try batch.put(view, pacotes, chave, grupo: "todos", ordem: view.nome.lowercased() + "|" + chave)
            return
        }
        guard let event = try CompraDePacote.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) else { return }
        let id: UUID
        switch event {
        case .solicitada(let e): id = e.compraId
        case .cobrancaEmitida(let e): id = e.compraId
        case .paga(let e): id = e.compraId
        case .recusada(let e): id = e.compraId
        case .expirada(let e): id = e.compraId
        case .reembolsada(let e): id = e.compraId
        case .reembolsoConcluido(let e): id = e.compraId
        }
        let chave = id.lowercasedString
        guard let view = try await batch.get(CompraDePacoteView.self, compras, chave).aplicando(event) else { return }
        try batch.put(view, compras, chave, grupo: view.titular, ordem: NotificacoesReadModel.recentesPrimeiro(view.solicitadaEm) + chave)
        if view.status == .pendente, let expiraEm = view.expiraEm {
            try batch.put(
                PrazoDeCompraView(compraId: chave, vence: expiraEm), prazos, chave, grupo: "prazo", ordem: ReservasReadModel.ordem(expiraEm))
        } else {
            batch.delete(prazos, chave)
        }
    }
}
