import Domain
import Foundation
import Projections

extension FinanceiroService {
    // MARK: CSV exports

    /// Every invoice and credit note of the period (local dates, both included, at most 366
    /// days) as RFC 4180 CSV: header row, every field quoted, CRLF line ends; amounts in reais
    /// with a dot (`123.45`) and in centavos. Credit note amounts are positive: `tipo` says
    /// they go back.
    public func faturasCSV(unidade: String?, de: String, ate: String, dialeto: DialetoCSV = .rfc4180) async throws -> String {
        let grupo = try await filtro(unidade)
        let periodo = try Self.periodo(de: de, ate: ate, obrigatorio: true)
        let faixa = try await self.faixa(FinanceiroReadModel.documentos, grupo: grupo, periodo, DocumentoFiscalView.self)
        let documentos: [DocumentoFiscalView] = try await ler(FinanceiroReadModel.documentos, grupo: grupo, faixa)
        if dialeto == .excel { return try await faturasExcel(documentos) }
        var linhas = [
            [
                "tipo", "codigo", "numero", "data", "emitido_em", "unidade_id", "documento_id", "fatura_id", "fatura_numero", "reserva_id",
                "pagamento_id", "reembolso_id", "usuario_id", "espaco_id", "tipo_de_espaco", "metodo", "valor", "valor_centavos",
                "aliquota_iss_bp", "iss", "iss_centavos", "assinatura_id", "ciclo",
            ]
        ]
        for d in documentos {
            linhas.append([
                d.tipo.rawValue, d.codigo, String(d.numero), d.data.description, ReservasReadModel.ordem(d.em), d.unidadeId, d.id,
                d.faturaId, String(d.numeroDaFatura), d.reservaId ?? "", d.pagamentoId ?? "", d.reembolsoId ?? "", Self.texto(d.usuarioId),
                d.espacoId ?? "", d.tipoDeEspaco, d.metodo ?? "", Self.reais(d.valor), String(d.valor.centavos), String(d.aliquotaISSBP),
                Self.reais(d.iss), String(d.iss.centavos), d.assinaturaId ?? "", d.ciclo.map(String.init) ?? "",
            ])
        }
        return Self.csv(linhas)
    }

    /// ``faturasCSV(unidade:de:ate:dialeto:)`` in Excel's Portuguese dialect.
    private func faturasExcel(_ documentos: [DocumentoFiscalView]) async throws -> String {
        var nomes = Nomes(financeiro: self)
        var linhas = [
            [
                "Tipo", "Número", "Código", "Data", "Emitido em", "Unidade", "Espaço", "Tipo de espaço", "Membro", "Método", "Valor (R$)",
                "Alíquota de ISS (%)", "ISS (R$)", "Fatura nº", "Reserva (id)", "Membro (id)", "Documento (id)",
            ]
        ]
        for d in documentos {
            let unidade = try await nomes.unidade(d.unidadeId)
            var espaco = ""
            if let id = d.espacoId { espaco = try await nomes.espaco(id) }
            linhas.append([
                d.tipo == .fatura ? "Fatura" : "Nota de crédito", String(d.numero), d.codigo, Self.data(d.data),
                Self.local(d.em, fuso: unidade.fuso), unidade.nome, espaco, d.tipoDeEspaco,
                Self.texto(try await nomes.membro(d.usuarioId)), d.metodo ?? "", Self.reais(d.valor, decimal: ","),
                Self.reais(Money(centavos: d.aliquotaISSBP), decimal: ","), Self.reais(d.iss, decimal: ","), String(d.numeroDaFatura),
                d.reservaId ?? "", Self.texto(d.usuarioId), d.id,
            ])
        }
        return Self.csv(linhas, dialeto: .excel)
    }

    /// Names looked up once per export.
    struct Nomes {
        let financeiro: FinanceiroService
        var catalogo: LeituraDoCatalogo
        var membros: [String: String] = [:]

        init(financeiro: FinanceiroService) {
            self.financeiro = financeiro
            catalogo = LeituraDoCatalogo(store: financeiro.store)
        }

        mutating func unidade(_ id: String) async throws -> (nome: String, fuso: String) {
            let unidade = try await catalogo.unidade(id)
            return (unidade?.nome ?? id, unidade?.fusoHorario ?? Unidade.fusoPadrao)
        }

        mutating func espaco(_ id: String) async throws -> String { try await catalogo.espaco(id)?.nome ?? id }

