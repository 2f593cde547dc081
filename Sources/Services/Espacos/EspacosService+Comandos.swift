public import Domain
import EventStore
import Foundation
public import Projections

extension EspacosService {
    // MARK: Unit commands

    public func cadastrarUnidade(_ input: NovaUnidade, caller: Caller) async throws -> UnidadeView {
        // With an Idempotency-Key the id comes from it: a retry after an answer that left the
        // outcome unknown (a 5xx releases the key) finds the unit the first attempt made.
        let id = Unidade.ID(caller.idempotencyKey.map { Events.derivedId("unidade", $0) } ?? EventIDs.random())
        func cadastro(em: Date) -> Unidade.Command {
            .cadastrar(
                id: id, nome: input.nome, endereco: input.endereco, fusoHorario: input.fusoHorario ?? Unidade.fusoPadrao,
                politica: input.politicaDeCancelamento ?? .padrao, operacao: input.operacao ?? .padrao, em: em)
        }
        if caller.idempotencyKey != nil {
            let stream = StreamNames.unidade(id)
            let anterior = try await unidades.load(stream).state
            if case .existente = anterior {
                // The same request again, or the key reused for another unit (its answer no
                // longer kept by the gateway): only the first gets the unit back.
                let primeiro = try await primeiroEvento(stream) { try Unidade.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
                guard let feito = primeiro, case .cadastrada(let dados) = feito,
                    feito == (try? Unidade.decider.decide(cadastro(em: dados.em), .inexistente))?.first
                else { throw Self.chaveReutilizada }
                return try Self.view(anterior)
            }
        }
        let state = try await unidades.handle(
            StreamNames.unidade(id), at: clock.now, metadata: metadata(caller), receipt: caller.receipt, failure: ServiceError.init
        ) { _ in
            cadastro(em: clock.now)
        }
        return try Self.view(state)
    }

    public static let chaveReutilizada = ServiceError(
        .invalido, codigo: "chave_de_idempotencia_reutilizada", mensagem: "esta Idempotency-Key já foi usada com outra requisição")

    /// The first event of `stream`, decoded (nil when the stream is empty).
    private func primeiroEvento<E>(_ stream: StreamName, _ decode: (RecordedEvent) throws -> E?) async throws -> E? {
        guard let evento = try await store.readStream(stream, from: 1, limit: 1).first else { return nil }
        return try decode(evento)
    }

    public func atualizarUnidade(_ id: String, _ input: AlteracaoDeUnidade, caller: Caller) async throws -> UnidadeView {
        let id = try Self.unidadeId(id)
        let stream = StreamNames.unidade(id)
        _ = try await unidades.existing(stream, naoEncontrado: "unidade \(id) não existe")
        let state = try await unidades.handle(stream, at: clock.now, metadata: metadata(caller), receipt: caller.receipt, failure: ServiceError.init)
        { _ in
            .atualizar(
                nome: input.nome, endereco: input.endereco, fusoHorario: input.fusoHorario, politica: input.politicaDeCancelamento,
                operacao: input.operacao, em: clock.now)
        }
        return try Self.view(state)
    }

    // MARK: Space commands

    public func cadastrarEspaco(_ input: NovoEspaco, caller: Caller) async throws -> EspacoView {
        let unidade = try Self.unidadeId(input.unidadeId, campo: "unidadeId")
        guard case .existente = try await unidades.load(StreamNames.unidade(unidade)).state else {
            throw ServiceError.invalido("unidadeId", "a unidade \(unidade) não existe")
        }
        // With an Idempotency-Key the id comes from it (see ``cadastrarUnidade(_:caller:)``).
        let id = Espaco.ID(caller.idempotencyKey.map { Events.derivedId("espaco", $0) } ?? EventIDs.random())
        let stream = StreamNames.espaco(id)
        let now = clock.now
        func cadastro(em: Date) -> Espaco.Command {
            .cadastrar(
                id: id, unidade: unidade, nome: input.nome, tipo: input.tipo, capacidade: input.capacidade,
                comodidades: input.comodidades ?? [], fotos: input.fotos ?? [], regras: input.regras ?? .padrao, em: em)
        }
        // (Read first only with a key: without one the id is new.)
        var (state, version): (Espaco.State, Int64) = caller.idempotencyKey == nil ? (.inexistente, 0) : try await espacos.load(stream)
        if state == .inexistente {
            state = try await espacos.handle(stream, at: now, metadata: metadata(caller), receipt: caller.receipt, failure: ServiceError.init) { _ in
                cadastro(em: now)
            }
        } else {
            // The same request again (see ``cadastrarUnidade(_:caller:)``), or the key reused.
            let primeiro = try await primeiroEvento(stream) { try Espaco.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
            guard let feito = primeiro, case .cadastrado(let dados) = feito,
                feito == (try? Espaco.decider.decide(cadastro(em: dados.em), .inexistente))?.first
            else { throw Self.chaveReutilizada }
            // Its hours were set already, or the space has changed since: nothing to redo.
            guard version == 1 else { return try Self.view(state) }
        }
        if let horario = input.horario {
            state = try await espacos.handle(stream, at: now, metadata: metadata(caller), receipt: caller.receipt, failure: ServiceError.init) { _ in
                .definirHorario(horario, em: now)
            }
        }
        return try Self.view(state)
    }

    /// Changes a space's details. A change of a shared space's capacity is written, in the same
    /// append, to the agenda of every local day a booking could still take (from today to the
    /// longest booking that may start within the lead time), with the versions read and the
    /// space's version with the change: so a booking decided on the old capacity and the change
    /// cannot both commit (``Agenda``). A decrease cannot go below the seats a day's bookings
    /// (held or confirmed) take at once from now on: 409 `capacidade_abaixo_das_reservas` naming
    /// the days; the operator cancels or moves bookings first. Days beyond that reach (booked
    /// under a longer lead time) are checked on the occupancy read model. A raise is never refused.
    public func atualizarEspaco(_ id: String, _ input: AlteracaoDeEspaco, caller: Caller) async throws -> EspacoView {
        let command: (Date) -> Espaco.Command = { now in
            .atualizar(
                nome: input.nome, capacidade: input.capacidade, comodidades: input.comodidades, fotos: input.fotos, regras: input.regras, em: now)
        }
        guard let capacidade = input.capacidade, capacidade >= 1,
            case .existente(let dados) = try await espacos.load(StreamNames.espaco(try Self.espacoId(id))).state,
            dados.tipo.compartilhado, capacidade != dados.capacidade
        else { return try await espaco(id, caller, command) }
        let recusa = { (dias: [DataLocal], pico: Int?) in
            ServiceError(
                .conflito, codigo: "capacidade_abaixo_das_reservas",
                mensagem: "há reservas que ocupam \(pico.map(String.init) ?? "mais") lugares ao mesmo tempo em \(dias.count) dia(s) "
                    + "(o primeiro: \(dias[0])), mais que \(capacidade); cancele ou mude essas reservas antes de reduzir a capacidade",
                detalhes: ["dias": dias.prefix(20).map(\.description).joined(separator: ",")])
        }
        // Days beyond what a booking could take now can hold bookings made under a longer lead
        // time: those come from the occupancy read model (nothing can race them any more).
        if capacidade < dados.capacidade {
            let dias = try await diasAcima(de: capacidade, espaco: dados)
            if !dias.isEmpty { throw recusa(dias, nil) }
        }
        return try await comAgendas(
            id, caller,
            intervalo: { dados, now in
                guard dados.tipo.compartilhado, capacidade != dados.capacidade else { return nil }
                // Far enough for the old rules and the new: a booking may start up to the lead time
                // ahead and last up to the longest duration.
                let regras = [dados.regras] + (input.regras.map { [$0] } ?? [])
                let dias = regras.map(\.antecedenciaMaximaDias).max() ?? 0
                let minutos = regras.map(\.duracaoMaximaMinutos).max() ?? 0
                return try? TimeRange(start: now, end: now.addingTimeInterval(Double(max(dias, 0)) * 86_400 + Double(max(minutos, 0)) * 60 + 1))
            },
            recusa: { recusados in
                recusa(
                    recusados.map(\.dia).sorted(),
                    recusados.compactMap { if case .capacidadeExcedida(let pico) = $0.falha { pico } else { nil } }.max())
            }, espaco: command,
            agenda: { now, dados, revisao, _ in
                .definirCapacidade(capacidade: capacidade, anterior: dados.capacidade, revisao: revisao, desde: now, em: now)
            })
    }

    /// The local days, from today on, when the space's active bookings take more than
    /// `lugares` seats at some instant.
    private func diasAcima(de lugares: Int, espaco: Espaco.Dados) async throws -> [DataLocal] {
        guard case .existente(let unidade) = try await unidades.load(StreamNames.unidade(espaco.unidade)).state else { return [] }
        let agora = clock.now
        let hoje = DataLocal(agora, em: unidade.fuso)
        var dias: [DataLocal] = []
        try await paraCadaOcupacao(de: espaco.id) { ocupacao in
            guard !(ocupacao.data < hoje) else { return }
            // Today counts from now on: bookings that already ended hold no seat.
            guard var dia = ocupacao.data.intervalo(em: unidade.fuso) else { return }
            if ocupacao.data == hoje {
                guard let resto = try? TimeRange(start: max(dia.start, agora), end: dia.end) else { return }
                dia = resto
            }
            if Agenda.picoDeOcupacao(em: dia, ocupacoes: ocupacao.reservas.values) > lugares {
                dias.append(ocupacao.data)
            }
        }
        return dias.sorted()
    }

    /// New opening hours: 409 `horario_sobre_reservas` while a booking still to come (held or
    /// confirmed, not over) would fall outside them; its members would arrive at a closed
    /// space. (A booking made in the same instant can still pass, as with blocks.)
    public func definirHorario(_ id: String, _ horario: Espaco.HorarioSemanal, caller: Caller) async throws -> EspacoView {
        try await espaco(
            id, caller,
            verificar: { dados, fuso, reservas in
                var novo = dados
                novo.horario = horario
                novo.ativo = true
                let fora = reservas.filter { !novo.permite($0.intervalo, fuso: fuso) }.map(\.id)
                guard fora.isEmpty else {
                    throw Self.sobreReservas(
                        fora, codigo: "horario_sobre_reservas", acao: ("ficaria fora do novo horário", "ficariam fora do novo horário"),
                        saida: "ajuste o horário")
                }
            }
        ) { now in .definirHorario(horario, em: now) }
    }

    /// 409 naming (up to 20 of) the bookings that stand in the way of a change of the space.
    /// - Parameter acao: what the bookings do, for one and for several.
    static func sobreReservas(_ ids: [String], codigo: String, acao: (uma: String, varias: String), saida: String) -> ServiceError {
        let unicos = Array(Set(ids)).sorted()
        return ServiceError(
            .conflito, codigo: codigo,
            mensagem: unicos.count == 1
                ? "1 reserva ativa \(acao.uma); cancele-a ou \(saida)"
                : "\(unicos.count) reservas ativas \(acao.varias); cancele-as ou \(saida)",
            detalhes: ["reservas": unicos.prefix(20).joined(separator: ",")])
    }

    /// The space's bookings that hold time (held or confirmed) and end after `agora`, from the
    /// occupancy read model, each once.
    private func reservasPorVir(_ espaco: Espaco.ID, agora: Date) async throws -> [(id: String, intervalo: TimeRange)] {
        var vistas: [String: TimeRange] = [:]
        try await paraCadaOcupacao(de: espaco) { ocupacao in
            for (id, intervalo) in ocupacao.reservas where intervalo.end > agora {
                // A booking over several days is in each day's document: its whole span.
                vistas[id] =
                    vistas[id].flatMap { try? TimeRange(start: min($0.start, intervalo.start), end: max($0.end, intervalo.end)) } ?? intervalo
            }
        }
        return vistas.map { ($0.key, $0.value) }
    }

    /// Every document of the space's occupancy read model (one per local day booked), in pages.
    private func paraCadaOcupacao(de espaco: Espaco.ID, _ body: (OcupacaoView) throws -> Void) async throws {
        try await emDia(store, ReservasReadModel.agendas.checkpoint)
        var offset = 0
        let lote = 500
        while true {
            let docs = try await store.documents(ReservasReadModel.ocupacao, grupo: espaco.description, limit: lote, offset: offset)
            for doc in docs { try body(try ReadModelJSON.decoder.decode(OcupacaoView.self, from: doc)) }
            guard docs.count == lote else { return }
            offset += lote
        }
    }

    /// Deactivates the space: 409 `espaco_com_reservas` while bookings still to come hold it
    /// (cancel them first, refunded, as for a block); members would arrive at a closed space.
    public func desativar(_ id: String, motivo: String?, caller: Caller) async throws -> EspacoView {
        try ServiceError.texto(motivo, campo: "motivo", maximo: 500)
        return try await espaco(
            id, caller,
            verificar: { dados, _, reservas in
                guard dados.ativo, !reservas.isEmpty else { return }
                throw Self.sobreReservas(
                    reservas.map(\.id), codigo: "espaco_com_reservas", acao: ("termina depois de agora", "terminam depois de agora"),
                    saida: "espere que terminem para desativar o espaço")
            }
        ) { now in .desativar(motivo: motivo, em: now) }
    }

    public func reativar(_ id: String, caller: Caller) async throws -> EspacoView {
        try await espaco(id, caller) { now in .reativar(em: now) }
    }

    private func espaco(
        _ id: String, _ caller: Caller,
        verificar: ((Espaco.Dados, TimeZone, [(id: String, intervalo: TimeRange)]) throws -> Void)? = nil,
        _ command: @escaping (Date) -> Espaco.Command
    ) async throws -> EspacoView {
        let id = try Self.espacoId(id)
        let stream = StreamNames.espaco(id)
        let estado = try await espacos.existing(stream, naoEncontrado: "espaço \(id) não existe")
        let now = clock.now
        if let verificar, case .existente(let dados) = estado,
            case .existente(let unidade) = try await unidades.load(StreamNames.unidade(dados.unidade)).state
        {
            let reservas = try await reservasPorVir(id, agora: now)
            try verificar(dados, unidade.fuso, reservas)
        }
        return try Self.view(
            try await espacos.handle(stream, at: now, metadata: metadata(caller), receipt: caller.receipt, failure: ServiceError.init) { _ in
                command(now)
            })
    }
}
