import Foundation

extension Carteira {
    /// The checks every granted or added lot passes.
    static func validar(_ lote: Lote, em: Date) throws(Failure) {
        guard (1...maximo(lote.medida)).contains(lote.quantidade) else { throw .quantidadeInvalida(medida: lote.medida) }
        if let validoAte = lote.validoAte, validoAte <= em { throw .validadeNoPassado }
        let descricao = lote.descricao.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !descricao.isEmpty, lote.descricao.count <= 200 else { throw .descricaoInvalida }
    }

    /// What comes back of `partes` when `devolverBP` of them is given back: per measure, the
    /// share kept is rounded half up and taken from the lots spent first (they expire first),
    /// so what comes back goes to the lots that last longest.
    static func devolver(_ partes: [Parte], devolverBP: Int64) -> (devolvidas: [Parte], retidas: [Parte]) {
        let bp = min(max(devolverBP, 0), 10_000)
        var devolvidas: [Parte] = []
        var retidas: [Parte] = []
        for medida in Medida.allCases {
            let daMedida = partes.filter { $0.medida == medida }
            let total = daMedida.reduce(0) { $0 + $1.quantidade }
            guard total > 0 else { continue }
            var reter = (total * (10_000 - bp) + 5_000) / 10_000
            for parte in daMedida {
                let retida = min(parte.quantidade, reter)
                reter -= retida
                if retida > 0 { retidas.append(Parte(loteId: parte.loteId, medida: medida, quantidade: retida)) }
                if parte.quantidade > retida {
                    devolvidas.append(Parte(loteId: parte.loteId, medida: medida, quantidade: parte.quantidade - retida))
                }
            }
        }
        return (devolvidas, retidas)
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: State(),
        decide: { command, state throws(Failure) in
            switch command {
            case .conceder(let titular, let lote, let por, let em):
                if let existente = state.lote(lote.loteId) {
                    guard existente == lote else { throw .loteJaExiste }
                    return []  // the same grant again (a redelivered cycle): nothing more
                }
                try validar(lote, em: em)
                return [.concedidos(Concedidos(titular: titular, lote: lote, por: por, em: em))]

            case .consumir(let titular, let reserva, let minutos, let centavos, let tipo, let unidade, let em, let comPlano, let uso):
                if state.consumos[reserva] != nil { return [] }
                guard minutos >= 0 else { throw .quantidadeInvalida(medida: .minutos) }
                guard centavos >= 0 else { throw .quantidadeInvalida(medida: .centavos) }
                guard minutos > 0 || centavos > 0 else { return [] }
                if let uso {
                    for (medida, quantidade) in [(Medida.minutos, minutos), (.centavos, centavos)] where quantidade > 0 {
                        if let restante = state.restanteNoLimite(medida, pessoa: uso.pessoa, mes: uso.mes, limite: uso.limite), restante < quantidade
                        {
                            throw .limiteDoMes(medida: medida, disponivel: restante)
                        }
                    }
                }
                let serve = { (lote: Lote) in lote.serve(tipo: tipo, unidade: unidade, em: em) && (comPlano || lote.origem != .plano) }
                guard let deMinutos = state.tomar(minutos, .minutos, onde: serve) else {
                    throw .insuficiente(
                        medida: .minutos, disponivel: state.disponivel(.minutos, tipo: tipo, unidade: unidade, em: em, comPlano: comPlano))
                }
                guard let deCentavos = state.tomar(centavos, .centavos, onde: serve) else {
                    throw .insuficiente(
                        medida: .centavos, disponivel: state.disponivel(.centavos, tipo: tipo, unidade: unidade, em: em, comPlano: comPlano))
                }
                return [
                    .consumidos(
                        Consumidos(
                            titular: titular, reservaId: reserva, partes: deMinutos + deCentavos, beneficiario: uso?.pessoa, mes: uso?.mes, em: em))
                ]

            case .remarcarUso(let titular, let reserva, let mes, let limite, let em):
                guard let chave = state.usoDaReserva[reserva], let partes = state.consumos[reserva] else { return [] }
                let campos = chave.split(separator: "|", maxSplits: 1).map(String.init)
                guard campos.count == 2, campos[1] != mes else { return [] }
                let (pessoa, de) = (campos[0], campos[1])
                let minutos = partes.filter { $0.medida == .minutos }.reduce(0) { $0 + $1.quantidade }
                let centavos = partes.filter { $0.medida == .centavos }.reduce(0) { $0 + $1.quantidade }
                for (medida, quantidade) in [(Medida.minutos, minutos), (.centavos, centavos)] where quantidade > 0 {
                    if let restante = state.restanteNoLimite(medida, pessoa: pessoa, mes: mes, limite: limite), restante < quantidade {
                        throw .limiteDoMes(medida: medida, disponivel: restante)
                    }
                }
                return [
                    .usoRemarcado(
                        UsoRemarcado(
                            titular: titular, reservaId: reserva, beneficiario: pessoa, de: de, para: mes, minutos: minutos, centavos: centavos,
                            em: em))
                ]

            case .restituir(let titular, let reserva, let devolverBP, let noShow, let em):
                guard let partes = state.consumos[reserva] else { return [] }
                let (devolvidas, retidas) = devolver(partes, devolverBP: devolverBP)
                var events: [Event] = [
                    .restituidos(Restituidos(titular: titular, reservaId: reserva, partes: devolvidas, retidas: retidas, noShow: noShow, em: em))
                ]
                // Given back to a lot whose time is up, or that was taken back: it is lost at once.
                let vencidas = devolvidas.filter { parte in
                    state.saldos.first { $0.lote.loteId == parte.loteId }.map { $0.encerrado || $0.lote.vencido(em: em) } ?? false
                }
                if !vencidas.isEmpty { events.append(.expirados(Expirados(titular: titular, partes: vencidas, em: em))) }
                return events

            case .transportar(let titular, let de, let lote, let por, let em):
                // Its quantity is what was left: the same roll-over again finds the lot granted.
                if state.lote(lote.loteId) != nil { return [] }
                guard let anterior = state.saldos.first(where: { $0.lote.loteId == de }) else { return [] }
                let quantidade = min(lote.quantidade, anterior.restante + anterior.expirado)
                var events: [Event] = []
                if anterior.restante > 0 {
                    let parte = Parte(loteId: de, medida: anterior.lote.medida, quantidade: anterior.restante)
                    events.append(.expirados(Expirados(titular: titular, partes: [parte], em: em)))
                }
                guard quantidade > 0 else { return events }
                let transportado = Lote(
                    loteId: lote.loteId, medida: lote.medida, quantidade: quantidade, tipos: lote.tipos, unidadeId: lote.unidadeId,
                    validoAte: lote.validoAte, origem: lote.origem, descricao: lote.descricao)
                try validar(transportado, em: em)
                events.append(.concedidos(Concedidos(titular: titular, lote: transportado, por: por, em: em)))
                return events

            case .expirar(let titular, let em):
                let partes = state.saldos.filter { $0.restante > 0 && $0.lote.vencido(em: em) }
                    .map { Parte(loteId: $0.lote.loteId, medida: $0.lote.medida, quantidade: $0.restante) }
                guard !partes.isEmpty else { return [] }
                return [.expirados(Expirados(titular: titular, partes: partes, em: em))]

            case .ajustar(let titular, let lote, let motivo, let por, let em):
                let motivo = motivo.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !motivo.isEmpty else { throw .motivoObrigatorio }
                if let existente = state.lote(lote.loteId) {
                    guard existente == lote else { throw .loteJaExiste }
                    return []
                }
                try validar(lote, em: em)
                return [.ajustados(Ajustados(titular: titular, lote: lote, partes: [], motivo: motivo, por: por, em: em))]

            case .retirar(let titular, let medida, let quantidade, let motivo, let por, let em):
                let motivo = motivo.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !motivo.isEmpty else { throw .motivoObrigatorio }
                guard (1...maximo(medida)).contains(quantidade) else { throw .quantidadeInvalida(medida: medida) }
                guard let partes = state.tomar(quantidade, medida, onde: { !$0.vencido(em: em) }) else {
                    throw .insuficiente(medida: medida, disponivel: state.saldo(medida, em: em))
                }
                return [.ajustados(Ajustados(titular: titular, lote: nil, partes: partes, motivo: motivo, por: por, em: em))]

            case .encerrar(let titular, let loteId, let motivo, let por, let em):
                let motivo = motivo.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !motivo.isEmpty else { throw .motivoObrigatorio }
                guard let saldo = state.saldos.first(where: { $0.lote.loteId == loteId }), !saldo.encerrado else { return [] }
                // A lot whose time is up loses what is left to its expiry, not to this.
                let partes =
                    saldo.restante > 0 && !saldo.lote.vencido(em: em)
                    ? [Parte(loteId: loteId, medida: saldo.lote.medida, quantidade: saldo.restante)] : []
                return [.ajustados(Ajustados(titular: titular, lote: nil, partes: partes, encerrado: loteId, motivo: motivo, por: por, em: em))]
            }
        },
        evolve: { state, event in
            var state = state
            func somar(_ partes: [Parte], _ sinal: Int64) {
                for parte in partes {
                    guard let i = state.saldos.firstIndex(where: { $0.lote.loteId == parte.loteId }) else { continue }
                    state.saldos[i].restante += sinal * parte.quantidade
                }
            }
            switch event {
            case .concedidos(let e):
                state.saldos.append(Saldo(lote: e.lote, restante: e.lote.quantidade, concedidoEm: e.em))
            case .consumidos(let e):
                somar(e.partes, -1)
                state.consumos[e.reservaId, default: []] += e.partes
                if let pessoa = e.beneficiario, let mes = e.mes {
                    let chave = "\(pessoa)|\(mes)"
                    var uso = state.usoNoMes[chave] ?? (0, 0)
                    for parte in e.partes {
                        if parte.medida == .minutos { uso.minutos += parte.quantidade } else { uso.centavos += parte.quantidade }
                    }
                    state.usoNoMes[chave] = uso
                    state.usoDaReserva[e.reservaId] = chave
                }
            case .restituidos(let e):
                somar(e.partes, 1)
                state.consumos[e.reservaId] = nil
                if let chave = state.usoDaReserva.removeValue(forKey: e.reservaId), var uso = state.usoNoMes[chave] {
                    for parte in e.partes {
                        if parte.medida == .minutos { uso.minutos -= parte.quantidade } else { uso.centavos -= parte.quantidade }
                    }
                    state.usoNoMes[chave] = uso
                }
            case .usoRemarcado(let e):
                let de = "\(e.beneficiario)|\(e.de)"
                let para = "\(e.beneficiario)|\(e.para)"
                var antes = state.usoNoMes[de] ?? (0, 0)
                antes.minutos -= e.minutos
                antes.centavos -= e.centavos
                state.usoNoMes[de] = antes
                var depois = state.usoNoMes[para] ?? (0, 0)
                depois.minutos += e.minutos
                depois.centavos += e.centavos
                state.usoNoMes[para] = depois
                state.usoDaReserva[e.reservaId] = para
            case .expirados(let e):
                somar(e.partes, -1)
                for parte in e.partes {
                    guard let i = state.saldos.firstIndex(where: { $0.lote.loteId == parte.loteId }) else { continue }
                    state.saldos[i].expirado += parte.quantidade
                }
            case .ajustados(let e):
                if let lote = e.lote { state.saldos.append(Saldo(lote: lote, restante: lote.quantidade, concedidoEm: e.em)) }
                somar(e.partes, -1)
                if let encerrado = e.encerrado, let i = state.saldos.firstIndex(where: { $0.lote.loteId == encerrado }) {
                    state.saldos[i].encerrado = true
                }
            }
            return state
        })
}
