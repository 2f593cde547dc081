import Domain
import Foundation
import Testing

/// Prices: R$ 25,00 an hour, R$ 80,00 a half day (4 h), R$ 150,00 a day, at least 60 minutes.
/// 2026-11-23 is a Monday, 2026-11-21 a Saturday; São Paulo is UTC−3 all year.
@Suite("Cotacao")
struct CotacaoTests {
    typealias Regra = TabelaDePreco.Regra
    let saoPaulo = TimeZone(identifier: "America/Sao_Paulo")!
    let espaco = UUID()
    let valores = TabelaDePreco.Valores(porHora: .reais(25), meioPeriodo: .reais(80), diaria: .reais(150), duracaoMinimaMinutos: 60)
    let pico = Regra(
        id: UUID(),
        tipo: .horarioDePico(
            dias: [.segunda, .terca, .quarta, .quinta, .sexta], inicioMinutos: 18 * 60, fimMinutos: 22 * 60, multiplicadorBP: 15_000))
    let fimDeSemana = Regra(id: UUID(), tipo: .fimDeSemana(multiplicadorBP: 12_000))
    let longas = [
        Regra(id: UUID(), tipo: .longaDuracao(aPartirDeMinutos: 3 * 60, descontoBP: 500)),
        Regra(id: UUID(), tipo: .longaDuracao(aPartirDeMinutos: 8 * 60, descontoBP: 1_500)),
        Regra(id: UUID(), tipo: .longaDuracao(aPartirDeMinutos: 5 * 60, descontoBP: 1_000)),
    ]
    let mensal = Regra(id: UUID(), tipo: .plano(plano: "Mensal", descontoBP: 2_000))
    let agora = Date(timeIntervalSince1970: 1_795_000_000)

    func tabela(_ regras: [Regra] = [], valores: TabelaDePreco.Valores? = nil) -> TabelaDePreco.Tabela {
        TabelaDePreco.Tabela(espacoId: espaco, valores: valores ?? self.valores, regras: regras)
    }

    func intervalo(_ inicio: String, _ fim: String) throws -> TimeRange {
        try TimeRange(start: try Date(inicio, strategy: .iso8601), end: try Date(fim, strategy: .iso8601))
    }

    func cupom(_ desconto: Cupom.Desconto, usos: Set<UUID> = [], ativo: Bool = true) -> Cupom.Dados {
        Cupom.Dados(
            codigo: "BEMVINDO", desconto: desconto, validoDe: agora.addingTimeInterval(-86_400), validoAte: agora.addingTimeInterval(86_400),
            maxUsos: 1, usos: usos, ativo: ativo)
    }

    func cotar(
        _ tabela: TabelaDePreco.Tabela, _ inicio: String, _ fim: String, plano: String? = nil, cupom: Cupom.Dados? = nil, fuso: TimeZone? = nil
    ) throws -> Cotacao.Resultado {
        try Cotacao.cotar(tabela: tabela, intervalo: try intervalo(inicio, fim), fuso: fuso ?? saoPaulo, plano: plano, cupom: cupom, em: agora)
    }

    func somaDasLinhas(_ resultado: Cotacao.Resultado) -> Money { resultado.linhas.map(\.valor).reduce(.zero, +) }

    @Test func a_booking_across_a_date_its_zone_skipped_is_priced_by_the_days_that_exist() throws {
        // Samoa crossed the date line: 2011-12-29 23:59 was followed by 2011-12-31 00:00.
        let apia = try #require(TimeZone(identifier: "Pacific/Apia"))
        let pulado = try #require(DataLocal("2011-12-30"))
        #expect(pulado.intervalo(em: apia) == nil)
        // 22:00 to 02:00 is one overnight run of 4 h: a half day.
        let resultado = try cotar(tabela(), "2011-12-29T22:00:00-10:00", "2011-12-31T02:00:00+14:00", fuso: apia)
        #expect(resultado.linhas.map(\.codigo) == ["base:2011-12-29/2011-12-31"])
        #expect(resultado.total == Money(centavos: 8_000))
        // Foundation's calendar is Julian before 1582-10-15, ours proleptic Gregorian: those
        // dates do not line up either. A quote of one is a price (the booking rules refuse
        // the past), not a crash.
        _ = try cotar(tabela(), "1582-10-04T10:00:00-03:00", "1582-10-04T12:00:00-03:00")
    }

