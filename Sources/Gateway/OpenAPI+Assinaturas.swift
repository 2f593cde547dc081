import Domain
import Foundation

/// Schemas of the assinaturas routes: credits.
extension OpenAPI {
    static var assinaturaSchemas: [String: Any] {
        let medida: [String: Any] = [
            "type": "string", "enum": Carteira.Medida.allCases.map(\.rawValue), "description": "minutos (horas de reserva) ou centavos",
        ]
        let tipos: [String: Any] = ["type": "array", "items": ["type": "string", "enum": Espaco.Tipo.allCases.map(\.rawValue)]]
        let maximo = max(Carteira.maximo(.minutos), Carteira.maximo(.centavos))
        return [
            "AjusteDeCreditos": object(
                [
                    "medida": medida,
                    "quantidade": [
                        "type": "integer", "minimum": -maximo, "maximum": maximo, "not": ["const": 0],
                        "description":
                            "positiva soma um lote; negativa retira dos lotes que vencem primeiro (no máximo 600000 minutos ou 100000000 centavos)",
                    ],
                    "motivo": textoLivre(500, obrigatorio: true),
                    "descricao": textoLivre(200),
                    "tipos": tipos.merging(["description": "tipos de espaço em que o lote vale (vazio: todos)"]) { $1 },
                    "unidadeId": uuid.merging(["description": "a unidade em que o lote vale (ausente: todas)"]) { $1 },
                    "validoAte": instant.merging(["description": "depois de agora (422); ausente: não vence"]) { $1 },
                ], required: ["medida", "quantidade", "motivo"]),
            "LoteDeCreditos": object(
                [
                    "loteId": uuid, "medida": medida, "quantidade": ["type": "integer"], "restante": ["type": "integer"], "tipos": tipos,
                    "unidadeId": uuid, "validoAte": instant, "origem": ["type": "string", "enum": Carteira.Origem.allCases.map(\.rawValue)],
                    "descricao": text, "concedidoEm": instant,
                ], required: ["loteId", "medida", "quantidade", "restante", "tipos", "origem", "descricao", "concedidoEm"]),
            "Carteira": object(
                [
                    "titular": text, "minutos": ["type": "integer"], "centavos": money, "lotes": array(ref("LoteDeCreditos")),
                    "atualizadaEm": instant,
                ], required: ["titular", "minutos", "centavos", "lotes"]),
            "MovimentoDeCreditos": object(
                [
                    "id": text, "titular": text,
                    "tipo": ["type": "string", "enum": ["concedidos", "consumidos", "restituidos", "retidos", "expirados", "ajustados"]],
                    "medida": medida, "quantidade": ["type": "integer", "description": "positiva entra, negativa sai"],
                    "retido": ["type": "integer"], "reservaId": uuid, "descricao": text, "motivo": text, "por": text, "em": instant,
                ], required: ["id", "titular", "tipo", "medida", "quantidade", "descricao", "em"]),
            "PaginaDeMovimentos": page("MovimentoDeCreditos"),
        ]
    }
}
