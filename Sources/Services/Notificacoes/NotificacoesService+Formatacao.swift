import Domain
import Foundation

extension NotificacoesService {
    // MARK: Formatting

    /// `R$ 1.234,56`.
    static func reais(_ valor: Money) -> String {
        let centavos = abs(valor.centavos)
        var inteiro = String(centavos / 100)
        var grupos: [String] = []
        while inteiro.count > 3 {
            grupos.insert(String(inteiro.suffix(3)), at: 0)
            inteiro.removeLast(3)
        }
        grupos.insert(inteiro, at: 0)
        return (valor.centavos < 0 ? "-" : "") + "R$ " + grupos.joined(separator: ".") + String(format: ",%02d", centavos % 100)
    }

    /// "Motivo: o projeto acabou." for a reason given (its own closing period, or `!`/`?`, kept
    /// rather than doubled); nil for none or only white space.
    static func motivo(_ texto: String?) -> String? {
        guard let texto = texto?.trimmingCharacters(in: .whitespacesAndNewlines), !texto.isEmpty else { return nil }
        return "Motivo: \(texto)" + (texto.last.map { ".!?…".contains($0) } == true ? "" : ".")
    }

    /// `25/12/2026, 09:00–11:00` in the unit's time zone; with the end's date too when it falls
    /// on another day (`01/03/2026, 09:00 – 05/03/2026, 18:00`, or past midnight).
    static func quando(_ intervalo: TimeRange, fuso: String?) -> String {
        let zone = Unidade.fuso(fuso)
        let data = DateFormatter()
        data.locale = Locale(identifier: "pt_BR")
        data.timeZone = zone
        data.dateFormat = "dd/MM/yyyy, HH:mm"
        let hora = DateFormatter()
        hora.locale = Locale(identifier: "pt_BR")
        hora.timeZone = zone
        hora.dateFormat = "HH:mm"
        var calendario = Calendar(identifier: .gregorian)
        calendario.timeZone = zone
        guard calendario.isDate(intervalo.start, inSameDayAs: intervalo.end) else {
            return "\(data.string(from: intervalo.start)) – \(data.string(from: intervalo.end))"
        }
        return "\(data.string(from: intervalo.start))–\(hora.string(from: intervalo.end))"
    }

    static func metodo(_ metodo: MetodoDePagamento) -> String {
        switch metodo {
        case .pix: "PIX"
        case .cartao: "cartão"
        case .boleto: "boleto"
        case .manual: "pagamento na recepção"
        }
    }
}

extension NotificacoesService {
    /// A lot's amount as the member reads it: `10 h` or `R$ 50,00`.
    static func quantidade(_ lote: Carteira.Lote) -> String {
        switch lote.medida {
        case .minutos: Cotacao.formatar(duracao: Int(lote.quantidade))
        case .centavos: reais(Money(centavos: lote.quantidade))
        }
    }

    /// A renewed cycle: its days, what it costs and the credits it brings.
    static func renovacao(_ ciclo: Assinatura.Ciclo) -> String {
        let creditos = ciclo.lotes.map(quantidade)
        let credito = creditos.isEmpty ? "" : " Os créditos do ciclo (\(creditos.joined(separator: " e "))) já estão na sua carteira."
        return "Sua assinatura do plano \(ciclo.plano.nome) foi renovada: ciclo \(ciclo.numero), de \(ciclo.inicio.brasileira) a "
            + "\(ciclo.fim.adding(dias: -1).brasileira). O valor de \(reais(Money(centavos: ciclo.valorCentavos))) será cobrado no cartão cadastrado."
            + credito
    }

    /// A bundle paid: the credits it granted and until when they may be spent.
    static func pacotePago(_ lote: Carteira.Lote) -> String {
        let validade =
            lote.validoAte.map { " e podem ser usados até \(DataLocal($0, em: Unidade.fuso(nil)).brasileira)" } ?? ""
        return "Recebemos o pagamento. \(quantidade(lote)) de créditos estão na sua carteira\(validade). Obrigado!"
    }

    /// A bundle refunded: the money going back and the credits taken back.
    static func pacoteReembolsado(_ reembolso: CompraDePacote.Reembolsada) -> String {
        let creditos: String
        switch (reembolso.retirado, reembolso.medida) {
        case (0, _): creditos = ""
        case (let n, .minutos): creditos = " Os \(Cotacao.formatar(duracao: Int(n))) de créditos que restavam dele saíram da sua carteira."
        case (let n, .centavos): creditos = " Os \(reais(Money(centavos: n))) de créditos que restavam dele saíram da sua carteira."
        }
        let dinheiro =
            reembolso.valor > .zero ? "Devolvemos \(reais(reembolso.valor)) pelo mesmo meio de pagamento da compra." : "Não há valor a devolver."
        return "A compra do pacote \(reembolso.nome) foi reembolsada. \(dinheiro)\(creditos)"
    }
}
