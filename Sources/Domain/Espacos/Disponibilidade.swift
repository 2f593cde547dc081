public import Foundation

extension Espaco {
    /// A free stretch of a day and how many more bookings fit over all of it.
    public struct Livre: Codable, Sendable, Equatable {
        public let inicio: Date
        public let fim: Date
        /// Always 1 for a space that is not shared; for a shared one, `capacidade` minus the
        /// bookings that cover this stretch.
        public let vagas: Int

        public init(inicio: Date, fim: Date, vagas: Int) {
            self.inicio = inicio
            self.fim = fim
            self.vagas = vagas
        }
    }
}

/// The schedule questions the booking service asks. All take the unit's time zone, because the
/// opening hours are on its wall clock; none checks ``Espaco/RegrasDeReserva`` (length, notice),
/// see ``Espaco/RegrasDeReserva/violacao(de:em:)``.
extension Espaco.Dados {
    /// That local date's opening ranges as instants, minus every blackout, sorted and with
    /// touching ranges merged. Empty when the space is inactive or closed that day.
    ///
    /// The ranges follow the wall clock: on a day that springs forward or falls back, 08:00 is
    /// still 08:00 local time.
    public func periodosAbertos(em data: DataLocal, fuso: TimeZone) -> [TimeRange] {
        guard ativo else { return [] }
        let faixas = horario.faixas(de: data.diaDaSemana).compactMap { faixa in
            try? TimeRange(
                start: data.instante(minutos: faixa.abre, em: fuso),
                end: data.instante(minutos: faixa.fecha, em: fuso))
        }
        return Intervalos.subtraindo(bloqueios.map(\.intervalo), de: Intervalos.unidos(faixas))
    }

    /// Whether all of `intervalo` is open time: the open periods of every local date it touches,
    /// with touching ones merged (Monday 20:00–24:00 and Tuesday 00:00–08:00 make one), and one
    /// of them contains the whole interval. So a booking across midnight fits only when both
    /// days are open at midnight. False for an inactive space.
    public func permite(_ intervalo: TimeRange, fuso: TimeZone) -> Bool {
        let abertos = DataLocal.dias(de: intervalo, em: fuso).flatMap { periodosAbertos(em: $0, fuso: fuso) }
        return Intervalos.unidos(abertos).contains { $0.contains(intervalo) }
    }

    /// The part of `livres` that bookings made at `agora` could take: from the minimum notice
    /// on (never the past); up to where the longest booking that starts within the maximum
    /// lead time would end; no stretch in a run of touching stretches shorter than the minimum
    /// duration, its own or its price table's (`duracaoMinimaDaTabela`), whichever is longer. (A
    /// shared space's touching stretches differ only in seats left, so one booking may take a
    /// whole run; each stretch of a room stands alone.) What availability shows is what a
    /// booking would take.
    public func reservaveis(_ livres: [Espaco.Livre], agora: Date, duracaoMinimaDaTabela: Int = 0) -> [Espaco.Livre] {
        let cedo = agora.addingTimeInterval(Double(max(regras.antecedenciaMinimaMinutos, 0)) * 60)
        let tarde = agora.addingTimeInterval(Double(max(regras.antecedenciaMaximaDias, 0)) * 86_400)
        let alcance = tarde.addingTimeInterval(Double(max(regras.duracaoMaximaMinutos, 0)) * 60)
        let minimo = Double(max(regras.duracaoMinimaMinutos, duracaoMinimaDaTabela, 0)) * 60
        let cortados = livres.compactMap { livre -> Espaco.Livre? in
            let inicio = max(livre.inicio, cedo), fim = min(livre.fim, alcance)
            guard inicio < fim, inicio <= tarde else { return nil }
            return Espaco.Livre(inicio: inicio, fim: fim, vagas: livre.vagas)
        }
        var resultado: [Espaco.Livre] = [], corrida: [Espaco.Livre] = []
        func fechar() {
            if let primeiro = corrida.first, let ultimo = corrida.last, ultimo.fim.timeIntervalSince(primeiro.inicio) >= minimo {
                resultado += corrida
            }
            corrida = []
        }
        for livre in cortados {
            if tipo.compartilhado, let ultimo = corrida.last, ultimo.fim == livre.inicio {
                corrida.append(livre)
            } else {
                fechar()
                corrida = [livre]
            }
        }
        fechar()
        return resultado
    }

