public import Foundation

/// Quoting a booking: a pure function of the table, the interval, the member's plan and the
/// coupon. The booking handler quotes again when it books, so the price it stores is the one
/// this function gives at that instant.
public enum Cotacao {
    /// One line of a quote. Base and surcharge lines are positive (a peak multiplier below
    /// 10_000 gives a negative one), discount lines negative.
    public struct Linha: Codable, Sendable, Equatable {
        /// `base:<yyyy-mm-dd>` (or `base:<yyyy-mm-dd>/<yyyy-mm-dd>` for a booking priced as one
        /// run), `pico:<rule id>`, `fim_de_semana`, `ajuste`, `longa_duracao`, `plano` or
        /// `cupom:<CODIGO>`.
        public let codigo: String
        /// Human-readable, in Portuguese, e.g. `23/11/2026: 3 h × R$ 25,00`.
        public let descricao: String
        public let valor: Money

        public init(codigo: String, descricao: String, valor: Money) {
            self.codigo = codigo
            self.descricao = descricao
            self.valor = valor
        }
    }

    /// Credits, in minutes and centavos: what the member's wallet holds that serves this space
    /// (``Carteira/State/disponivel(_:tipo:unidade:em:)``), given to a quote, and what the quote
    /// spends of them (``Resultado/creditos``). `daEmpresa`: the part of them that is their
    /// company's pool (nil: none); the member's own are spent first.
    public struct Creditos: Codable, Sendable, Equatable {
        public let minutos: Int64
        public let centavos: Int64
        public let daEmpresa: Parte?

        public init(minutos: Int64, centavos: Int64, daEmpresa: Parte? = nil) {
            self.minutos = minutos
            self.centavos = centavos
            self.daEmpresa = daEmpresa.flatMap { $0.minutos > 0 || $0.centavos > 0 ? $0 : nil }
        }

        /// Minutes and centavos of credits from one wallet.
        public struct Parte: Codable, Sendable, Equatable {
            public let minutos: Int64
            public let centavos: Int64

            public init(minutos: Int64, centavos: Int64) {
                self.minutos = minutos
                self.centavos = centavos
            }
        }

        /// Of `usados` spent from these, own first, the part the company's pool pays.
        func parteDaEmpresa(deUsados usados: Int64, _ medida: KeyPath<Parte, Int64>) -> Int64 {
            let total = Parte(minutos: minutos, centavos: centavos)[keyPath: medida]
            let proprio = total - (daEmpresa?[keyPath: medida] ?? 0)
            return max(0, usados - proprio)
        }
    }

    /// A member's subscription whose plan gives a discount on this booking (its benefits are
    /// active and its access covers the space type and day).
    public struct Assinatura: Sendable, Equatable {
        public let plano: String
        public let descontoBP: Int64

        public init(plano: String, descontoBP: Int64) {
            self.plano = plano
            self.descontoBP = descontoBP
        }
    }

    public struct Resultado: Codable, Sendable, Equatable {
        public let linhas: [Linha]
        /// Base plus surcharges (never below zero).
        public let subtotal: Money
        /// The sum of the discounts, as a positive amount.
        public let descontos: Money
        /// `subtotal − descontos`, never below zero; always the sum of `linhas`.
        public let total: Money
        public let duracaoMinutos: Int
        /// The member's credits this booking would spend (their lines are `creditos:horas` and
        /// `creditos:valor`); absent when it spends none.
        public let creditos: Creditos?

        public init(linhas: [Linha], subtotal: Money, descontos: Money, total: Money, duracaoMinutos: Int, creditos: Creditos? = nil) {
            self.linhas = linhas
            self.subtotal = subtotal
            self.descontos = descontos
            self.total = total
            self.duracaoMinutos = duracaoMinutos
            self.creditos = creditos
        }
    }

    public enum Falha: Error, Equatable, Sendable {
        /// The booking is shorter than the table's minimum; `minutos` is that minimum.
        case duracaoMinima(minutos: Int)
        /// The coupon cannot be used at `em`.
        case cupom(Cupom.Failure)
    }

