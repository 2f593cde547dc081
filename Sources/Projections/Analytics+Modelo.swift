import Domain
import Foundation

/// The analytics fold: one pure function from facts to documents, shared by the incremental
/// projection (which holds only the documents one event touches) and the fast rebuild (which
/// holds them all), so the two cannot drift.
///
/// Definitions (local days, hours and weekdays are on the unit's wall clock):
/// - **Booked time**: a booking counts from its confirmation, over its whole interval, until it
///   is cancelled. A no-show counts until it was registered: reservas frees the rest of the slot
///   then, for sale again, and a booking of that rest counts instead (both would be occupancy
///   above 100 %). A move (ADR 0021) carries a confirmed booking's time from the interval it
///   held to the new one: the slot it left is for sale again.
/// - **Open time** of a space on a local day: the minutes its weekly opening hours give that
///   weekday (wall-clock minutes; blackouts not subtracted), times its seats (the capacity of
///   an `estacao_compartilhada`, 1 for other types), 0 while deactivated. Hours and active flag
///   apply from the local day they changed; the service computes open time from them.
/// - **Let time**: the open time a lease of the space covers (ADR 0016), from its start to its
///   end (as ended early); a lease removed before it began counts nothing. A let space takes no
///   bookings, so booked and let time never overlap. The service computes it from the lease
///   periods this fold keeps on the space's document (on the unit's wall clock).
/// - **Occupancy** = (booked + let) / open, per space per local day, and per hour of the week
///   (0–167, `domingo 00:00` = 0) over the days from the space's creation to the last day any
///   confirmed booking or lease touched.
/// - **Revenue per space type** = confirmed payments − completed refunds, on the local day of
///   the payment or refund; payments of R$ 0 (a booking a coupon made free) are not counted.
/// - **No-show rate** = no-shows / (no-shows + check-ins).
/// - **Cancellation rate** = cancelled / requested. A hold released because its payment was
///   declined is no cancellation (nobody cancelled it): it is counted as declined.
/// - **Average lead time** = mean(start − requested at) over every confirmation, in hours.
/// - **Top members**: by booked time (confirmed, not cancelled) and by revenue
///   (payments − refunds).
///
/// A change of a unit's time zone applies to events folded after it (a booking confirmed
/// before and cancelled after the change is added and removed on different clocks).
public struct AnalyticsModel: Sendable {
    /// What a booking's earlier events established.
    struct EstadoDaReserva: Sendable, Equatable {
        let espaco: UUID
        let unidade: UUID
        let usuario: String
        /// As requested, then as the last move left it: the interval its booked time counts on.
        var inicio: Int64
        var fim: Int64
        let solicitadaEm: Int64
        var confirmada = false
        var cancelada = false
        var expirada = false
        /// When a no-show freed the rest of the slot.
        var liberadaEm: Int64?

        /// The end of the time the booking holds: its end, or where a no-show cut it.
        var fimOcupado: Int64 { liberadaEm.map { min(max($0, inicio), fim) } ?? fim }
    }

    struct ChaveDoMes: Hashable, Sendable {
        let espaco: UUID
        /// `ano * 12 + mes - 1`.
        let mes: Int32
    }

    /// A document of the model.
    enum Chave: Hashable, Sendable {
        case unidade(UUID)
        case espaco(UUID)
        case ocupacao(ChaveDoMes)
        case semana(UUID)
        case receita(Int32)
        case membro(String)
        case indicadores
    }

    /// One change an event makes to one document.
    enum Efeito {
        case unidade(UUID, AnalyticsUnidade)
        case espaco(UUID, AnalyticsEspaco)
        /// Signed seconds by local day number and by hour of the week.
        case reservado(espaco: UUID, dias: [(dia: Int64, segundos: Int64)], horas: [(hora: Int, segundos: Int64)], ultimoDia: Int64?)
        /// A payment (`pagamento` true) or a refund of `valor` on a local day.
        case receita(ano: Int, mes: Int, dia: Int, tipo: String, valor: Money, pagamento: Bool)
        case membro(String, segundos: Int64, reservas: Int, receita: Money)
        case indicadores(AnalyticsIndicadores)
    }