    @Test("the operator's fraction is the rounding: by the half hour, 30 min cost half an hour and 40 min a whole hour, and the line says why")
    func the_fraction_the_operator_chose_is_the_rounding() throws {
        let meiaHora = TabelaDePreco.Valores(
            porHora: .reais(40), meioPeriodo: .reais(140), diaria: .reais(250), duracaoMinimaMinutos: 30, fracaoMinutos: 30)
        let trinta = try cotar(tabela(valores: meiaHora), "2026-11-23T09:00:00-03:00", "2026-11-23T09:30:00-03:00")
        #expect(trinta.linhas.map(\.descricao) == ["23/11/2026: 30 min a R$ 40,00 por hora"])
        #expect(trinta.total == .reais(20))
        let quarenta = try cotar(tabela(valores: meiaHora), "2026-11-23T09:00:00-03:00", "2026-11-23T09:40:00-03:00")
        #expect(quarenta.linhas.map(\.descricao) == ["23/11/2026: 1 h × R$ 40,00 (40 min reservados; cobrança por fração de 30 min iniciada)"])
        #expect(quarenta.total == .reais(40))
        let porMinuto = TabelaDePreco.Valores(
            porHora: .reais(40), meioPeriodo: .reais(140), diaria: .reais(250), duracaoMinimaMinutos: 1, fracaoMinutos: 1)
        #expect(try cotar(tabela(valores: porMinuto), "2026-11-23T09:00:00-03:00", "2026-11-23T09:07:00-03:00").total == Money(centavos: 467))
        // The default stays the started hour: a 30-minute booking is an hour.
        let horaIniciada = TabelaDePreco.Valores(porHora: .reais(40), meioPeriodo: .reais(140), diaria: .reais(250), duracaoMinimaMinutos: 30)
        let padrao = try cotar(tabela(valores: horaIniciada), "2026-11-23T09:00:00-03:00", "2026-11-23T09:30:00-03:00")
        #expect(padrao.linhas.first?.descricao.contains("30 min reservados; cobrança por hora iniciada") == true)
        #expect(
            TabelaDePreco.Valores(porHora: .reais(40), meioPeriodo: .reais(140), diaria: .reais(250), duracaoMinimaMinutos: 30, fracaoMinutos: 7)
                .problema != nil)
    }

    @Test(arguments: [
        ("10:00", 2_500, "1 h × R$ 25,00"),
        ("10:01", 5_000, "2 h × R$ 25,00 (1 h 1 min reservados; cobrança por hora iniciada)"),  // a started hour is a whole hour, and says so
        ("12:00", 7_500, "3 h × R$ 25,00"),
        ("13:00", 8_000, "1 meio período × R$ 80,00"),  // 4 h by the hour would be R$ 100,00
        ("14:00", 10_500, "1 meio período × R$ 80,00 + 1 h × R$ 25,00"),  // vs R$ 125,00 and R$ 160,00
        ("18:00", 15_000, "diária R$ 150,00"),  // vs R$ 185,00 mixed
    ])
    func a_day_costs_the_cheapest_way_to_sell_its_minutes(fim: String, centavos: Int64, descricao: String) throws {
        let resultado = try cotar(tabela(), "2026-11-23T09:00:00-03:00", "2026-11-23T\(fim):00-03:00")
        #expect(
            resultado.linhas == [Cotacao.Linha(codigo: "base:2026-11-23", descricao: "23/11/2026: \(descricao)", valor: Money(centavos: centavos))])
        #expect(resultado.subtotal == Money(centavos: centavos))
        #expect(resultado.descontos == .zero)
        #expect(resultado.total == Money(centavos: centavos))
    }

    @Test func the_duration_is_reported_in_minutes() throws {
        #expect(try cotar(tabela(), "2026-11-23T09:00:00-03:00", "2026-11-23T14:30:00-03:00").duracaoMinutos == 330)
    }

    @Test func a_booking_across_midnight_is_priced_per_local_day() throws {
        let resultado = try cotar(tabela(), "2026-11-23T20:00:00-03:00", "2026-11-24T02:00:00-03:00")
        #expect(resultado.linhas.map(\.codigo) == ["base:2026-11-23", "base:2026-11-24"])
        #expect(resultado.linhas.map(\.valor) == [Money(centavos: 8_000), Money(centavos: 5_000)])  // 4 h half day + 2 h
        #expect(resultado.total == Money(centavos: 13_000))
        #expect(resultado.duracaoMinutos == 360)
    }

    @Test func a_short_booking_across_midnight_rounds_its_hours_once() throws {
        let resultado = try cotar(tabela(), "2026-11-23T23:30:00-03:00", "2026-11-24T00:30:00-03:00")
        #expect(
            resultado.linhas == [
                Cotacao.Linha(codigo: "base:2026-11-23/2026-11-24", descricao: "23/11/2026 a 24/11/2026: 1 h × R$ 25,00", valor: .reais(25))
            ])
        #expect(resultado.subtotal == .reais(25))
        #expect(resultado.total == .reais(25))
        #expect(resultado.duracaoMinutos == 60)
    }

    @Test(arguments: [(60, 2_500), (90, 5_000), (150, 7_500), (240, 8_000), (300, 10_500)])
    func a_booking_costs_the_same_whenever_it_starts(minutos: Int, centavos: Int64) throws {
        // Every start over two days in 10-minute steps, a Monday and a Tuesday: crossing local
        // midnight must not cost more than staying inside one day.
        let segunda = try Date("2026-11-23T00:00:00-03:00", strategy: .iso8601)
        for passo in 0..<(2 * 24 * 6) {
            let inicio = segunda.addingTimeInterval(Double(passo * 600))
            let intervalo = try TimeRange(start: inicio, end: inicio.addingTimeInterval(Double(minutos * 60)))
            let resultado = try Cotacao.cotar(tabela: tabela(), intervalo: intervalo, fuso: saoPaulo, plano: nil, cupom: nil, em: agora)
            #expect(resultado.total == Money(centavos: centavos), "\(minutos) min from \(inicio)")
            #expect(somaDasLinhas(resultado) == resultado.total)
        }
    }

    @Test func a_multi_day_booking_keeps_its_daily_rates() throws {
        // Monday 23:00 → Wednesday 01:00: 1 h + a diária + 1 h = R$ 200,00 per day; as one run
        // of 26 h it would be 6 half days + 2 h = R$ 530,00.
        let resultado = try cotar(tabela(), "2026-11-23T23:00:00-03:00", "2026-11-25T01:00:00-03:00")
        #expect(resultado.linhas.map(\.codigo) == ["base:2026-11-23", "base:2026-11-24", "base:2026-11-25"])
        #expect(resultado.total == .reais(200))
    }

    @Test func a_peak_window_charges_only_the_minutes_inside_it() throws {
        // 16:00–19:30: base 3 h 30 min → one half day, R$ 80,00; 90 minutes at peak:
        // 2500 × 90 × 5000 / 600000 = 1875.
        let resultado = try cotar(tabela([pico]), "2026-11-23T16:00:00-03:00", "2026-11-23T19:30:00-03:00")
        #expect(
            resultado.linhas.last
                == Cotacao.Linha(
                    codigo: "pico:\(pico.id.uuidString.lowercased())", descricao: "Horário de pico 18:00–22:00: +50 % em 1 h 30 min",
                    valor: Money(centavos: 1_875)))
        #expect(resultado.subtotal == Money(centavos: 9_875))
        #expect(resultado.total == Money(centavos: 9_875))
    }

    @Test func a_peak_window_applies_only_on_its_weekdays() throws {
        let sabado = try cotar(tabela([pico]), "2026-11-21T16:00:00-03:00", "2026-11-21T19:30:00-03:00")
        #expect(sabado.linhas.map(\.codigo) == ["base:2026-11-21"])
        #expect(sabado.total == Money(centavos: 8_000))
    }

    @Test func peak_windows_are_counted_on_every_day_a_booking_touches() throws {
        // Monday 21:00 → Tuesday 19:00: 1 h at Monday's peak + 1 h at Tuesday's = 120 minutes;
        // 2500 × 120 × 5000 / 600000 = 2500. Base: Monday 3 h = 7500, Tuesday 19 h = diária.
        let resultado = try cotar(tabela([pico]), "2026-11-23T21:00:00-03:00", "2026-11-24T19:00:00-03:00")
        #expect(resultado.linhas.map(\.valor) == [Money(centavos: 7_500), Money(centavos: 15_000), Money(centavos: 2_500)])
        #expect(resultado.total == Money(centavos: 25_000))
    }

    @Test func a_peak_surcharge_rounds_half_away_from_zero_to_the_centavo() throws {
        // 2500 × 60 × 2 / 600000 = 0.5 centavo → 1.
        let quase = Regra(id: UUID(), tipo: .horarioDePico(dias: [.segunda], inicioMinutos: 0, fimMinutos: 1440, multiplicadorBP: 10_002))
        let resultado = try cotar(tabela([quase]), "2026-11-23T09:00:00-03:00", "2026-11-23T10:00:00-03:00")
        #expect(resultado.linhas.last?.valor == Money(centavos: 1))
        #expect(resultado.total == Money(centavos: 2_501))
    }

    @Test func weekend_days_raise_their_base() throws {
        let sabado = try cotar(tabela([fimDeSemana]), "2026-11-21T09:00:00-03:00", "2026-11-21T12:00:00-03:00")
        #expect(
            sabado.linhas.last
                == Cotacao.Linha(codigo: "fim_de_semana", descricao: "Fim de semana: +20 % sobre R$ 75,00", valor: Money(centavos: 1_500)))
        #expect(sabado.total == Money(centavos: 9_000))
        // Sunday 20:00 → Monday 02:00, per day (4 h + 2 h): only Sunday's R$ 80,00 is raised.
        let porDia = try cotar(tabela([fimDeSemana]), "2026-11-22T20:00:00-03:00", "2026-11-23T02:00:00-03:00")
        #expect(porDia.linhas.map(\.valor) == [Money(centavos: 8_000), Money(centavos: 5_000), Money(centavos: 1_600)])
        #expect(porDia.total == Money(centavos: 14_600))
        // Sunday 22:00 → Monday 02:00, one run of 4 h (a half day, R$ 80,00, against 2 h + 2 h):
        // half its minutes are Sunday's, so R$ 40,00 is raised.
        let virada = try cotar(tabela([fimDeSemana]), "2026-11-22T22:00:00-03:00", "2026-11-23T02:00:00-03:00")
        #expect(
            virada.linhas.last
                == Cotacao.Linha(codigo: "fim_de_semana", descricao: "Fim de semana: +20 % sobre R$ 40,00", valor: Money(centavos: 800)))
        #expect(virada.linhas.map(\.valor) == [Money(centavos: 8_000), Money(centavos: 800)])
        #expect(virada.total == Money(centavos: 8_800))
        let segunda = try cotar(tabela([fimDeSemana]), "2026-11-23T09:00:00-03:00", "2026-11-23T12:00:00-03:00")
        #expect(segunda.total == Money(centavos: 7_500))
    }

    @Test(arguments: [
        ("11:00", 5_000, 0),  // 2 h: no tier
        ("12:00", 7_500, 375),  // exactly 3 h: 5 %
        ("14:00", 10_500, 1_050),  // 5 h: 5 % and 10 % apply, 10 % wins
        ("18:00", 15_000, 2_250),  // 9 h: 15 %
    ])
    func the_largest_long_booking_discount_that_applies_wins(fim: String, subtotal: Int64, desconto: Int64) throws {
        let resultado = try cotar(tabela(longas), "2026-11-23T09:00:00-03:00", "2026-11-23T\(fim):00-03:00")
        #expect(resultado.subtotal == Money(centavos: subtotal))
        #expect(resultado.descontos == Money(centavos: desconto))
        #expect(resultado.total == Money(centavos: subtotal - desconto))
        #expect(resultado.linhas.contains { $0.codigo == "longa_duracao" } == (desconto > 0))
    }

    @Test func members_on_a_plan_get_its_discount() throws {
        let membro = try cotar(tabela([mensal]), "2026-11-23T09:00:00-03:00", "2026-11-23T12:00:00-03:00", plano: " mensal ")
        #expect(membro.linhas.last == Cotacao.Linha(codigo: "plano", descricao: "Plano Mensal: −20 %", valor: Money(centavos: -1_500)))
        #expect(membro.total == Money(centavos: 6_000))
        #expect(try cotar(tabela([mensal]), "2026-11-23T09:00:00-03:00", "2026-11-23T12:00:00-03:00", plano: "Anual").total == Money(centavos: 7_500))
        #expect(try cotar(tabela([mensal]), "2026-11-23T09:00:00-03:00", "2026-11-23T12:00:00-03:00").total == Money(centavos: 7_500))
    }

    @Test func a_percent_coupon_takes_its_share() throws {
        let resultado = try cotar(tabela(), "2026-11-23T09:00:00-03:00", "2026-11-23T12:00:00-03:00", cupom: cupom(.percentual(bp: 1_250)))
        // 12,5 % of 7500 = 937.5 → 938.
        #expect(resultado.linhas.last == Cotacao.Linha(codigo: "cupom:BEMVINDO", descricao: "Cupom BEMVINDO: −12,5 %", valor: Money(centavos: -938)))
        #expect(resultado.total == Money(centavos: 6_562))
    }

    @Test func a_fixed_coupon_is_capped_at_what_remains() throws {
        let menor = try cotar(tabela(), "2026-11-23T09:00:00-03:00", "2026-11-23T12:00:00-03:00", cupom: cupom(.fixo(.reais(10))))
        #expect(menor.total == Money(centavos: 6_500))
        let maior = try cotar(tabela(), "2026-11-23T09:00:00-03:00", "2026-11-23T10:00:00-03:00", cupom: cupom(.fixo(.reais(50))))
        #expect(maior.linhas.last?.valor == Money(centavos: -2_500))
        #expect(maior.descontos == Money(centavos: 2_500))
        #expect(maior.total == .zero)
    }

    @Test func discounts_apply_long_booking_then_plan_then_coupon() throws {
        // 5 h = 10500; long booking 10 % → 1050, leaves 9450; plan 20 % of 9450 → 1890, leaves
        // 7560; coupon 10 % of 7560 → 756, leaves 6804.
        let resultado = try cotar(
            tabela(longas + [mensal]), "2026-11-23T09:00:00-03:00", "2026-11-23T14:00:00-03:00", plano: "Mensal", cupom: cupom(.percentual(bp: 1_000))
        )
        #expect(resultado.linhas.map(\.codigo) == ["base:2026-11-23", "longa_duracao", "plano", "cupom:BEMVINDO"])
        #expect(resultado.linhas.map(\.valor) == [10_500, -1_050, -1_890, -756].map { Money(centavos: $0) })
        #expect(
            resultado.linhas.map(\.descricao).dropFirst() == [
                "Longa duração (a partir de 5 h): −10 %", "Plano Mensal: −20 %", "Cupom BEMVINDO: −10 %",
            ])
        #expect(resultado.subtotal == Money(centavos: 10_500))
        #expect(resultado.descontos == Money(centavos: 3_696))
        #expect(resultado.total == Money(centavos: 6_804))
    }

    @Test func credits_pay_after_the_plan_hours_before_the_coupon_money_last() throws {
        let gratuito = Regra(id: UUID(), tipo: .plano(plano: "Cortesia", descontoBP: 10_000))
        func comCreditos(_ minutos: Int64, _ centavos: Int64, plano: String? = nil, cupom: Cupom.Dados? = nil) throws -> Cotacao.Resultado {
            try Cotacao.cotar(
                tabela: tabela(longas + [mensal, gratuito]), intervalo: try intervalo("2026-11-23T09:00:00-03:00", "2026-11-23T14:00:00-03:00"),
                fuso: saoPaulo,
                plano: plano, cupom: cupom, em: agora, creditos: Cotacao.Creditos(minutos: minutos, centavos: centavos))
        }
        // 5 h = 10500; long booking −1050, plan −1890 leave 7560; 2 of the 5 hours in credits pay
        // 2/5 of it (3024), the coupon 10 % of the rest (454), money credits R$ 10,00 of what is left.
        let resultado = try comCreditos(120, 1_000, plano: "Mensal", cupom: cupom(.percentual(bp: 1_000)))
        #expect(
            resultado.linhas.map(\.codigo) == ["base:2026-11-23", "longa_duracao", "plano", "creditos:horas", "cupom:BEMVINDO", "creditos:valor"])
        #expect(resultado.linhas.map(\.valor) == [10_500, -1_050, -1_890, -3_024, -454, -1_000].map { Money(centavos: $0) })
        #expect(resultado.linhas.map(\.descricao)[3] == "Créditos: 2 h do seu saldo")
        #expect(resultado.total == Money(centavos: 3_082) && somaDasLinhas(resultado) == resultado.total)
        #expect(resultado.creditos == Cotacao.Creditos(minutos: 120, centavos: 1_000))
        // More hours than the booking: all of it, the booking's minutes only; money left unspent.
        let todas = try comCreditos(600, 5_000)
        #expect(todas.total == .zero && todas.creditos == Cotacao.Creditos(minutos: 300, centavos: 0))
        #expect(todas.linhas.map(\.codigo).last == "creditos:horas")
        // Money credits cap at what remains.
        let dinheiro = try comCreditos(0, 1_000_000)
        #expect(dinheiro.total == .zero && dinheiro.creditos == Cotacao.Creditos(minutos: 0, centavos: 9_450))
        // Nothing to pay (a plan that takes it all): no credits spent.
        let gratis = try comCreditos(120, 1_000, plano: "Cortesia")
        #expect(gratis.total == .zero && gratis.creditos == nil && !gratis.linhas.contains { $0.codigo.hasPrefix("creditos") })
    }

    @Test func credit_lines_say_whose_credits_pay_the_members_own_first() throws {
        func comCreditos(_ minutos: Int64, _ centavos: Int64, daEmpresa: Cotacao.Creditos.Parte) throws -> Cotacao.Resultado {
            try Cotacao.cotar(
                tabela: tabela([]), intervalo: try intervalo("2026-11-23T09:00:00-03:00", "2026-11-23T12:00:00-03:00"), fuso: saoPaulo,
                plano: nil, cupom: nil, em: agora, creditos: Cotacao.Creditos(minutos: minutos, centavos: centavos, daEmpresa: daEmpresa))
        }
        func credito(_ resultado: Cotacao.Resultado) -> [String] {
            resultado.linhas.filter { $0.codigo.hasPrefix("creditos") }.map(\.descricao)
        }
        // 3 h: 1 h of the member's own, then 2 of the company's 5.
        let mista = try comCreditos(360, 0, daEmpresa: .init(minutos: 300, centavos: 0))
        #expect(credito(mista) == ["Créditos: 3 h (1 h do seu saldo, 2 h da sua empresa)"])
        #expect(mista.creditos == Cotacao.Creditos(minutos: 180, centavos: 0, daEmpresa: .init(minutos: 120, centavos: 0)))
        // Enough of their own: the company's are not touched.
        let propria = try comCreditos(600, 0, daEmpresa: .init(minutos: 300, centavos: 0))
        #expect(credito(propria) == ["Créditos: 3 h do seu saldo"] && propria.creditos?.daEmpresa == nil)
        // Only the company's, in hours and in money.
        let daEmpresa = try comCreditos(60, 100_000, daEmpresa: .init(minutos: 60, centavos: 100_000))
        #expect(credito(daEmpresa) == ["Créditos: 1 h da sua empresa", "Créditos: R$ 50,00 da sua empresa"], "\(credito(daEmpresa))")
        #expect(daEmpresa.total == .zero && daEmpresa.creditos?.daEmpresa == .init(minutos: 60, centavos: 5_000))
    }

    @Test func surcharges_come_before_discounts() throws {
        // Saturday 09:00–14:00: base 10500, weekend +20 % → 2100, subtotal 12600; 10 % → 1260.
        let resultado = try cotar(tabela([fimDeSemana] + longas), "2026-11-21T09:00:00-03:00", "2026-11-21T14:00:00-03:00")
        #expect(resultado.subtotal == Money(centavos: 12_600))
        #expect(resultado.total == Money(centavos: 11_340))
    }

    @Test func a_coupon_that_cannot_be_used_now_fails_the_quote() throws {
        let expirado = Cupom.Dados(
            codigo: "VELHO", desconto: .percentual(bp: 1_000), validoDe: agora.addingTimeInterval(-2 * 86_400), validoAte: agora, maxUsos: 5)
        #expect(throws: Cotacao.Falha.cupom(.foraDaValidade)) {
            try cotar(tabela(), "2026-11-23T09:00:00-03:00", "2026-11-23T12:00:00-03:00", cupom: expirado)
        }
        #expect(throws: Cotacao.Falha.cupom(.desativado)) {
            try cotar(tabela(), "2026-11-23T09:00:00-03:00", "2026-11-23T12:00:00-03:00", cupom: cupom(.percentual(bp: 1_000), ativo: false))
        }
        #expect(throws: Cotacao.Falha.cupom(.esgotado)) {
            try cotar(tabela(), "2026-11-23T09:00:00-03:00", "2026-11-23T12:00:00-03:00", cupom: cupom(.percentual(bp: 1_000), usos: [UUID()]))
        }
    }

    @Test func a_booking_shorter_than_the_minimum_fails_the_quote() throws {
        #expect(throws: Cotacao.Falha.duracaoMinima(minutos: 60)) {
            try cotar(tabela(), "2026-11-23T09:00:00-03:00", "2026-11-23T09:59:00-03:00")
        }
        #expect(try cotar(tabela(), "2026-11-23T09:00:00-03:00", "2026-11-23T10:00:00-03:00").total == Money(centavos: 2_500))
    }

    @Test func days_with_a_clock_change_are_one_day_each() throws {
        let novaYork = try #require(TimeZone(identifier: "America/New_York"))
        let regras = [
            fimDeSemana, Regra(id: UUID(), tipo: .horarioDePico(dias: [.domingo], inicioMinutos: 60, fimMinutos: 180, multiplicadorBP: 20_000)),
        ]
        // 2026-11-01 (Sunday) lasts 25 h in New York; 2026-03-08 (Sunday) lasts 23 h.
        let outono = try cotar(tabela(regras), "2026-11-01T00:00:00-04:00", "2026-11-02T00:00:00-05:00", fuso: novaYork)
        #expect(outono.duracaoMinutos == 25 * 60)
        #expect(outono.linhas.first == Cotacao.Linha(codigo: "base:2026-11-01", descricao: "01/11/2026: diária R$ 150,00", valor: .reais(150)))
        #expect(somaDasLinhas(outono) == outono.total)
        let primavera = try cotar(tabela(regras), "2026-03-08T00:00:00-05:00", "2026-03-09T00:00:00-04:00", fuso: novaYork)
        #expect(primavera.duracaoMinutos == 23 * 60)
        #expect(primavera.linhas.first?.valor == .reais(150))
        #expect(somaDasLinhas(primavera) == primavera.total)
    }

    @Test func a_long_booking_with_every_rule_adds_up() throws {
        let resultado = try cotar(
            tabela([pico, fimDeSemana, mensal] + longas), "2026-11-20T17:15:00-03:00", "2026-12-04T10:40:00-03:00", plano: "mensal",
            cupom: cupom(.percentual(bp: 333)))
        #expect(resultado.linhas.filter { $0.codigo.hasPrefix("base:") }.count == 15)
        #expect(somaDasLinhas(resultado) == resultado.total)
        #expect(resultado.subtotal - resultado.descontos == resultado.total)
    }

    @Test func a_year_long_booking_is_quoted_day_by_day() throws {
        let resultado = try cotar(tabela([pico, fimDeSemana, mensal] + longas), "2026-11-23T00:00:00-03:00", "2027-11-23T00:00:00-03:00")
        #expect(resultado.duracaoMinutos == 365 * 24 * 60)
        #expect(resultado.linhas.filter { $0.codigo.hasPrefix("base:") }.count == 365)
        #expect(somaDasLinhas(resultado) == resultado.total)
    }

    @Test func an_off_peak_discount_never_takes_the_subtotal_below_zero() throws {
        // A multiplier of 1 bp is allowed: 9 h at "peak" take 2500 × 540 × 9999 / 600000 ≈ 22498
        // off a R$ 150,00 day; an adjustment line brings the subtotal back to zero.
        let gratis = Regra(id: UUID(), tipo: .horarioDePico(dias: [.segunda], inicioMinutos: 0, fimMinutos: 1440, multiplicadorBP: 1))
        let resultado = try cotar(tabela([gratis]), "2026-11-23T09:00:00-03:00", "2026-11-23T18:00:00-03:00", cupom: cupom(.fixo(.reais(10))))
        #expect(resultado.linhas.map(\.codigo).suffix(2) == ["pico:\(gratis.id.uuidString.lowercased())", "ajuste"])
        #expect(resultado.linhas.map(\.valor).suffix(2) == [Money(centavos: -22_498), Money(centavos: 7_498)])
        #expect(resultado.subtotal == .zero)
        #expect(resultado.total == .zero)
        #expect(somaDasLinhas(resultado) == .zero)
    }

    @Test func quotes_are_stored_with_their_lines() throws {
        let resultado = try cotar(tabela([mensal]), "2026-11-23T09:00:00-03:00", "2026-11-23T12:00:00-03:00", plano: "Mensal")
        let data = try JSONEncoder().encode(resultado)
        #expect(try JSONDecoder().decode(Cotacao.Resultado.self, from: data) == resultado)
    }
}
