public import Domain
public import Foundation

extension EspacosService {
    // MARK: Inputs

    public struct NovaUnidade: Decodable, Sendable {
        public let nome: String
        public let endereco: Unidade.Endereco
        /// IANA; America/Sao_Paulo when absent.
        public let fusoHorario: String?
        public let politicaDeCancelamento: Unidade.PoliticaDeCancelamento?
        /// ISS rate and check-in window; the defaults (5 %, 15 min before to 30 min after) when absent.
        public let operacao: Unidade.Operacao?
    }

    public struct AlteracaoDeUnidade: Decodable, Sendable {
        public let nome: String?
        public let endereco: Unidade.Endereco?
        public let fusoHorario: String?
        public let politicaDeCancelamento: Unidade.PoliticaDeCancelamento?
        public let operacao: Unidade.Operacao?
    }

    public struct NovoEspaco: Decodable, Sendable {
        public let unidadeId: String
        public let nome: String
        public let tipo: Espaco.Tipo
        public let capacidade: Int
        public let comodidades: [String]?
        public let fotos: [Espaco.Foto]?
        public let regras: Espaco.RegrasDeReserva?
        public let horario: Espaco.HorarioSemanal?
    }

    public struct AlteracaoDeEspaco: Decodable, Sendable {
        public let nome: String?
        public let capacidade: Int?
        public let comodidades: [String]?
        public let fotos: [Espaco.Foto]?
        public let regras: Espaco.RegrasDeReserva?
    }

    public struct NovoBloqueio: Decodable, Sendable {
        public let inicio: Date
        public let fim: Date
        public let motivo: Espaco.Bloqueio.Motivo
        public let descricao: String?
        /// A lease's holder (`motivo` `locacao`): a member or a company.
        public let locatario: Espaco.Bloqueio.Locatario?
    }

    /// A block's new, earlier end (a lease ended before its term).
    public struct EncurtamentoDeBloqueio: Decodable, Sendable {
        public let fim: Date
    }
}