    /// A document ready to store.
    struct Documento {
        let colecao: String
        let chave: String
        let grupo: String?
        let ordem: String
        let valor: any Encodable & Sendable
    }

    static let fusoPadrao = Unidade.fusoPadrao

    var unidades: [UUID: AnalyticsUnidade] = [:]
    var espacos: [UUID: AnalyticsEspaco] = [:]
    var reservas: [UUID: EstadoDaReserva] = [:]
    var ocupacao: [ChaveDoMes: AnalyticsOcupacaoMes] = [:]
    var semanas: [UUID: AnalyticsSemana] = [:]
    var receitas: [Int32: AnalyticsReceitaMes] = [:]
    var membros: [String: AnalyticsMembro] = [:]
    var indicadores: AnalyticsIndicadores?
    private var relogios: [String: RelogioLocal] = [:]

    public init() {}

    /// Folds one fact.
    public mutating func apply(_ fato: AnalyticsFact) {
        aplicar(efeitos(de: fato))
        evoluirReserva(fato)
    }

    /// How many documents the model holds (what a rebuild writes).
    public var quantidadeDeDocumentos: Int { todasAsChaves.reduce(0) { $0 + documentos($1).count } }

    // MARK: Context

    /// The space and unit whose documents `fato` reads (the space first: its unit may come
    /// from its document).
    func contexto(de fato: AnalyticsFact) -> (espaco: UUID?, unidade: UUID?) {
        switch fato {
        case .espacoCadastrado(let e):
            return (nil, e.unidade)
        case .espacoAtualizado(let id, _, _, _), .horarioDefinido(let id, _, _), .espacoDesativado(let id, _), .espacoReativado(let id, _),
            .locacaoAgendada(let id, _, _, _), .bloqueioEncurtado(let id, _, _), .bloqueioRemovido(let id, _):
            return (id, unidadeDoEspaco(id))
        case .reservaConfirmada(let id, _), .reservaCancelada(let id, _), .reservaRecusada(let id, _), .noShowRegistrado(let id, _),
            .reservaRemarcada(let id, _, _, _):
            guard let reserva = reservas[id] else { return (nil, nil) }
            return (reserva.espaco, reserva.unidade)
        case .pagamentoConfirmado(let m), .reembolsoConcluido(let m):
            return (m.espaco, m.unidade ?? m.espaco.flatMap(unidadeDoEspaco))
        default:
            return (nil, nil)
        }
    }

    private func unidadeDoEspaco(_ id: UUID) -> UUID? { espacos[id].flatMap { UUID(text: $0.unidadeId) } }

    // MARK: Decide

