import Domain
import EventStore
public import Foundation

/// The part of a stored event analytics folds: ids, instants (whole seconds since 1970, UTC)
/// and amounts (centavos). Decoded by analytics' own reader from the stored JSON, so nothing
/// here depends on other services' Swift types, only on their stored shapes.
public enum AnalyticsFact: Sendable, Equatable {
    /// `UnidadeCadastrada`, `UnidadeAtualizada`: the unit's IANA time zone.
    case unidade(id: UUID, fusoHorario: String)
    case espacoCadastrado(EspacoCadastrado)
    /// `EspacoAtualizado`: every editable field after the update.
    case espacoAtualizado(espaco: UUID, nome: String, capacidade: Int, em: Int64)
    case horarioDefinido(espaco: UUID, horario: AnalyticsEspaco.Horario, em: Int64)
    case espacoDesativado(espaco: UUID, em: Int64)
    case espacoReativado(espaco: UUID, em: Int64)
    case reservaSolicitada(ReservaSolicitada)
    case reservaConfirmada(reserva: UUID, em: Int64)
    case reservaCancelada(reserva: UUID, em: Int64)
    /// `ReservaCancelada` by `system:pagamentos`: the hold released because its payment was
    /// declined. Nobody cancelled it; it is counted apart.
    case reservaRecusada(reserva: UUID, em: Int64)
    case reservaExpirada(reserva: UUID, em: Int64)
    /// `ReservaRemarcada`: the booking moved to `inicio..<fim` of the same space (its `para`;
    /// the time it left, `de`, is the one the booking's earlier events established).
    case reservaRemarcada(reserva: UUID, inicio: Int64, fim: Int64, em: Int64)
    case pagamentoConfirmado(Movimento)
    case reembolsoConcluido(Movimento)
    case checkinRealizado(reserva: UUID, em: Int64)
    case noShowRegistrado(reserva: UUID, em: Int64)
    /// `BloqueioAgendado` with reason `locacao`: the space let over `inicio..<fim` (other
    /// blocks are no fact: the space is closed then, not occupied).
    case locacaoAgendada(espaco: UUID, bloqueio: UUID, inicio: Int64, fim: Int64)
    /// `BloqueioEncurtado`: a block (a lease) ends at `fim` now.
    case bloqueioEncurtado(espaco: UUID, bloqueio: UUID, fim: Int64)
    /// `BloqueioRemovido`: a block (perhaps a lease) is gone.
    case bloqueioRemovido(espaco: UUID, bloqueio: UUID)

    public struct EspacoCadastrado: Sendable, Equatable {
        public let espaco: UUID
        public let unidade: UUID
        public let nome: String
        /// `Espaco.Tipo`'s stored value, e.g. `sala_reuniao`.
        public let tipo: String
        public let capacidade: Int
        public let horario: AnalyticsEspaco.Horario
        public let em: Int64
    }

    public struct ReservaSolicitada: Sendable, Equatable {
        public let reserva: UUID
        public let espaco: UUID
        public let unidade: UUID
        public let usuario: String
        public let inicio: Int64
        public let fim: Int64
        public let em: Int64
    }

    /// A confirmed payment or a completed refund.
    public struct Movimento: Sendable, Equatable {
        public let espaco: UUID?
        public let unidade: UUID?
        public let usuario: String
        /// Centavos, as stored (a refund's amount is positive).
        public let valor: Int64
        public let em: Int64
    }

    /// Who cancels a hold whose payment was declined (reservas' reaction to PagamentoRecusado).
    static let recusaDoPagamento = "system:pagamentos"

    /// The stored event types analytics reads.
    public static var tipos: Set<String> { Set(porTipo.keys) }

    enum Tipo {
        case unidade, espacoCadastrado, espacoAtualizado, horarioDefinido, espacoDesativado, espacoReativado
        case reservaSolicitada, reservaConfirmada, reservaCancelada, reservaExpirada, reservaRemarcada
        case pagamentoConfirmado, reembolsoConcluido, checkinRealizado, noShowRegistrado
        case bloqueioAgendado, bloqueioEncurtado, bloqueioRemovido
    }