    /// Prices `intervalo` against `tabela`, in this order (the contract):
    ///
    /// Durations are whole minutes: each span is rounded to the second, then up to the minute.
    /// A booking shorter than `duracaoMinimaMinutos` throws ``Falha/duracaoMinima(minutos:)``
    /// with the minimum; then a coupon that fails ``Cupom/Dados/validar(em:reserva:)`` at `em`
    /// throws ``Falha/cupom(_:)``.
    ///
    /// 1. **Base**, the cheaper of two ways to sell the booking (ties go to the first):
    ///    - **per local day** (in `fuso`) the interval touches: with `m` the minutes booked that
    ///      day and `f` the table's fraction (``TabelaDePreco/Valores/fracao``, 60 by default),
    ///      hours charged as `h(x) = ⌈x/f⌉ × f / 60 × porHora` (rounded half away from zero to
    ///      the centavo), the cheapest of `h(m)`; `⌈m/240⌉ × meioPeriodo`;
    ///      `⌊m/240⌋ × meioPeriodo + h(m mod 240)`; `diaria` (ties go to the first). One line
    ///      per day, `base:<yyyy-mm-dd>`; where a started fraction was charged whole, the line
    ///      says so in the member's words ("1 h 10 min reservados; cobrança por hora iniciada").
    ///    - **as one run**, for a booking that touches more than one local day: the cheapest of
    ///      the same three hourly and half-day formulas over all its minutes (no `diaria`: a
    ///      diária sells a local day). So a started hour is rounded up once per booking, not
    ///      once per day: 23:30–00:30 is one hour, not two. One line,
    ///      `base:<first yyyy-mm-dd>/<last yyyy-mm-dd>`.
    /// 2. **Horário de pico**: for each peak rule, in table order, the booked minutes inside its
    ///    local window on its weekdays; surcharge `porHora × minutos / 60 × (mult − 10_000) / 10_000`,
    ///    computed exactly and rounded half away from zero to the centavo. One line per rule
    ///    with a non-zero surcharge, `pico:<rule id>`.
    /// 3. **Fim de semana**: the base of the Saturdays and Sundays booked × `(mult − 10_000) / 10_000`,
    ///    rounded. Priced per day, a local day is wholly weekend or not, so that base is the
    ///    weekend days' lines; priced as one run, it is the run's base × the minutes booked on
    ///    Saturdays and Sundays / all its minutes (computed exactly with the multiplier, rounded
    ///    once). With several weekend rules the largest multiplier wins. One line, `fim_de_semana`.
    /// 4. **Subtotal** = base + surcharges. Should peak multipliers below 10_000 take it below
    ///    zero, an `ajuste` line brings it back to zero.
    /// 5. **Longa duração**: the largest discount among the rules whose `aPartirDeMinutos` the
    ///    whole booking reaches, applied to the subtotal. Line `longa_duracao`.
    /// 6. **Plano**: when `plano` (trimmed) matches a plan rule case-insensitively, its discount
    ///    (the largest, if several match), or the discount of the member's subscription
    ///    (`assinatura`) when it is larger, applied to subtotal − longa duração. Line `plano`.
    /// 7. **Créditos em horas**: with `creditos`, the member's hours pay for up to all the
    ///    minutes booked: of what remains, the share `min(horas, duração) / duração`. Line
    ///    `creditos:horas`, saying whose they are (the member's own first, then their
    ///    company's: `creditos.daEmpresa`).
    /// 8. **Cupom**: percentual of what remains, or the fixed amount capped at what remains.
    ///    Line `cupom:<CODIGO>`.
    /// 9. **Créditos em valor**, last: the member's money credits pay what remains, up to their
    ///    balance. Line `creditos:valor`. Credits are spent only on a price above zero.
    /// 10. **Total** = subtotal − descontos, never below zero (every discount is capped at what
    ///    remains); `descontos` is the sum of the discounts as a positive amount.
    ///
    /// Percentages are rounded half away from zero to the centavo. Discount and surcharge lines
    /// are listed only when non-zero, so the lines always add up to `total`.
    public static func cotar(
        tabela: TabelaDePreco.Tabela, intervalo: TimeRange, fuso: TimeZone, plano: String?, cupom: Cupom.Dados?, em: Date,
        creditos: Creditos? = nil, assinatura: Assinatura? = nil
    ) throws(Falha) -> Resultado {
        let valores = tabela.valores
        let duracao = minutos(intervalo)
        guard duracao >= valores.duracaoMinimaMinutos else { throw .duracaoMinima(minutos: valores.duracaoMinimaMinutos) }
        if let cupom {
            do throws(Cupom.Failure) { try cupom.validar(em: em) } catch { throw .cupom(error) }
        }

        // Amounts are Int128 centavos until the end, so no product can overflow.
        let porHora = Int128(valores.porHora.centavos)
        var linhas: [(codigo: String, descricao: String, valor: Int128)] = []

        // 1. Base: per local day, or as one run when that is cheaper.
        var dias: [(data: DataLocal, minutos: Int, base: Int128, descricao: String)] = []
        for data in DataLocal.dias(de: intervalo, em: fuso) {
            guard let trecho = data.intervalo(em: fuso)?.intersection(intervalo) else { continue }
            let m = minutos(trecho)
            guard m > 0 else { continue }
            let (valor, descricao) = precoDoDia(minutos: m, valores: valores)
            dias.append((data, m, valor, descricao))
        }
        let porDia = dias.reduce(Int128(0)) { $0 + $1.base }
        // The weekend's share of the base, as (numerator, denominator) of a fraction of it.
        let baseDoFimDeSemana: (Int128, Int128)
        if let primeiro = dias.first, let ultimo = dias.last, dias.count > 1,
            case let (corrido, descricao) = precoDoDia(minutos: duracao, valores: valores, comDiaria: false), corrido < porDia
        {
            linhas.append(("base:\(primeiro.data)/\(ultimo.data)", "\(formatar(primeiro.data)) a \(formatar(ultimo.data)): \(descricao)", corrido))
            let noFimDeSemana = dias.filter { $0.data.diaDaSemana.fimDeSemana }.reduce(0) { $0 + $1.minutos }
            let todos = dias.reduce(0) { $0 + $1.minutos }
            baseDoFimDeSemana = (corrido * Int128(noFimDeSemana), Int128(max(todos, 1)))
        } else {
            for dia in dias { linhas.append(("base:\(dia.data)", "\(formatar(dia.data)): \(dia.descricao)", dia.base)) }
            baseDoFimDeSemana = (dias.filter { $0.data.diaDaSemana.fimDeSemana }.reduce(Int128(0)) { $0 + $1.base }, 1)
        }
        var subtotal = linhas.reduce(Int128(0)) { $0 + $1.valor }

        // 2. Horário de pico.
        for regra in tabela.regras {
            guard case .horarioDePico(let semana, let inicio, let fim, let multiplicador) = regra.tipo else { continue }
            var noPico = 0
            for data in dias.map(\.data) where semana.contains(data.diaDaSemana) {
                guard let janela = try? TimeRange(start: data.instante(minutos: inicio, em: fuso), end: data.instante(minutos: fim, em: fuso)),
                    let trecho = janela.intersection(intervalo)
                else { continue }
                noPico += minutos(trecho)
            }
            let acrescimo = dividir(porHora * Int128(noPico) * Int128(multiplicador - 10_000), por: 60 * 10_000)
            guard noPico > 0, acrescimo != 0 else { continue }
            let descricao =
                "Horário de pico \(formatar(minutoDoDia: inicio))–\(formatar(minutoDoDia: fim)): "
                + "\(formatar(variacao: multiplicador - 10_000)) em \(formatar(duracao: noPico))"
            linhas.append(("pico:\(regra.id.lowercasedString)", descricao, acrescimo))
            subtotal += acrescimo
        }

        // 3. Fim de semana.
        let fimDeSemana = tabela.regras.compactMap { regra -> Int64? in
            if case .fimDeSemana(let multiplicador) = regra.tipo { return multiplicador }
            return nil
        }.max()
        if let multiplicador = fimDeSemana {
            let (parte, todo) = baseDoFimDeSemana
            let acrescimo = dividir(parte * Int128(multiplicador - 10_000), por: todo * 10_000)
            if acrescimo != 0 {
                let base = dinheiro(dividir(parte, por: todo))
                linhas.append(("fim_de_semana", "Fim de semana: \(formatar(variacao: multiplicador - 10_000)) sobre \(base)", acrescimo))
                subtotal += acrescimo
            }
        }

        // 4. Subtotal, never below zero.
        if subtotal < 0 {
            linhas.append(("ajuste", "Ajuste: o subtotal não fica negativo", -subtotal))
            subtotal = 0
        }

        // 5–7. Discounts, each capped at what remains.
        var restante = subtotal
        func descontar(_ valor: Int128, _ codigo: String, _ descricao: String) {
            let valor = min(max(valor, 0), restante)
            guard valor > 0 else { return }
            linhas.append((codigo, descricao, -valor))
            restante -= valor
        }

        let longa = tabela.regras.compactMap { regra -> (aPartir: Int, bp: Int64)? in
            guard case .longaDuracao(let aPartir, let bp) = regra.tipo, duracao >= aPartir else { return nil }
            return (aPartir, bp)
        }.max { $0.bp < $1.bp }
        if let longa {
            descontar(
                dividir(restante * Int128(longa.bp), por: 10_000), "longa_duracao",
                "Longa duração (a partir de \(formatar(duracao: longa.aPartir))): −\(formatar(percentual: longa.bp))")
        }

        let membro = plano?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let doPlano = tabela.regras.compactMap { regra -> (nome: String, bp: Int64)? in
            guard case .plano(let nome, let bp) = regra.tipo, let membro, !membro.isEmpty,
                nome.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == membro
            else { return nil }
            return (nome, bp)
        }.max { $0.bp < $1.bp }
        if let assinatura, assinatura.descontoBP > 0, assinatura.descontoBP > doPlano?.bp ?? 0 {
            let bp = min(assinatura.descontoBP, 10_000)
            descontar(dividir(restante * Int128(bp), por: 10_000), "plano", "Plano \(assinatura.plano) (assinatura): −\(formatar(percentual: bp))")
        } else if let doPlano {
            descontar(dividir(restante * Int128(doPlano.bp), por: 10_000), "plano", "Plano \(doPlano.nome): −\(formatar(percentual: doPlano.bp))")
        }

        var usados = (minutos: Int64(0), centavos: Int64(0))
        if let creditos, creditos.minutos > 0, restante > 0, duracao > 0 {
            let horas = min(creditos.minutos, Int64(duracao))
            let antes = restante
            descontar(
                horas == Int64(duracao) ? restante : dividir(restante * Int128(horas), por: Int128(duracao)), "creditos:horas",
                "Créditos: \(origem(horas, daEmpresa: creditos.parteDaEmpresa(deUsados: horas, \.minutos)) { formatar(duracao: Int($0)) })")
            if restante < antes { usados.minutos = horas }
        }

        if let cupom {
            switch cupom.desconto {
            case .percentual(let bp):
                descontar(dividir(restante * Int128(bp), por: 10_000), "cupom:\(cupom.codigo)", "Cupom \(cupom.codigo): −\(formatar(percentual: bp))")
            case .fixo(let valor):
                let limitado = Int128(valor.centavos) > restante ? " (limitado ao restante)" : ""
                descontar(Int128(valor.centavos), "cupom:\(cupom.codigo)", "Cupom \(cupom.codigo): −\(valor)\(limitado)")
            }
        }

        if let creditos, creditos.centavos > 0, restante > 0 {
            let valor = min(Int128(creditos.centavos), restante)
            let daEmpresa = creditos.parteDaEmpresa(deUsados: Int64(valor), \.centavos)
            descontar(valor, "creditos:valor", "Créditos: \(origem(Int64(valor), daEmpresa: daEmpresa) { dinheiro(Int128($0)) })")
            usados.centavos = Int64(valor)
        }

        return Resultado(
            linhas: linhas.map { Linha(codigo: $0.codigo, descricao: $0.descricao, valor: money($0.valor)) },
            subtotal: money(subtotal),
            descontos: money(subtotal - restante),
            total: money(max(restante, 0)),
            duracaoMinutos: duracao,
            creditos: usados.minutos > 0 || usados.centavos > 0
                ? Creditos(
                    minutos: usados.minutos, centavos: usados.centavos,
                    daEmpresa: creditos.map {
                        Creditos.Parte(
                            minutos: $0.parteDaEmpresa(deUsados: usados.minutos, \.minutos),
                            centavos: $0.parteDaEmpresa(deUsados: usados.centavos, \.centavos))
                    }) : nil)
    }