    /// What `fato` changes, given what the model holds now.
    mutating func efeitos(de fato: AnalyticsFact) -> [Efeito] {
        var delta = AnalyticsIndicadores()
        switch fato {
        case .unidade(let id, let fuso):
            return [.unidade(id, AnalyticsUnidade(unidadeId: id.lowercasedString, fusoHorario: fuso))]

        case .espacoCadastrado(let e):
            let vigencia = AnalyticsEspaco.Vigencia(
                desde: CalendarioAnalitico.data(diaLocal(e.em, unidade: e.unidade)), ativo: true,
                lugares: AnalyticsEspaco.lugares(tipo: e.tipo, capacidade: e.capacidade), horario: e.horario)
            return [
                .espaco(
                    e.espaco,
                    AnalyticsEspaco(
                        espacoId: e.espaco.lowercasedString, unidadeId: e.unidade.lowercasedString, nome: e.nome, tipo: e.tipo, vigencias: [vigencia])
                )
            ]

        case .espacoAtualizado(let id, let nome, let capacidade, let em):
            let tipo = espacos[id]?.tipo ?? ""
            return mudarEspaco(id, em: em, nome: nome) { $0.lugares = AnalyticsEspaco.lugares(tipo: tipo, capacidade: capacidade) }
        case .horarioDefinido(let id, let horario, let em):
            return mudarEspaco(id, em: em) { $0.horario = horario }
        case .espacoDesativado(let id, let em):
            return mudarEspaco(id, em: em) { $0.ativo = false }
        case .espacoReativado(let id, let em):
            return mudarEspaco(id, em: em) { $0.ativo = true }

        case .reservaSolicitada:
            delta.reservasSolicitadas = 1
            return [.indicadores(delta)]

        case .reservaConfirmada(let id, _):
            guard let reserva = reservas[id], !reserva.confirmada, !reserva.cancelada, !reserva.expirada else { return [] }
            delta.reservasConfirmadas = 1
            delta.antecedenciaTotalSegundos = reserva.inicio - reserva.solicitadaEm
            return [
                reservado(reserva, de: reserva.inicio, ate: reserva.fim, sinal: 1),
                .membro(reserva.usuario, segundos: reserva.fim - reserva.inicio, reservas: 1, receita: .zero),
                .indicadores(delta),
            ]

        case .reservaCancelada(let id, _), .reservaRecusada(let id, _):
            guard let reserva = reservas[id], !reserva.cancelada, !reserva.expirada else { return [] }
            if case .reservaRecusada = fato, !reserva.confirmada {
                delta.reservasRecusadas = 1
                return [.indicadores(delta)]
            }
            delta.reservasCanceladas = 1
            guard reserva.confirmada else { return [.indicadores(delta)] }
            delta.canceladasAposConfirmacao = 1
            return [
                reservado(reserva, de: reserva.inicio, ate: reserva.fimOcupado, sinal: -1),
                .membro(reserva.usuario, segundos: reserva.inicio - reserva.fim, reservas: -1, receita: .zero),
                .indicadores(delta),
            ]

        case .reservaExpirada(let id, _):
            guard let reserva = reservas[id], !reserva.confirmada, !reserva.cancelada, !reserva.expirada else { return [] }
            delta.reservasExpiradas = 1
            return [.indicadores(delta)]

        case .reservaRemarcada(let id, let inicio, let fim, _):
            // Only time it holds moves: an unconfirmed booking counts none yet (its confirmation
            // counts the interval as moved), an ended one none any more, and one a no-show cut
            // has started (reservas refuses that move; were one stored, a later cancellation
            // must still take back the part counted where it was). Moving to the interval it
            // holds (this move folded again) changes nothing.
            guard let reserva = reservas[id], Self.liberaORestante(reserva), inicio != reserva.inicio || fim != reserva.fim else { return [] }
            // Lead time stays as its confirmation counted it: the member planned that far ahead.
            var efeitos = [reservado(reserva, de: reserva.inicio, ate: reserva.fim, sinal: -1), reservado(reserva, de: inicio, ate: fim, sinal: 1)]
            // Same length (reservas holds a move to it), so the member's time is unchanged; were
            // it not, the difference keeps it equal to what a cancellation takes back.
            let diferenca = (fim - inicio) - (reserva.fim - reserva.inicio)
            if diferenca != 0 { efeitos.append(.membro(reserva.usuario, segundos: diferenca, reservas: 0, receita: .zero)) }
            return efeitos

        case .pagamentoConfirmado(let m):
            return movimento(m, pagamento: true)
        case .reembolsoConcluido(let m):
            return movimento(m, pagamento: false)

        case .checkinRealizado:
            delta.checkins = 1
            return [.indicadores(delta)]
        case .locacaoAgendada(let id, let bloqueio, let inicio, let fim):
            let unidade = unidadeDoEspaco(id)
            let (de, ate) = (local(inicio, unidade: unidade), local(fim, unidade: unidade))
            let chave = bloqueio.lowercasedString
            return mudarLocacoes(id) { locacoes in
                guard !locacoes.contains(where: { $0.bloqueioId == chave }) else { return }
                locacoes.append(AnalyticsEspaco.Locacao(bloqueioId: chave, de: de.dia, minutoDe: de.minuto, ate: ate.dia, minutoAte: ate.minuto))
            }
        case .bloqueioEncurtado(let id, let bloqueio, let fim):
            let ate = local(fim, unidade: unidadeDoEspaco(id))
            let chave = bloqueio.lowercasedString
            return mudarLocacoes(id) { locacoes in
                guard let indice = locacoes.firstIndex(where: { $0.bloqueioId == chave }) else { return }
                locacoes[indice].ate = ate.dia
                locacoes[indice].minutoAte = ate.minuto
            }
        case .bloqueioRemovido(let id, let bloqueio):
            let chave = bloqueio.lowercasedString
            return mudarLocacoes(id) { locacoes in locacoes.removeAll { $0.bloqueioId == chave } }

        case .noShowRegistrado(let id, let em):
            delta.noShows = 1
            // The rest of the slot is free again (for sale): no longer booked time.
            guard let reserva = reservas[id], Self.liberaORestante(reserva), max(em, reserva.inicio) < reserva.fim else {
                return [.indicadores(delta)]
            }
            return [reservado(reserva, de: max(em, reserva.inicio), ate: reserva.fim, sinal: -1), .indicadores(delta)]
        }
    }