        mutating func membro(_ id: String) async throws -> String {
            if let known = membros[id] { return known }
            let nome = try await financeiro.nomeDoMembro(id).flatMap { $0.isEmpty ? nil : $0 } ?? "(dados apagados)"
            membros[id] = nome
            return nome
        }
    }

    /// Every ledger line (one row per partida) of the period, in entry order, as RFC 4180 CSV
    /// like ``faturasCSV(unidade:de:ate:dialeto:)``, or in Excel's Portuguese dialect.
    public func razaoCSV(unidade: String?, de: String, ate: String, dialeto: DialetoCSV = .rfc4180) async throws -> String {
        let grupo = try await filtro(unidade)
        let periodo = try Self.periodo(de: de, ate: ate, obrigatorio: true)
        let faixa = try await self.faixa(FinanceiroReadModel.lancamentos, grupo: grupo, periodo, Razao.Lancamento.self)
        let lancamentos: [Razao.Lancamento] = try await ler(FinanceiroReadModel.lancamentos, grupo: grupo, faixa)
        if dialeto == .excel {
            var nomes = Nomes(financeiro: self)
            var linhas = [
                [
                    "Unidade", "Sequência", "Data", "Lançado em", "Origem", "Código", "Histórico", "Conta", "Débito (R$)", "Crédito (R$)",
                    "Lançamento (id)",
                ]
            ]
            for l in lancamentos {
                let unidade = try await nomes.unidade(l.unidadeId.description)
                for p in l.partidas {
                    linhas.append([
                        unidade.nome, String(l.sequencia), Self.data(l.data), Self.local(l.em, fuso: unidade.fuso), l.origem.tipo.rawValue,
                        l.origem.codigo, Self.texto(l.historico), p.conta.nome, Self.reais(p.debito, decimal: ","),
                        Self.reais(p.credito, decimal: ","), l.id.lowercasedString,
                    ])
                }
            }
            return Self.csv(linhas, dialeto: .excel)
        }
        var linhas = [
            [
                "unidade_id", "sequencia", "data", "lancado_em", "lancamento_id", "origem", "origem_codigo", "documento_id", "historico",
                "conta", "debito", "debito_centavos", "credito", "credito_centavos",
            ]
        ]
        for l in lancamentos {
            for p in l.partidas {
                linhas.append([
                    l.unidadeId.description, String(l.sequencia), l.data.description, ReservasReadModel.ordem(l.em),
                    l.id.lowercasedString, l.origem.tipo.rawValue, l.origem.codigo, l.origem.documentoId.lowercasedString,
                    Self.texto(l.historico), p.conta.rawValue, Self.reais(p.debito), String(p.debito.centavos), Self.reais(p.credito),
                    String(p.credito.centavos),
                ])
            }
        }
        return Self.csv(linhas)
    }

    // MARK: CSV

    /// RFC 4180: every field quoted (quotes doubled), CRLF after every record; in Excel's
    /// dialect `;` between fields and a UTF-8 byte order mark first (without it Excel reads
    /// the bytes as Windows-1252).
    static func csv(_ linhas: [[String]], dialeto: DialetoCSV = .rfc4180) -> String {
        let corpo =
            linhas.map { linha in
                linha.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: dialeto == .excel ? ";" : ",")
            }.joined(separator: "\r\n") + "\r\n"
        return dialeto == .excel ? "\u{FEFF}" + corpo : corpo
    }

    /// `25/11/2026`.
    static func data(_ data: DataLocal) -> String {
        func dois(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(dois(data.dia))/\(dois(data.mes))/\(data.ano)"
    }

    /// `25/11/2026 14:05` in `fuso`.
    static func local(_ instante: Date, fuso: String) -> String {
        let formato = DateFormatter()
        formato.locale = Locale(identifier: "pt_BR")
        formato.timeZone = Unidade.fuso(fuso)
        formato.dateFormat = "dd/MM/yyyy HH:mm"
        return formato.string(from: instante)
    }

    /// Free text that a spreadsheet must not run as a formula (`=`, `+`, `-`, `@` first).
    static func texto(_ valor: String) -> String {
        guard let first = valor.first, "=+-@\t\r".contains(first) else { return valor }
        return "'" + valor
    }

    /// Centavos as reais with a dot (`123.45`, `-0.05`), or with `decimal` (`123,45`).
    static func reais(_ valor: Money, decimal: String = ".") -> String {
        let magnitude = valor.centavos.magnitude
        let centavos = magnitude % 100
        return "\(valor.isNegative ? "-" : "")\(magnitude / 100)\(decimal)\(centavos < 10 ? "0" : "")\(centavos)"
    }
}