    static let porTipo: [String: Tipo] = [
        Unidade.Catalogo.cadastrada.type: .unidade, Unidade.Catalogo.atualizada.type: .unidade,
        Espaco.Catalogo.cadastrado.type: .espacoCadastrado, Espaco.Catalogo.atualizado.type: .espacoAtualizado,
        Espaco.Catalogo.horarioDefinido.type: .horarioDefinido,
        Espaco.Catalogo.desativado.type: .espacoDesativado, Espaco.Catalogo.reativado.type: .espacoReativado,
        Reserva.Catalogo.solicitada.type: .reservaSolicitada, Reserva.Catalogo.confirmada.type: .reservaConfirmada,
        Reserva.Catalogo.cancelada.type: .reservaCancelada, Reserva.Catalogo.expirada.type: .reservaExpirada,
        Reserva.Catalogo.remarcada.type: .reservaRemarcada,
        Pagamento.Catalogo.confirmado.type: .pagamentoConfirmado, Pagamento.Catalogo.reembolsoConcluido.type: .reembolsoConcluido,
        Checkin.Catalogo.realizado.type: .checkinRealizado, Checkin.Catalogo.noShowRegistrado.type: .noShowRegistrado,
        Espaco.Catalogo.bloqueioAgendado.type: .bloqueioAgendado, Espaco.Catalogo.bloqueioEncurtado.type: .bloqueioEncurtado,
        Espaco.Catalogo.bloqueioRemovido.type: .bloqueioRemovido,
    ]

    /// The fact in a stored event; nil for a type analytics does not read (decided on the type
    /// string alone, before touching the payload) and for a block that is not a lease.
    public static func decode(type: String, data: Data) throws(AnalyticsDecodingError) -> AnalyticsFact? {
        guard let tipo = porTipo[type] else { return nil }
        do throws(JSONReader.Failure) {
            return try JSONReader.read(data) { leitor throws(JSONReader.Failure) in try leitor.fato(tipo) }
        } catch {
            throw AnalyticsDecodingError(tipo: type, byte: error.byte, mensagem: error.reason)
        }
    }

    /// The booking whose earlier events decide what this one means (a confirmation, a
    /// cancellation, a move or a no-show needs the request's space, interval as last moved,
    /// and member).
    var reservaComHistoria: UUID? {
        switch self {
        case .reservaConfirmada(let id, _), .reservaCancelada(let id, _), .reservaRecusada(let id, _), .reservaExpirada(let id, _),
            .noShowRegistrado(let id, _), .reservaRemarcada(let id, _, _, _):
            id
        default: nil
        }
    }
}