    private mutating func mudarEspaco(
        _ id: UUID, em: Int64, nome: String? = nil, _ mudanca: (inout AnalyticsEspaco.Vigencia) -> Void
    ) -> [Efeito] {
        guard var doc = espacos[id] else { return [] }
        if let nome { doc.nome = nome }
        doc.vigorar(desde: CalendarioAnalitico.data(diaLocal(em, unidade: UUID(text: doc.unidadeId))), mudanca)
        return doc == espacos[id] ? [] : [.espaco(id, doc)]
    }

    /// A change to a space's leases.
    private func mudarLocacoes(_ id: UUID, _ mudanca: (inout [AnalyticsEspaco.Locacao]) -> Void) -> [Efeito] {
        guard var doc = espacos[id] else { return [] }
        var locacoes = doc.locacoes ?? []
        mudanca(&locacoes)
        doc.locacoes = locacoes.isEmpty ? nil : locacoes
        return doc == espacos[id] ? [] : [.espaco(id, doc)]
    }

    /// An instant on the unit's wall clock: its local day and minute of that day.
    private mutating func local(_ instante: Int64, unidade: UUID?) -> (dia: String, minuto: Int) {
        let local = instante + deslocamento(instante, fuso: fusoHorario(unidade))
        let dia = CalendarioAnalitico.floorDiv(local, 86_400)
        return (CalendarioAnalitico.data(dia), Int((local - dia * 86_400) / 60))
    }

    private mutating func movimento(_ m: AnalyticsFact.Movimento, pagamento: Bool) -> [Efeito] {
        // A booking a coupon made free "pays" R$ 0: no money moved, no payment to count (nor
        // an invoice: finance skips it too).
        guard m.valor != 0 else { return [] }
        let espaco = m.espaco.flatMap { espacos[$0] }
        let unidade = m.unidade ?? espaco.flatMap { UUID(text: $0.unidadeId) }
        let (ano, mes, dia) = CalendarioAnalitico.civil(diaLocal(m.em, unidade: unidade))
        let valor = Money(centavos: m.valor)
        var delta = AnalyticsIndicadores()
        if pagamento {
            delta.pagamentos = valor
            delta.quantidadePagamentos = 1
        } else {
            delta.reembolsos = valor
            delta.quantidadeReembolsos = 1
        }
        return [
            .receita(ano: ano, mes: mes, dia: dia, tipo: espaco?.tipo ?? "desconhecido", valor: valor, pagamento: pagamento),
            .membro(m.usuario, segundos: 0, reservas: 0, receita: pagamento ? valor : -valor),
            .indicadores(delta),
        ]
    }

    /// Whether a no-show of `reserva` frees time it holds: a confirmed booking, not ended
    /// otherwise, not freed before.
    static func liberaORestante(_ reserva: EstadoDaReserva) -> Bool {
        reserva.confirmada && !reserva.cancelada && !reserva.expirada && reserva.liberadaEm == nil
    }

