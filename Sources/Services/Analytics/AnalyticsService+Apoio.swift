import Domain
import Foundation
import Projections

extension AnalyticsService {
    // MARK: Input and arithmetic

    /// `de` and `ate` as day numbers: valid `AAAA-MM-DD` dates, `de` not after `ate`, at most
    /// ``diasMaximos`` days together.
    static func periodo(de: String, ate: String) throws -> (Int64, Int64) {
        func dia(_ texto: String, _ campo: String) throws -> Int64 {
            let texto = texto.trimmingCharacters(in: .whitespaces)
            guard !texto.isEmpty else {
                throw ServiceError.requisicaoInvalida("'\(campo)' é obrigatório: uma data AAAA-MM-DD", detalhes: ["campo": campo])
            }
            guard DataLocal(texto) != nil, let dia = CalendarioAnalitico.dias(texto) else {
                throw ServiceError.requisicaoInvalida("'\(campo)' deve ser uma data AAAA-MM-DD válida", detalhes: ["campo": campo])
            }
            return dia
        }
        let (inicio, fim) = (try dia(de, "de"), try dia(ate, "ate"))
        guard inicio <= fim else {
            throw ServiceError.requisicaoInvalida("'de' deve ser anterior ou igual a 'ate'", detalhes: ["campo": "de"])
        }
        guard fim - inicio < Int64(diasMaximos) else {
            throw ServiceError.requisicaoInvalida(
                "o período de 'de' a 'ate' pode ter no máximo \(diasMaximos) dias", detalhes: ["campo": "ate"])
        }
        return (inicio, fim)
    }

    /// `yyyy-mm` of every month the days touch.
    static func meses(de inicio: Int64, ate fim: Int64) -> [String] {
        var meses: [String] = []
        var dia = inicio
        while dia <= fim {
            let (ano, mes, diaDoMes) = CalendarioAnalitico.civil(dia)
            meses.append(CalendarioAnalitico.mes(ano: ano, mes: mes))
            dia += Int64(CalendarioAnalitico.diasNoMes(ano: ano, mes: mes) - diaDoMes + 1)
        }
        return meses
    }

    static let nomesDosDias = ["domingo", "segunda", "terca", "quarta", "quinta", "sexta", "sabado"]

    static func horasDaSemana(_ reservado: [Int64], _ locado: [Int64], _ aberto: [Int64]) -> [OcupacaoPorHoraDaSemana.Hora] {
        (0..<168).map { hora in
            let (r, l, a) = (reservado.indices.contains(hora) ? reservado[hora] : 0, locado[hora], aberto[hora])
            return OcupacaoPorHoraDaSemana.Hora(
                hora: hora, diaDaSemana: nomesDosDias[hora / 24], horaDoDia: hora % 24,
                horasReservadas: horas(r), horasLocadas: horas(l), horasAbertas: horas(a), ocupacao: razao(r + l, a))
        }
    }

    static func horas(_ segundos: Int64) -> Double { arredondar(Double(segundos) / 3_600) }

    static func razao(_ parte: Int64, _ todo: Int64) -> Double? {
        todo > 0 ? arredondar(Double(parte) / Double(todo)) : nil
    }

    /// Four decimals: enough for hours (0.36 s) and rates (0.01 %).
    static func arredondar(_ valor: Double) -> Double { (valor * 10_000).rounded() / 10_000 }
}