extension JSONReader {
    /// Reads one payload of `tipo`; every field named here must be present (others are skipped).
    /// Nil for a block that is not a lease.
    mutating func fato(_ tipo: AnalyticsFact.Tipo) throws(Failure) -> AnalyticsFact? {
        // Plain locals, not arrays: this runs once per event of a replay.
        var id0: UUID?, id1: UUID?, id2: UUID?
        var texto0: String?, texto1: String?
        var numero0: Int64?, numero1: Int64?
        var horario: AnalyticsEspaco.Horario?
        var primeira = true
        func exigir<T>(_ value: T?, _ campo: String) throws(Failure) -> T {
            guard let value else { throw Failure(byte: 0, reason: "missing field '\(campo)'") }
            return value
        }
        try openObject()
        switch tipo {
        case .unidade:
            while let chave = try nextName(&primeira) {
                if matches(chave, "unidadeId") {
                    id0 = try uuid()
                } else if matches(chave, "fusoHorario") {
                    texto0 = try string()
                } else {
                    try skipValue()
                }
            }
            return .unidade(id: try exigir(id0, "unidadeId"), fusoHorario: try exigir(texto0, "fusoHorario"))

        case .espacoCadastrado:
            while let chave = try nextName(&primeira) {
                if matches(chave, "espacoId") {
                    id0 = try uuid()
                } else if matches(chave, "unidadeId") {
                    id1 = try uuid()
                } else if matches(chave, "nome") {
                    texto0 = try string()
                } else if matches(chave, "tipo") {
                    texto1 = try string()
                } else if matches(chave, "capacidade") {
                    numero0 = try integer()
                } else if matches(chave, "horario") {
                    horario = try self.horario()
                } else if matches(chave, "em") {
                    numero1 = try instant()
                } else {
                    try skipValue()
                }
            }
            return .espacoCadastrado(
                AnalyticsFact.EspacoCadastrado(
                    espaco: try exigir(id0, "espacoId"), unidade: try exigir(id1, "unidadeId"),
                    nome: try exigir(texto0, "nome"), tipo: try exigir(texto1, "tipo"),
                    capacidade: Int(clamping: try exigir(numero0, "capacidade")), horario: try exigir(horario, "horario"),
                    em: try exigir(numero1, "em")))

        case .espacoAtualizado:
            while let chave = try nextName(&primeira) {
                if matches(chave, "espacoId") {
                    id0 = try uuid()
                } else if matches(chave, "nome") {
                    texto0 = try string()
                } else if matches(chave, "capacidade") {
                    numero0 = try integer()
                } else if matches(chave, "em") {
                    numero1 = try instant()
                } else {
                    try skipValue()
                }
            }
            return .espacoAtualizado(
                espaco: try exigir(id0, "espacoId"), nome: try exigir(texto0, "nome"),
                capacidade: Int(clamping: try exigir(numero0, "capacidade")), em: try exigir(numero1, "em"))

        case .horarioDefinido:
            while let chave = try nextName(&primeira) {
                if matches(chave, "espacoId") {
                    id0 = try uuid()
                } else if matches(chave, "horario") {
                    horario = try self.horario()
                } else if matches(chave, "em") {
                    numero0 = try instant()
                } else {
                    try skipValue()
                }
            }
            return .horarioDefinido(espaco: try exigir(id0, "espacoId"), horario: try exigir(horario, "horario"), em: try exigir(numero0, "em"))

        case .espacoDesativado, .espacoReativado:
            while let chave = try nextName(&primeira) {
                if matches(chave, "espacoId") { id0 = try uuid() } else if matches(chave, "em") { numero0 = try instant() } else { try skipValue() }
            }
            let (espaco, em) = (try exigir(id0, "espacoId"), try exigir(numero0, "em"))
            return tipo == .espacoDesativado ? .espacoDesativado(espaco: espaco, em: em) : .espacoReativado(espaco: espaco, em: em)

        case .reservaSolicitada:
            var inicio: Int64?
            var fim: Int64?
            while let chave = try nextName(&primeira) {
                if matches(chave, "reservaId") {
                    id0 = try uuid()
                } else if matches(chave, "espacoId") {
                    id1 = try uuid()
                } else if matches(chave, "unidadeId") {
                    id2 = try uuid()
                } else if matches(chave, "usuarioId") {
                    texto0 = try idDeUsuario()
                } else if matches(chave, "em") {
                    numero0 = try instant()
                } else if matches(chave, "intervalo") {
                    (inicio, fim) = try intervalo()
                } else {
                    try skipValue()
                }
            }
            return .reservaSolicitada(
                AnalyticsFact.ReservaSolicitada(
                    reserva: try exigir(id0, "reservaId"), espaco: try exigir(id1, "espacoId"),
                    unidade: try exigir(id2, "unidadeId"), usuario: try exigir(texto0, "usuarioId"),
                    inicio: try exigir(inicio, "intervalo.inicio"), fim: try exigir(fim, "intervalo.fim"), em: try exigir(numero0, "em")))

        case .reservaRemarcada:
            // The time it left (`de`) is skipped: the fold takes it from the booking's state,
            // the time it counted there, so what comes off is what went on.
            var inicio: Int64?
            var fim: Int64?
            while let chave = try nextName(&primeira) {
                if matches(chave, "reservaId") {
                    id0 = try uuid()
                } else if matches(chave, "para") {
                    (inicio, fim) = try intervalo()
                } else if matches(chave, "em") {
                    numero0 = try instant()
                } else {
                    try skipValue()
                }
            }
            return .reservaRemarcada(
                reserva: try exigir(id0, "reservaId"), inicio: try exigir(inicio, "para.inicio"), fim: try exigir(fim, "para.fim"),
                em: try exigir(numero0, "em"))

        case .reservaConfirmada, .reservaCancelada, .reservaExpirada, .checkinRealizado, .noShowRegistrado:
            while let chave = try nextName(&primeira) {
                if matches(chave, "reservaId") {
                    id0 = try uuid()
                } else if matches(chave, "em") {
                    numero0 = try instant()
                } else if tipo == .reservaCancelada, matches(chave, "por") {
                    texto0 = try string()
                } else {
                    try skipValue()
                }
            }
            let (reserva, em) = (try exigir(id0, "reservaId"), try exigir(numero0, "em"))
            if tipo == .reservaCancelada, texto0 == AnalyticsFact.recusaDoPagamento { return .reservaRecusada(reserva: reserva, em: em) }
            switch tipo {
            case .reservaConfirmada: return .reservaConfirmada(reserva: reserva, em: em)
            case .reservaCancelada: return .reservaCancelada(reserva: reserva, em: em)
            case .reservaExpirada: return .reservaExpirada(reserva: reserva, em: em)
            case .checkinRealizado: return .checkinRealizado(reserva: reserva, em: em)
            default: return .noShowRegistrado(reserva: reserva, em: em)
            }

        case .pagamentoConfirmado, .reembolsoConcluido:
            while let chave = try nextName(&primeira) {
                if matches(chave, "espacoId") {
                    id0 = null() ? nil : try uuid()
                } else if matches(chave, "unidadeId") {
                    id1 = null() ? nil : try uuid()
                } else if matches(chave, "usuarioId") {
                    texto0 = try idDeUsuario()
                } else if matches(chave, "valor") {
                    numero0 = try integer()
                } else if matches(chave, "em") {
                    numero1 = try instant()
                } else {
                    try skipValue()
                }
            }
            let movimento = AnalyticsFact.Movimento(
                espaco: id0, unidade: id1, usuario: try exigir(texto0, "usuarioId"),
                valor: try exigir(numero0, "valor"), em: try exigir(numero1, "em"))
            return tipo == .pagamentoConfirmado ? .pagamentoConfirmado(movimento) : .reembolsoConcluido(movimento)

        case .bloqueioAgendado:
            // {"bloqueio":{"id","intervalo":{"inicio","fim"},"motivo",…},"espacoId",…}
            var inicio: Int64?
            var fim: Int64?
            while let chave = try nextName(&primeira) {
                if matches(chave, "espacoId") {
                    id0 = try uuid()
                } else if matches(chave, "bloqueio") {
                    var primeiraDoBloqueio = true
                    try openObject()
                    while let campo = try nextName(&primeiraDoBloqueio) {
                        if matches(campo, "id") {
                            id1 = try uuid()
                        } else if matches(campo, "motivo") {
                            texto0 = try string()
                        } else if matches(campo, "intervalo") {
                            (inicio, fim) = try intervalo()
                        } else {
                            try skipValue()
                        }
                    }
                } else {
                    try skipValue()
                }
            }
            guard try exigir(texto0, "bloqueio.motivo") == Espaco.Bloqueio.Motivo.locacao.rawValue else { return nil }
            return .locacaoAgendada(
                espaco: try exigir(id0, "espacoId"), bloqueio: try exigir(id1, "bloqueio.id"),
                inicio: try exigir(inicio, "bloqueio.intervalo.inicio"), fim: try exigir(fim, "bloqueio.intervalo.fim"))

        case .bloqueioEncurtado, .bloqueioRemovido:
            while let chave = try nextName(&primeira) {
                if matches(chave, "espacoId") {
                    id0 = try uuid()
                } else if matches(chave, "bloqueioId") {
                    id1 = try uuid()
                } else if tipo == .bloqueioEncurtado, matches(chave, "fim") {
                    numero0 = try instant()
                } else {
                    try skipValue()
                }
            }
            let (espaco, bloqueio) = (try exigir(id0, "espacoId"), try exigir(id1, "bloqueioId"))
            guard tipo == .bloqueioEncurtado else { return .bloqueioRemovido(espaco: espaco, bloqueio: bloqueio) }
            return .bloqueioEncurtado(espaco: espaco, bloqueio: bloqueio, fim: try exigir(numero0, "fim"))
        }
    }