    /// Part of a booking's interval, `inicio..<fim`, cut at local hour boundaries: signed seconds
    /// per local day and per hour of the week.
    private mutating func reservado(_ reserva: EstadoDaReserva, de inicio: Int64, ate fimDoTrecho: Int64, sinal: Int64) -> Efeito {
        let fuso = fusoHorario(reserva.unidade)
        var dias: [(dia: Int64, segundos: Int64)] = []
        var horas: [(hora: Int, segundos: Int64)] = []
        var instante = inicio
        while instante < fimDoTrecho {
            let local = instante + deslocamento(instante, fuso: fuso)
            let dia = CalendarioAnalitico.floorDiv(local, 86_400)
            let noDia = local - dia * 86_400
            let fim = min(fimDoTrecho, instante + 3_600 - noDia % 3_600)
            let segundos = (fim - instante) * sinal
            if let ultimo = dias.last, ultimo.dia == dia {
                dias[dias.count - 1].segundos += segundos
            } else {
                dias.append((dia, segundos))
            }
            let hora = CalendarioAnalitico.diaDaSemana(dia) * 24 + Int(noDia / 3_600)
            if let ultima = horas.last, ultima.hora == hora {
                horas[horas.count - 1].segundos += segundos
            } else {
                horas.append((hora, segundos))
            }
            instante = fim
        }
        return .reservado(espaco: reserva.espaco, dias: dias, horas: horas, ultimoDia: sinal > 0 ? dias.last?.dia : nil)
    }

    private func fusoHorario(_ unidade: UUID?) -> String {
        unidade.flatMap { unidades[$0]?.fusoHorario } ?? Self.fusoPadrao
    }

    private mutating func deslocamento(_ instante: Int64, fuso: String) -> Int64 {
        relogios[fuso, default: RelogioLocal(fuso)].deslocamento(instante)
    }

    /// The local day number of an instant in the unit's time zone.
    private mutating func diaLocal(_ instante: Int64, unidade: UUID?) -> Int64 {
        CalendarioAnalitico.floorDiv(instante + deslocamento(instante, fuso: fusoHorario(unidade)), 86_400)
    }

    // MARK: Evolve

    mutating func aplicar(_ efeitos: [Efeito]) {
        for efeito in efeitos { aplicar(efeito) }
    }

    private mutating func aplicar(_ efeito: Efeito) {
        switch efeito {
        case .unidade(let id, let doc):
            unidades[id] = doc
        case .espaco(let id, let doc):
            espacos[id] = doc
        case .reservado(let espaco, let dias, let horas, let ultimoDia):
            for (dia, segundos) in dias {
                let (ano, mes, diaDoMes) = CalendarioAnalitico.civil(dia)
                let chave = ChaveDoMes(espaco: espaco, mes: CalendarioAnalitico.indiceDoMes(ano: ano, mes: mes))
                ocupacao[
                    chave,
                    default: AnalyticsOcupacaoMes(
                        espacoId: espaco.lowercasedString, mes: CalendarioAnalitico.mes(ano: ano, mes: mes),
                        segundosReservados: Array(repeating: 0, count: CalendarioAnalitico.diasNoMes(ano: ano, mes: mes)))
                ].segundosReservados[diaDoMes - 1] += segundos
            }
            var semana =
                semanas.removeValue(forKey: espaco)
                ?? AnalyticsSemana(espacoId: espaco.lowercasedString, segundosReservados: Array(repeating: 0, count: 168), ultimoDia: nil)
            for (hora, segundos) in horas { semana.segundosReservados[hora] += segundos }
            if let ultimoDia {
                let data = CalendarioAnalitico.data(ultimoDia)
                if semana.ultimoDia.map({ $0 < data }) ?? true { semana.ultimoDia = data }
            }
            semanas[espaco] = semana
        case .receita(let ano, let mes, let dia, let tipo, let valor, let pagamento):
            let indice = CalendarioAnalitico.indiceDoMes(ano: ano, mes: mes)
            var doc = receitas.removeValue(forKey: indice) ?? AnalyticsReceitaMes(mes: CalendarioAnalitico.mes(ano: ano, mes: mes), tipos: [:])
            var linha = doc.tipos.removeValue(forKey: tipo) ?? AnalyticsReceitaMes.Linha(dias: CalendarioAnalitico.diasNoMes(ano: ano, mes: mes))
            if pagamento {
                linha.pagamentos[dia - 1] = linha.pagamentos[dia - 1] + valor
                linha.quantidadePagamentos[dia - 1] += 1
            } else {
                linha.reembolsos[dia - 1] = linha.reembolsos[dia - 1] + valor
                linha.quantidadeReembolsos[dia - 1] += 1
            }
            doc.tipos[tipo] = linha
            receitas[indice] = doc
        case .membro(let usuario, let segundos, let reservas, let receita):
            var membro =
                membros.removeValue(forKey: usuario)
                ?? AnalyticsMembro(usuarioId: usuario, segundosConfirmados: 0, reservasConfirmadas: 0, receita: .zero)
            membro.segundosConfirmados += segundos
            membro.reservasConfirmadas += reservas
            membro.receita = membro.receita + receita
            membros[usuario] = membro
        case .indicadores(let delta):
            var total = indicadores ?? AnalyticsIndicadores()
            total.somar(delta)
            indicadores = total
        }
    }