    /// The free stretches of that local date, given the active bookings (`ocupacoes`) that touch
    /// it (they may extend past it). Not shared: open periods minus bookings, 1 place each.
    /// Shared: open periods cut at every booking boundary, each piece with `capacidade` minus
    /// the bookings that overlap it; full pieces left out, neighbours with the same count
    /// merged. Empty when the space is inactive.
    public func disponibilidade(em data: DataLocal, fuso: TimeZone, ocupacoes: [TimeRange]) -> [Espaco.Livre] {
        let abertos = periodosAbertos(em: data, fuso: fuso)
        guard tipo.compartilhado else {
            return Intervalos.subtraindo(ocupacoes, de: abertos).map { Espaco.Livre(inicio: $0.start, fim: $0.end, vagas: 1) }
        }
        var livres: [Espaco.Livre] = []
        for periodo in abertos {
            var cortes: Set<Date> = [periodo.start, periodo.end]
            for ocupacao in ocupacoes {
                for limite in [ocupacao.start, ocupacao.end] where periodo.start < limite && limite < periodo.end {
                    cortes.insert(limite)
                }
            }
            let pontos = cortes.sorted()
            for (inicio, fim) in zip(pontos, pontos.dropFirst()) {
                guard let pedaco = try? TimeRange(start: inicio, end: fim) else { continue }
                let vagas = capacidade - ocupacoes.count { $0.overlaps(pedaco) }
                guard vagas > 0 else { continue }
                if let ultimo = livres.last, ultimo.fim == inicio, ultimo.vagas == vagas {
                    livres[livres.count - 1] = Espaco.Livre(inicio: ultimo.inicio, fim: fim, vagas: vagas)
                } else {
                    livres.append(Espaco.Livre(inicio: inicio, fim: fim, vagas: vagas))
                }
            }
        }
        return livres
    }

    /// How many more bookings fit over the whole of `intervalo`, given the active bookings.
    /// Not shared: 1 when no booking overlaps it, else 0. Shared: `capacidade` minus the largest
    /// number of bookings overlapping at any one instant inside it; back-to-back bookings
    /// (9–10, 10–11) never overlap. 0 for an inactive space. Opening hours are not checked here
    /// (that is ``permite(_:fuso:)``).
    public func vagas(em intervalo: TimeRange, ocupacoes: [TimeRange]) -> Int {
        guard ativo else { return 0 }
        let dentro = ocupacoes.compactMap { $0.intersection(intervalo) }
        guard tipo.compartilhado else { return dentro.isEmpty ? 1 : 0 }
        return max(0, capacidade - Intervalos.maximoSimultaneo(dentro))
    }
}

/// Set operations on sorted lists of half-open ranges.
enum Intervalos {
    /// Sorted by start, overlapping or touching ranges merged into one.
    static func unidos(_ ranges: [TimeRange]) -> [TimeRange] {
        var resultado: [TimeRange] = []
        for range in ranges.sorted(by: { $0.start < $1.start }) {
            if let ultimo = resultado.last, range.start <= ultimo.end {
                if range.end > ultimo.end, let unido = try? TimeRange(start: ultimo.start, end: range.end) {
                    resultado[resultado.count - 1] = unido
                }
            } else {
                resultado.append(range)
            }
        }
        return resultado
    }

    /// What is left of `ranges` once every instant of `cortes` is taken out, sorted.
    static func subtraindo(_ cortes: [TimeRange], de ranges: [TimeRange]) -> [TimeRange] {
        var pedacos = ranges
        for corte in cortes {
            pedacos = pedacos.flatMap { pedaco -> [TimeRange] in
                guard pedaco.overlaps(corte) else { return [pedaco] }
                return [try? TimeRange(start: pedaco.start, end: corte.start), try? TimeRange(start: corte.end, end: pedaco.end)]
                    .compactMap { $0 }
            }
        }
        return pedacos.sorted { $0.start < $1.start }
    }

    /// The largest number of ranges that share one instant. Ends sort before starts at the
    /// same instant, so ranges that only touch are not counted together.
    static func maximoSimultaneo(_ ranges: [TimeRange]) -> Int {
        let marcos = ranges.flatMap { [($0.start, 1), ($0.end, -1)] }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        var atual = 0
        var maximo = 0
        for (_, delta) in marcos {
            atual += delta
            maximo = max(maximo, atual)
        }
        return maximo
    }
}