    /// `{"inicio":…,"fim":…}`, as instants.
    mutating func intervalo() throws(Failure) -> (inicio: Int64?, fim: Int64?) {
        var (inicio, fim): (Int64?, Int64?) = (nil, nil)
        var primeira = true
        try openObject()
        while let chave = try nextName(&primeira) {
            if matches(chave, "inicio") {
                inicio = try instant()
            } else if matches(chave, "fim") {
                fim = try instant()
            } else {
                try skipValue()
            }
        }
        return (inicio, fim)
    }

    /// `{"segunda":[{"abre":480,"fecha":1200}],…}` (closed days absent).
    mutating func horario() throws(Failure) -> AnalyticsEspaco.Horario {
        var dias = [[AnalyticsEspaco.Faixa]](repeating: [], count: 7)
        var primeira = true
        try openObject()
        while let chave = try nextName(&primeira) {
            guard let dia = Self.nomesDosDias.firstIndex(where: { matches(chave, $0) }) else {
                throw Failure(byte: chave.start, reason: "unknown day of the week")
            }
            try expect(UInt8(ascii: "["))
            var primeiro = true
            while try nextElement(&primeiro) {
                var abre: Int?
                var fecha: Int?
                var primeiraDaFaixa = true
                try openObject()
                while let campo = try self.nextName(&primeiraDaFaixa) {
                    if matches(campo, "abre") { abre = try int() } else if matches(campo, "fecha") { fecha = try int() } else { try skipValue() }
                }
                guard let abre, let fecha, 0 <= abre, abre < fecha, fecha <= 1_440 else {
                    throw failure("bad opening range")
                }
                dias[dia].append(AnalyticsEspaco.Faixa(abre: abre, fecha: fecha))
            }
        }
        return AnalyticsEspaco.Horario(dias: dias)
    }

    /// Day names as stored, `domingo` first (the index is the day of the week).
    static let nomesDosDias: [StaticString] = ["domingo", "segunda", "terca", "quarta", "quinta", "sexta", "sabado"]
}