    /// Records what a booking event establishes, after its effects (which read the state
    /// before it). The guards mirror ``efeitos(de:)``.
    mutating func evoluirReserva(_ fato: AnalyticsFact) {
        switch fato {
        case .reservaSolicitada(let s):
            reservas[s.reserva] = EstadoDaReserva(
                espaco: s.espaco, unidade: s.unidade, usuario: s.usuario, inicio: s.inicio, fim: s.fim, solicitadaEm: s.em)
        case .reservaConfirmada(let id, _):
            if let reserva = reservas[id], !reserva.confirmada, !reserva.cancelada, !reserva.expirada { reservas[id]?.confirmada = true }
        case .reservaCancelada(let id, _), .reservaRecusada(let id, _):
            if let reserva = reservas[id], !reserva.cancelada, !reserva.expirada { reservas[id]?.cancelada = true }
        case .reservaExpirada(let id, _):
            if let reserva = reservas[id], !reserva.confirmada, !reserva.cancelada, !reserva.expirada { reservas[id]?.expirada = true }
        case .noShowRegistrado(let id, let em):
            if let reserva = reservas[id], Self.liberaORestante(reserva) { reservas[id]?.liberadaEm = em }
        case .reservaRemarcada(let id, let inicio, let fim, _):
            // Whatever its status, so that a later confirmation, cancellation or no-show reads
            // the interval it holds; but not once a no-show cut it: the time it still counts is
            // where it was, and a cancellation must take back that.
            if let reserva = reservas[id], reserva.liberadaEm == nil {
                reservas[id]?.inicio = inicio
                reservas[id]?.fim = fim
            }
        default:
            break
        }
    }

    // MARK: Documents

    /// The documents an effect writes.
    func chaves(_ efeito: Efeito) -> [Chave] {
        switch efeito {
        case .unidade(let id, _): return [.unidade(id)]
        case .espaco(let id, _): return [.espaco(id)]
        case .reservado(let espaco, let dias, _, _):
            var chaves: [Chave] = []
            for (dia, _) in dias {
                let (ano, mes, _) = CalendarioAnalitico.civil(dia)
                let chave = Chave.ocupacao(ChaveDoMes(espaco: espaco, mes: CalendarioAnalitico.indiceDoMes(ano: ano, mes: mes)))
                if !chaves.contains(chave) { chaves.append(chave) }
            }
            return chaves + [.semana(espaco)]
        case .receita(let ano, let mes, _, _, _, _): return [.receita(CalendarioAnalitico.indiceDoMes(ano: ano, mes: mes))]
        case .membro(let usuario, _, _, _): return [.membro(usuario)]
        case .indicadores: return [.indicadores]
        }
    }

