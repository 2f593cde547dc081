import Domain
import EventStore
import Foundation
import Projections

extension PrecosService {
    /// The pool of a member's company they may spend from: its holder, their use (person, month,
    /// monthly cap) and whether the company's plan credits count (not while suspended).
    struct PoolDaEmpresa: Sendable {
        let titular: String
        let uso: Carteira.Uso
        let comPlano: Bool
    }

    var vinculos: AggregateStore<Vinculo.Command, Vinculo.State, Vinculo.Event, Vinculo.Failure> {
        AggregateStore(store: store, decider: Vinculo.decider) { try Vinculo.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    var empresas: AggregateStore<Empresa.Command, Empresa.State, Empresa.Event, Empresa.Failure> {
        AggregateStore(store: store, decider: Empresa.decider) { try Empresa.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    /// The company pool `membro` may spend from for a booking in `mes` (nil: in no company).
    func pool(_ membro: String, mes: String, prefetched: Prefetched?) async throws -> PoolDaEmpresa? {
        guard Empresa.id(doTitular: membro) == nil,
            let empresaId = try await vinculos.load(StreamNames.vinculo(membro), prefetched: prefetched).state,
            let empresa = try await empresas.load(StreamNames.empresa(empresaId)).state.dados, empresa.integrantes[membro] != nil
        else { return nil }
        let titular = Empresa.titular(empresaId)
        return PoolDaEmpresa(
            titular: titular, uso: Carteira.Uso(pessoa: membro, mes: mes, limite: empresa.limites[membro]),
            comPlano: try await planoAtivo(titular, prefetched: nil))
    }

    /// What the pool may give a booking of `espaco` at `em`: its usable credits, within the
    /// member's monthly cap.
    func disponivel(no pool: PoolDaEmpresa, espaco: Espaco.Dados, em now: Date) async throws -> Cotacao.Creditos.Parte {
        let (carteira, _) = try await carteiras.load(StreamNames.creditos(pool.titular))
        func quanto(_ medida: Carteira.Medida) -> Int64 {
            let saldo = carteira.disponivel(medida, tipo: espaco.tipo, unidade: espaco.unidade.rawValue, em: now, comPlano: pool.comPlano)
            return min(saldo, carteira.restanteNoLimite(medida, pessoa: pool.uso.pessoa, mes: pool.uso.mes, limite: pool.uso.limite) ?? saldo)
        }
        return Cotacao.Creditos.Parte(minutos: quanto(.minutos), centavos: quanto(.centavos))
    }

    /// The member `para` a booking is made for by `por`: an operator books for any member; a
    /// manager for the people of their company (403 otherwise; 422 for no such member).
    public func reservaPara(_ para: String, por: String, admin: Bool) async throws -> String {
        guard let id = Usuario.ID(para), try await store.streamVersion(UsuariosService.stream(id)) > 0 else {
            throw ServiceError.invalido("paraUsuarioId", "não há membro com o id \(para.prefix(60))")
        }
        let membro = id.description
        if admin { return membro }
        guard let empresaId = try await vinculos.load(StreamNames.vinculo(membro)).state,
            let empresa = try await empresas.load(StreamNames.empresa(empresaId)).state.dados, empresa.gere(por)
        else { throw ServiceError.proibido("só os gestores da empresa da pessoa (ou os operadores) reservam por ela") }
        return membro
    }
}