    /// "2 h do seu saldo", "2 h da sua empresa", or "2 h (1 h do seu saldo, 1 h da sua empresa)".
    static func origem(_ usados: Int64, daEmpresa: Int64, _ quantia: (Int64) -> String) -> String {
        if daEmpresa <= 0 { return "\(quantia(usados)) do seu saldo" }
        if daEmpresa >= usados { return "\(quantia(usados)) da sua empresa" }
        return "\(quantia(usados)) (\(quantia(usados - daEmpresa)) do seu saldo, \(quantia(daEmpresa)) da sua empresa)"
    }

    /// The cheapest way to sell `m` minutes (of one local day, or of a run without the diária),
    /// and how it reads.
    private static func precoDoDia(minutos m: Int, valores: TabelaDePreco.Valores, comDiaria: Bool = true) -> (Int128, String) {
        let bloco = TabelaDePreco.minutosDoMeioPeriodo
        let hora = Int128(valores.porHora.centavos)
        let meio = Int128(valores.meioPeriodo.centavos)
        let fracao = valores.fracao
        /// `x` minutes by the hour: charged in whole fractions, and how that reads.
        func porHora(_ x: Int) -> (valor: Int128, descricao: String) {
            let cobrados = teto(x, fracao) * fracao
            let quanto =
                cobrados % 60 == 0 ? "\(cobrados / 60) h × \(valores.porHora)" : "\(formatar(duracao: cobrados)) a \(valores.porHora) por hora"
            let arredondado =
                cobrados > x
                ? " (\(formatar(duracao: x)) reservados; cobrança por \(fracao == 60 ? "hora iniciada" : "fração de \(fracao) min iniciada"))" : ""
            return (dividir(hora * Int128(cobrados), por: 60), quanto + arredondado)
        }
        let blocos = teto(m, bloco)
        let inteiros = m / bloco
        let horas = porHora(m)
        let resto = porHora(m % bloco)
        func periodos(_ n: Int) -> String { n == 1 ? "1 meio período × \(valores.meioPeriodo)" : "\(n) meios períodos × \(valores.meioPeriodo)" }
        var opcoes: [(Int128, String)] = [
            (horas.valor, horas.descricao),
            (Int128(blocos) * meio, periodos(blocos)),
            // Strictly cheaper than both above only with whole blocks and a remainder.
            (Int128(inteiros) * meio + resto.valor, "\(periodos(inteiros)) + \(resto.descricao)"),
        ]
        if comDiaria { opcoes.append((Int128(valores.diaria.centavos), "diária \(valores.diaria)")) }
        var melhor = opcoes[0]
        for opcao in opcoes.dropFirst() where opcao.0 < melhor.0 { melhor = opcao }
        return melhor
    }

