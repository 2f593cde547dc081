public import Domain
public import EventStore
public import Foundation

extension StreamNames {
    /// A holder's credits: `creditos-<titular>` (a member's id).
    public static func creditos(_ titular: String) -> StreamName { StreamName(category: Carteira.Catalogo.category, id: titular) }

    /// The company whose pooled credits `stream` holds (`creditos-empresa-<id>`); nil for any
    /// other stream, a member's wallet included.
    public static func empresa(daCarteira stream: StreamName) -> UUID? {
        let prefixo = "\(Carteira.Catalogo.category)-"
        guard stream.rawValue.hasPrefix(prefixo) else { return nil }
        return Empresa.id(doTitular: String(stream.rawValue.dropFirst(prefixo.count)))
    }
}

/// One lot of a wallet and what is left of it.
public struct LoteView: Codable, Sendable, Equatable {
    public let loteId: String
    public let medida: Carteira.Medida
    public let quantidade: Int64
    public var restante: Int64
    public let tipos: [Espaco.Tipo]
    public let unidadeId: String?
    public let validoAte: Date?
    public let origem: Carteira.Origem
    public let descricao: String
    public let concedidoEm: Date

    init(_ lote: Carteira.Lote, em: Date) {
        loteId = lote.loteId.lowercasedString
        medida = lote.medida
        quantidade = lote.quantidade
        restante = lote.quantidade
        tipos = lote.tipos
        unidadeId = lote.unidadeId?.lowercasedString
        validoAte = lote.validoAte
        origem = lote.origem
        descricao = lote.descricao
        concedidoEm = em
    }
}

/// A holder's credits as they read them: the balance of each measure and every lot granted,
/// with what is left of it (a lot spent to zero stays: a cancelled booking gives back to it).
public struct CarteiraView: Codable, Sendable, Equatable {
    public let titular: String
    /// Minutes left in lots that have not expired (the timer expires a lot soon after its time).
    public var minutos: Int64
    /// Centavos left.
    public var centavos: Int64
    public var lotes: [LoteView]
    public var atualizadaEm: Date?

    public init(titular: String) {
        self.titular = titular
        minutos = 0
        centavos = 0
        lotes = []
    }

    /// The view of a wallet's state (what a command answers before the projection catches up).
    public init(titular: String, _ state: Carteira.State, atualizadaEm: Date?) {
        self.init(titular: titular)
        for saldo in state.saldos {
            var lote = LoteView(saldo.lote, em: saldo.concedidoEm)
            lote.restante = saldo.restante
            lotes.append(lote)
        }
        self.atualizadaEm = atualizadaEm
        totalizar()
    }

    mutating func totalizar() {
        minutos = lotes.filter { $0.medida == .minutos }.reduce(0) { $0 + $1.restante }
        centavos = lotes.filter { $0.medida == .centavos }.reduce(0) { $0 + $1.restante }
    }

    /// The earliest instant a lot with something left expires: when the wallet's timer is due.
    var proximoVencimento: Date? { lotes.filter { $0.restante > 0 }.compactMap(\.validoAte).min() }
}

/// One line of a holder's statement: credits in (positive) or out (negative) of one measure.
public struct MovimentoView: Codable, Sendable, Equatable {
    public enum Tipo: String, Codable, Sendable {
        case concedidos, consumidos, restituidos, retidos, expirados, ajustados
    }

    public let id: String
    public let titular: String
    public let tipo: Tipo
    public let medida: Carteira.Medida
    /// Signed: positive in, negative out; `retidos` (kept under a cancellation policy) is 0
    /// in and shows what the booking kept in `retido`.
    public let quantidade: Int64
    public let retido: Int64?
    public let reservaId: String?
    public let descricao: String
    public let motivo: String?
    public let por: String?
    public let em: Date
}

/// The wallet's expiry timer: due when its first lot with something left expires.
public struct CreditosPrazoView: Codable, Sendable, Equatable {
    public let titular: String
    public let vence: Date
}

public enum CreditosReadModel {
    public static let carteiras = "carteiras"
    public static let extrato = "creditos_extrato"
    public static let prazos = "creditos_prazos"

    /// The statement's order: the latest first (the log's order, reversed).
    static func ordem(_ posicao: GlobalPosition) -> String {
        AnalyticsReadModel.ordemDecrescente(posicao.transaction) + "|" + AnalyticsReadModel.ordemDecrescente(posicao.sequence)
    }