    var todasAsChaves: [Chave] {
        unidades.keys.map(Chave.unidade) + espacos.keys.map(Chave.espaco) + ocupacao.keys.map(Chave.ocupacao)
            + semanas.keys.map(Chave.semana) + receitas.keys.map(Chave.receita) + membros.keys.map(Chave.membro)
            + (indicadores == nil ? [] : [.indicadores])
    }

    /// The stored form of one document (a member is stored twice, once per ranking).
    func documentos(_ chave: Chave) -> [Documento] {
        typealias M = AnalyticsReadModel
        switch chave {
        case .unidade(let id):
            guard let doc = unidades[id] else { return [] }
            return [Documento(colecao: M.unidades, chave: doc.unidadeId, grupo: nil, ordem: "", valor: doc)]
        case .espaco(let id):
            guard let doc = espacos[id] else { return [] }
            return [Documento(colecao: M.espacos, chave: doc.espacoId, grupo: doc.unidadeId, ordem: doc.nome.lowercased(), valor: doc)]
        case .ocupacao(let mes):
            guard let doc = ocupacao[mes] else { return [] }
            return [Documento(colecao: M.ocupacao, chave: M.chaveDeOcupacao(doc.espacoId, doc.mes), grupo: doc.mes, ordem: doc.espacoId, valor: doc)]
        case .semana(let id):
            guard let doc = semanas[id] else { return [] }
            return [Documento(colecao: M.semana, chave: doc.espacoId, grupo: nil, ordem: "", valor: doc)]
        case .receita(let mes):
            guard let doc = receitas[mes] else { return [] }
            return [Documento(colecao: M.receita, chave: doc.mes, grupo: nil, ordem: doc.mes, valor: doc)]
        case .membro(let usuario):
            guard let doc = membros[usuario] else { return [] }
            return [
                Documento(colecao: M.membrosPorHoras, chave: usuario, grupo: nil, ordem: M.ordemDecrescente(doc.segundosConfirmados), valor: doc),
                Documento(colecao: M.membrosPorReceita, chave: usuario, grupo: nil, ordem: M.ordemDecrescente(doc.receita.centavos), valor: doc),
            ]
        case .indicadores:
            guard let doc = indicadores else { return [] }
            return [Documento(colecao: M.indicadores, chave: M.geral, grupo: nil, ordem: "", valor: doc)]
        }
    }

    /// Reads one document into the model (the incremental path, which starts empty).
    mutating func carregar(_ chave: Chave, de batch: ProjectionBatch) async throws {
        typealias M = AnalyticsReadModel
        switch chave {
        case .unidade(let id):
            unidades[id] = try await batch.get(AnalyticsUnidade.self, M.unidades, id.lowercasedString)
        case .espaco(let id):
            espacos[id] = try await batch.get(AnalyticsEspaco.self, M.espacos, id.lowercasedString)
        case .ocupacao(let mes):
            let (ano, numero) = (Int(mes.mes) / 12, Int(mes.mes) % 12 + 1)
            ocupacao[mes] = try await batch.get(
                AnalyticsOcupacaoMes.self, M.ocupacao, M.chaveDeOcupacao(mes.espaco.lowercasedString, CalendarioAnalitico.mes(ano: ano, mes: numero)))
        case .semana(let id):
            semanas[id] = try await batch.get(AnalyticsSemana.self, M.semana, id.lowercasedString)
        case .receita(let mes):
            receitas[mes] = try await batch.get(
                AnalyticsReceitaMes.self, M.receita, CalendarioAnalitico.mes(ano: Int(mes) / 12, mes: Int(mes) % 12 + 1))
        case .membro(let usuario):
            membros[usuario] = try await batch.get(AnalyticsMembro.self, M.membrosPorHoras, usuario)
        case .indicadores:
            indicadores = try await batch.get(AnalyticsIndicadores.self, M.indicadores, M.geral)
        }
    }
}