    /// Whole minutes of a span: rounded to the second, then up to the minute.
    private static func minutos(_ range: TimeRange) -> Int {
        let segundos = range.duration.rounded()
        guard segundos < Double(Int.max / 2) else { return Int.max / 120 }
        return teto(Int(segundos), 60)
    }

    private static func teto(_ a: Int, _ b: Int) -> Int { (a + b - 1) / b }

    /// `n / d` rounded half away from zero (`d > 0`).
    private static func dividir(_ n: Int128, por d: Int128) -> Int128 {
        let (quociente, resto) = n.quotientAndRemainder(dividingBy: d)
        return resto.magnitude * 2 >= d.magnitude ? quociente + n.signum() : quociente
    }

    private static func money(_ centavos: Int128) -> Money { Money(centavos: Int64(clamping: centavos)) }

    private static func dinheiro(_ centavos: Int128) -> String { money(centavos).description }

    private static func dois(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    private static func formatar(_ data: DataLocal) -> String { "\(dois(data.dia))/\(dois(data.mes))/\(data.ano)" }

    private static func formatar(minutoDoDia m: Int) -> String { "\(dois(m / 60)):\(dois(m % 60))" }

    /// `3 h`, `1 h 30 min`, `45 min`.
    public static func formatar(duracao m: Int) -> String {
        switch (m / 60, m % 60) {
        case (0, let min): "\(min) min"
        case (let h, 0): "\(h) h"
        case (let h, let min): "\(h) h \(min) min"
        }
    }

    /// Basis points as a Brazilian percentage: `10 %`, `12,5 %`, `0,01 %`.
    private static func formatar(percentual bp: Int64) -> String {
        let (inteiro, fracao) = bp.magnitude.quotientAndRemainder(dividingBy: 100)
        switch fracao {
        case 0: return "\(inteiro) %"
        case let f where f % 10 == 0: return "\(inteiro),\(f / 10) %"
        case let f: return "\(inteiro),\(dois(Int(f))) %"
        }
    }

    /// A signed change in basis points: `+50 %`, `−20 %`.
    private static func formatar(variacao bp: Int64) -> String { (bp < 0 ? "−" : "+") + formatar(percentual: bp) }
}