    /// `carteiras` (one per holder), `creditos_extrato` (the statement, grouped by holder,
    /// the latest first, keyed `<event id>|<kind>|<measure>`) and `creditos_prazos` (the expiry
    /// timers in group `prazo`, ordered by due time).
    public static let projection = Projection(
        name: "creditos", collections: [carteiras, extrato, prazos], types: Carteira.Catalogo.todos.types
    ) { recorded, batch in
        guard let event = try Carteira.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) else { return }
        let titular: String
        let em: Date
        switch event {
        case .concedidos(let e): (titular, em) = (e.titular, e.em)
        case .consumidos(let e): (titular, em) = (e.titular, e.em)
        case .restituidos(let e): (titular, em) = (e.titular, e.em)
        case .expirados(let e): (titular, em) = (e.titular, e.em)
        case .ajustados(let e): (titular, em) = (e.titular, e.em)
        case .usoRemarcado: return  // a month's use moved: no lot, balance or statement line changes
        }
        var view = try await batch.get(CarteiraView.self, carteiras, titular) ?? CarteiraView(titular: titular)
        var nomes: [String: String] = [:]
        for lote in view.lotes { nomes[lote.loteId] = lote.descricao }
        func mover(_ partes: [Carteira.Parte], _ sinal: Int64) {
            for parte in partes {
                guard let i = view.lotes.firstIndex(where: { $0.loteId == parte.loteId.lowercasedString }) else { continue }
                view.lotes[i].restante += sinal * parte.quantidade
            }
        }
        var movimentos: [MovimentoView] = []
        let evento = recorded.eventId.lowercasedString
        func movimento(
            _ tipo: MovimentoView.Tipo, _ partes: [Carteira.Parte], sinal: Int64, reserva: UUID? = nil, descricao: String,
            motivo: String? = nil, por: String? = nil, retido: Bool = false
        ) {
            for medida in Carteira.Medida.allCases {
                let total = partes.filter { $0.medida == medida }.reduce(0) { $0 + $1.quantidade }
                guard total > 0 else { continue }
                movimentos.append(
                    MovimentoView(
                        id: "\(evento)|\(tipo.rawValue)|\(medida.rawValue)", titular: titular, tipo: tipo, medida: medida,
                        quantidade: retido ? 0 : sinal * total, retido: retido ? total : nil, reservaId: reserva?.lowercasedString,
                        descricao: descricao, motivo: motivo, por: por, em: em))
            }
        }
        switch event {
        case .concedidos(let e):
            view.lotes.append(LoteView(e.lote, em: e.em))
            movimento(
                .concedidos, [Carteira.Parte(loteId: e.lote.loteId, medida: e.lote.medida, quantidade: e.lote.quantidade)], sinal: 1,
                descricao: e.lote.descricao, por: e.por)
        case .consumidos(let e):
            mover(e.partes, -1)
            movimento(.consumidos, e.partes, sinal: -1, reserva: e.reservaId, descricao: "Reserva \(e.reservaId.lowercasedString)")
        case .restituidos(let e):
            mover(e.partes, 1)
            let reserva = "Reserva \(e.reservaId.lowercasedString)"
            let noShow = e.noShow == true
            movimento(
                .restituidos, e.partes, sinal: 1, reserva: e.reservaId,
                descricao: noShow ? "\(reserva): não comparecimento; créditos devolvidos" : "\(reserva) encerrada: créditos devolvidos")
            movimento(
                .retidos, e.retidas, sinal: 0, reserva: e.reservaId,
                descricao: noShow
                    ? "\(reserva): não comparecimento; retidos pela política da unidade"
                    : "\(reserva) cancelada: retidos pela política de cancelamento",
                retido: true)
        case .expirados(let e):
            mover(e.partes, -1)
            let lotes = Set(e.partes.map { nomes[$0.loteId.lowercasedString] ?? "créditos" }).sorted().joined(separator: ", ")
            movimento(.expirados, e.partes, sinal: -1, descricao: "Validade encerrada: \(lotes)")
        case .ajustados(let e):
            if let lote = e.lote {
                view.lotes.append(LoteView(lote, em: e.em))
                movimento(
                    .ajustados, [Carteira.Parte(loteId: lote.loteId, medida: lote.medida, quantidade: lote.quantidade)], sinal: 1,
                    descricao: lote.descricao, motivo: e.motivo, por: e.por)
            }
            mover(e.partes, -1)
            movimento(.ajustados, e.partes, sinal: -1, descricao: "Ajuste da operação", motivo: e.motivo, por: e.por)
        case .usoRemarcado: break
        }
        view.atualizadaEm = em
        view.totalizar()
        try batch.put(view, carteiras, titular)
        for movimento in movimentos {
            try batch.put(movimento, extrato, movimento.id, grupo: titular, ordem: ordem(recorded.position))
        }
        if let vence = view.proximoVencimento {
            try batch.put(CreditosPrazoView(titular: titular, vence: vence), prazos, titular, grupo: "prazo", ordem: ReservasReadModel.ordem(vence))
        } else {
            batch.delete(prazos, titular)
        }
    }
}
