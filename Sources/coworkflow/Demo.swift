import App
import Crypto
import Domain
import Foundation
import Gateway
import Services

/// `--seed-demo`: a member, a member with credits, a subscriber, a company's manager and
/// collaborator, and an admin to try the API with (passwords printed once), a unit with four
/// spaces and their prices, two plans (the subscriber on one) and the company. Running it again
/// adds nothing.
enum Demo {
    static func seed(_ backend: Backend) async throws {
        let caller = Caller(requestId: "seed-demo", usuario: "system:seed-demo")
        let contas = [
            ("Membro Demo", "membro@demo.coworkflow", false), ("Admin Demo", "admin@demo.coworkflow", true),
            ("Membro com Créditos", "creditos@demo.coworkflow", false), ("Assinante Demo", "assinante@demo.coworkflow", false),
            ("Gestora Demo", "gestora@demo.coworkflow", false), ("Colaborador Demo", "colaborador@demo.coworkflow", false),
        ]
        for (nome, email, admin) in contas {
            if try await backend.usuarios.usuarioId(email: email) != nil {
                print("demo: \(email) já existe")
                continue
            }
            let senha = SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }.base64EncodedString()
                .replacingOccurrences(of: "/", with: "x").replacingOccurrences(of: "+", with: "y").prefix(16)
            let perfil = try await backend.usuarios.registrar(nome: nome, email: email, senha: String(senha), context: caller)
            if admin { try await backend.usuarios.promover(usuario: perfil.id, context: caller) }
            if email.hasPrefix("creditos@") {
                // Four hours of meeting room for three months and R$ 50,00 for any space.
                for ajuste in [
                    #"{"medida":"minutos","quantidade":240,"motivo":"demonstração","descricao":"Demo: 4 h de sala de reunião","tipos":["sala_reuniao"],"validoAte":"\#(Date().addingTimeInterval(90 * 86_400).formatted(.iso8601))"}"#,
                    #"{"medida":"centavos","quantidade":5000,"motivo":"demonstração","descricao":"Demo: R$ 50,00 em créditos"}"#,
                ] {
                    _ = try await backend.negocio.assinaturas.ajustarCreditos(perfil.id, try decode(ajuste), caller: caller)
                }
            }
            print("demo: \(email) / \(senha)\(admin ? " (admin)" : "")")
        }
        // The unit first: the network's first unit invoices its plans and bundles.
        try await unidade(backend, caller: caller)
        try await planos(backend, caller: caller)
        try await empresa(backend)
        try await pacotes(backend, caller: caller)
    }

    /// The demo unit and its spaces with their prices (none when a unit exists).
    static func unidade(_ backend: Backend, caller: Caller) async throws {
        guard try await backend.espacos.unidadesCadastradas(pagina: 1).total == 0 else {
            print("demo: a unidade demo já existe")
            return
        }
        let unidade = try await backend.espacos.cadastrarUnidade(
            try decode(
                """
                {"nome":"CoworkFlow Paulista","fusoHorario":"America/Sao_Paulo",
                 "endereco":{"logradouro":"Avenida Paulista","numero":"1000","bairro":"Bela Vista","cidade":"São Paulo","uf":"SP","cep":"01310-100"},
                 "politicaDeCancelamento":{"horasSemMulta":24,"multaBP":5000}}
                """), caller: caller)
        let espacos: [(String, Int64, Int64, Int64)] = [
            (
                #"{"nome":"Sala Ipê","tipo":"sala_reuniao","capacidade":8,"comodidades":["projetor","videoconferência","quadro branco"]}"#, 80_00,
                280_00, 500_00
            ),
            (#"{"nome":"Sala Jacarandá","tipo":"sala_privativa","capacidade":4,"comodidades":["ar-condicionado"]}"#, 50_00, 180_00, 320_00),
            (#"{"nome":"Estações do Salão","tipo":"estacao_compartilhada","capacidade":20,"comodidades":["café","wi-fi"]}"#, 15_00, 50_00, 90_00),
            (
                #"{"nome":"Auditório Paulista","tipo":"auditorio","capacidade":80,"comodidades":["palco","som","projetor"]}"#, 300_00, 1_000_00,
                1_800_00
            ),
        ]
        for (json, hora, meio, dia) in espacos {
            var object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
            object["unidadeId"] = unidade.id
            let espaco = try await backend.espacos.cadastrarEspaco(
                try JSON.decoder.decode(EspacosService.NovoEspaco.self, from: JSONSerialization.data(withJSONObject: object)), caller: caller)
            _ = try await backend.precos.definirTabela(
                espaco.id,
                TabelaDePreco.Valores(
                    porHora: Money(centavos: hora), meioPeriodo: Money(centavos: meio), diaria: Money(centavos: dia), duracaoMinimaMinutos: 60),
                caller: caller)
            print("demo: espaço \(espaco.nome) (\(espaco.tipo.rawValue)) \(espaco.id)")
        }
    }

    /// Two monthly plans, and the subscriber on the first (its prorated cycle and credits).
    static func planos(_ backend: Backend, caller: Caller) async throws {
        let assinaturas = backend.negocio.assinaturas
        guard try await assinaturas.planos(pagina: 1, todos: true).total == 0 else {
            print("demo: os planos demo já existem")
            return
        }
        let flex = try await assinaturas.criarPlano(
            try decode(
                #"{"nome":"Flex","descricao":"10 h de sala de reunião por mês e 10 % de desconto nos dias úteis","periodicidade":"mensal","#
                    + #""valorCentavos":39000,"horasMinutos":600,"tiposDasHoras":["sala_reuniao"],"rolloverBP":5000,"#
                    + #""diasDeAcesso":["segunda","terca","quarta","quinta","sexta"],"descontoBP":1000}"#), caller: caller)
        let dedicado = try await assinaturas.criarPlano(
            try decode(
                #"{"nome":"Dedicado","descricao":"Para quem vem todo dia: 20 h de sala, R$ 100,00 em créditos e 20 % de desconto","#
                    + #""periodicidade":"mensal","valorCentavos":119000,"adesaoCentavos":20000,"horasMinutos":1200,"#
                    + #""tiposDasHoras":["sala_reuniao","sala_privativa"],"creditoCentavos":10000,"descontoBP":2000}"#), caller: caller)
        print("demo: plano \(flex.nome) \(flex.planoId)")
        print("demo: plano \(dedicado.nome) \(dedicado.planoId)")
        if let assinante = try await backend.usuarios.usuarioId(email: "assinante@demo.coworkflow") {
            _ = try await assinaturas.assinar(
                assinante, try decode(#"{"planoId":"\#(flex.planoId)","metodo":"boleto"}"#), caller: caller)
        }
    }

    /// Two bundles sold without a plan: ten hours of meeting room, and a day pass for a hot desk.
    static func pacotes(_ backend: Backend, caller: Caller) async throws {
        let assinaturas = backend.negocio.assinaturas
        guard try await assinaturas.pacotes(pagina: 1, todos: true).total == 0 else {
            print("demo: os pacotes demo já existem")
            return
        }
        let horas = try await assinaturas.criarPacote(
            try decode(
                #"{"nome":"10 horas de sala de reunião","descricao":"Para usar em até 60 dias, em qualquer unidade","medida":"minutos","#
                    + #""quantidade":600,"tipos":["sala_reuniao"],"validadeDias":60,"precoCentavos":45000}"#), caller: caller)
        let passe = try await assinaturas.criarPacote(
            try decode(
                #"{"nome":"Passe diário","descricao":"Um dia de estação compartilhada, válido por 24 horas após o pagamento","#
                    + #""medida":"minutos","quantidade":720,"tipos":["estacao_compartilhada"],"validadeDias":1,"precoCentavos":6000}"#),
            caller: caller)
        print("demo: pacote \(horas.nome) \(horas.pacoteId)")
        print("demo: pacote \(passe.nome) \(passe.pacoteId)")
    }

    /// A company with two people: the manager (registered with it) and a collaborator who
    /// accepted its invitation.
    static func empresa(_ backend: Backend) async throws {
        let assinaturas = backend.negocio.assinaturas
        let operador = Caller(requestId: "seed-demo", usuario: "system:seed-demo", papel: "admin")
        guard try await assinaturas.empresas(pagina: 1).total == 0,
            let gestora = try await backend.usuarios.usuarioId(email: "gestora@demo.coworkflow"),
            let colaborador = try await backend.usuarios.usuarioId(email: "colaborador@demo.coworkflow")
        else {
            print("demo: a empresa demo já existe")
            return
        }
        let empresa = try await assinaturas.cadastrarEmpresa(
            try decode(
                #"{"razaoSocial":"Acme Tecnologia Ltda","nomeFantasia":"Acme","cnpj":"11.222.333/0001-81","#
                    + #""emailDeCobranca":"financeiro@acme.example","endereco":{"logradouro":"Avenida Paulista","numero":"1000","#
                    + #""complemento":"8º andar","bairro":"Bela Vista","cidade":"São Paulo","uf":"SP","cep":"01310-100"},"gestorId":"\#(gestora)"}"#),
            caller: operador)
        let convite = try await assinaturas.convidar(
            empresa.empresaId, try decode(#"{"email":"colaborador@demo.coworkflow"}"#), caller: operador)
        _ = try await assinaturas.aceitarConvite(
            String(convite.link.dropFirst("/convite/".count)), caller: Caller(requestId: "seed-demo", usuario: colaborador))
        print("demo: empresa \(empresa.nome) \(empresa.empresaId) (gestora@ e colaborador@)")
    }

    private static func decode<T: Decodable>(_ json: String) throws -> T {
        try JSON.decoder.decode(T.self, from: Data(json.utf8))
    }
}

enum JSON {
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
