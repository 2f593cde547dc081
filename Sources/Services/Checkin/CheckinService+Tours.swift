public import Domain
import EventStore
public import Foundation
public import Projections
import Telemetry

/// Tours (ADR 0020): a prospect books a guided visit of a unit on the public site, or the team
/// books one for a phone lead; the team records how it went; either side cancels. The places of
/// a time are counted in the unit's day (``AgendaDeTours``), appended with the tour's own
/// stream; the prospect's contact is sealed under the tour's key and erased by the
/// `checkin:tours` timer (``Tour/retencao`` after the start, an hour after a cancellation).
extension CheckinService {
    public struct PedidoDeTour: Decodable, Sendable {
        public let unidadeId: String?
        public let inicio: Date?
        public let nome: String?
        public let email: String?
        public let telefone: String?
        public let empresa: String?
        public let interesse: String?
        public let pessoas: Int?
        public let mensagem: String?
    }

    public struct ConclusaoDeTour: Decodable, Sendable {
        public let nota: String?

        public init(nota: String?) { self.nota = nota }
    }

    public struct CancelamentoDeTour: Decodable, Sendable {
        public let motivo: String?

        public init(motivo: String?) { self.motivo = motivo }
    }

    public struct PedidoDeConfiguracaoDeTours: Decodable, Sendable {
        public let ativo: Bool?
        public let duracaoMinutos: Int?
        public let simultaneos: Int?
        public let horario: Espaco.HorarioSemanal?
        /// Optional: the team's mailbox, told of the public site's bookings and cancellations.
        public let emailDaEquipe: String?

        public init(ativo: Bool?, duracaoMinutos: Int?, simultaneos: Int?, horario: Espaco.HorarioSemanal?, emailDaEquipe: String? = nil) {
            self.ativo = ativo
            self.duracaoMinutos = duracaoMinutos
            self.simultaneos = simultaneos
            self.horario = horario
            self.emailDaEquipe = emailDaEquipe
        }
    }

    /// The times a prospect may book on a unit's local day.
    public struct HorariosDeTour: Codable, Sendable {
        public struct Horario: Codable, Sendable, Equatable {
            public let inicio: Date
            public let fim: Date
            /// Places left (tours at the same time the unit still takes).
            public let vagas: Int
            public let livre: Bool
        }

        public let unidadeId: String
        public let data: String
        public let fuso: String
        public let ativo: Bool
        public let duracaoMinutos: Int
        public let horarios: [Horario]
    }

    /// A tour as its prospect sees it (the link in their confirmation: the id is the secret).
    public struct TourPublico: Codable, Sendable, Equatable {
        public let id: String
        public let unidadeId: String
        public let unidade: String
        public let endereco: String?
        public let fuso: String
        public let inicio: Date
        public let fim: Date
        public let situacao: Tour.Situacao
        /// nil once erased.
        public let nome: String?
        public let canceladoPorEquipe: Bool
    }

    public struct ConfiguracaoDeToursView: Codable, Sendable, Equatable {
        public let unidadeId: String
        public let ativo: Bool
        public let duracaoMinutos: Int
        public let simultaneos: Int
        public let horario: Espaco.HorarioSemanal
        public let emailDaEquipe: String?
    }

    /// A unit's day of tours, for the team (a list: `{itens, total, pagina}`).
    public struct ToursDoDia: Codable, Sendable {
        public let unidadeId: String
        public let data: String
        public let itens: [TourView]
        public let total: Int
        public let pagina: Int
    }

    var tours: AggregateStore<Tour.Command, Tour.State, Tour.Event, Tour.Failure> {
        AggregateStore(store: store, decider: Tour.decider) { try Tour.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    var agendasDeTours: AggregateStore<AgendaDeTours.Command, AgendaDeTours.State, AgendaDeTours.Event, AgendaDeTours.Failure> {
        AggregateStore(store: store, decider: AgendaDeTours.decider) {
            try AgendaDeTours.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    var configuracoesDeTours:
        AggregateStore<ConfiguracaoDeTours.Command, ConfiguracaoDeTours.State, ConfiguracaoDeTours.Event, ConfiguracaoDeTours.Failure>
    {
        AggregateStore(store: store, decider: ConfiguracaoDeTours.decider) {
            try ConfiguracaoDeTours.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    // MARK: The prospect (public)

    /// The times of a unit's local day a prospect may still book (from ``Tour/antecedenciaMinima``
    /// ahead, up to ``Tour/antecedenciaMaxima``), with the places each has left; for the team
    /// (`equipe`, which books without the site's notice: a prospect at the desk), every time not
    /// begun. 404 for an unknown unit; 400 for a date that is not `AAAA-MM-DD`.
    public func horariosDeTour(unidade texto: String, data: String, equipe: Bool = false) async throws -> HorariosDeTour {
        guard let dia = DataLocal(data) else {
            throw ServiceError.requisicaoInvalida("'data' deve ser uma data AAAA-MM-DD", detalhes: ["campo": "data"])
        }
        guard let unidadeId = UUID(text: texto),
            case .existente(let unidade) = try await unidades.load(StreamNames.unidade(Unidade.ID(unidadeId))).state
        else { throw ServiceError.naoEncontrado("a unidade não existe") }
        let configuracao = try await configuracaoDeTours(unidadeId)
        let agenda = try await agendasDeTours.load(StreamNames.agendaDeTours(unidade: unidadeId, dia: dia)).state
        let now = clock.now
        let horarios = configuracao.horarios(em: dia, fuso: unidade.fuso)
            .filter {
                $0.start >= now.addingTimeInterval(Tour.antecedencia(equipe: equipe))
                    && $0.start <= now.addingTimeInterval(Tour.antecedenciaMaxima)
            }
            .map { slot in
                let vagas = AgendaDeTours.vagas(em: slot, simultaneos: configuracao.simultaneos, agenda)
                return HorariosDeTour.Horario(inicio: slot.start, fim: slot.end, vagas: vagas, livre: vagas > 0)
            }
        return HorariosDeTour(
            unidadeId: unidadeId.lowercasedString, data: dia.description, fuso: unidade.fusoHorario, ativo: configuracao.ativo,
            duracaoMinutos: configuracao.duracaoMinutos, horarios: horarios)
    }

    /// A prospect books a tour on the public site (the team: ``agendarTourPelaEquipe(_:caller:)``).
    /// 422 naming the field; 409 `horario_de_tour_lotado` when the time filled meanwhile.
    public func agendarTour(_ pedido: PedidoDeTour, caller: Caller) async throws -> TourPublico {
        let dados = try await agendar(pedido, por: nil, caller: caller)
        return try await publico(dados)
    }

    /// The team books a tour for a phone lead: the same rules, without the public site's notice.
    public func agendarTourPelaEquipe(_ pedido: PedidoDeTour, caller: Caller) async throws -> TourView {
        guard caller.papel == "admin", let quem = caller.usuario else { throw ServiceError.proibido("só a equipe (um admin) agenda tours por aqui") }
        return try await aberto(TourView(try await agendar(pedido, por: quem, caller: caller)))
    }

    /// The prospect's view of their tour (the link in the confirmation). 404 for an unknown id.
    public func tourPublico(_ texto: String) async throws -> TourPublico {
        try await publico(try await tourExistente(texto))
    }

    /// The prospect cancels (before the start; twice is fine): the time goes back to the unit.
    public func cancelarTourPublico(_ texto: String, caller: Caller) async throws -> TourPublico {
        let dados = try await tourExistente(texto)
        return try await publico(try await cancelar(dados.id, por: Tour.visitante, motivo: nil, caller: caller))
    }

    // MARK: The team

    /// The tours of a unit's local day (`data` `AAAA-MM-DD`), earliest first, contacts opened.
    public func toursDoDia(unidade: String, data: String) async throws -> ToursDoDia {
        guard let dia = DataLocal(data) else {
            throw ServiceError.requisicaoInvalida("'data' deve ser uma data AAAA-MM-DD", detalhes: ["campo": "data"])
        }
        let unidadeId = try await unidadeExistente(unidade)
        let grupo = ToursReadModel.grupo(unidade: unidadeId.lowercasedString, dia: dia.description)
        let itens = try await store.documents(ToursReadModel.tours, grupo: grupo, limit: 1_000, offset: 0)
            .map { try ReadModelJSON.decoder.decode(TourView.self, from: $0) }
        var abertos: [TourView] = []
        for item in itens { abertos.append(try await aberto(item)) }
        return ToursDoDia(unidadeId: unidadeId.lowercasedString, data: dia.description, itens: abertos, total: abertos.count, pagina: 1)
    }

    /// The team received the prospect (from ``Tour/realizacaoAntecipada`` before the start), with a note.
    public func realizarTour(_ texto: String, _ conclusao: ConclusaoDeTour, caller: Caller) async throws -> TourView {
        try ServiceError.texto(conclusao.nota, campo: "nota", maximo: Tour.tamanhoMaximoDaNota)
        let dados = try await tourDaEquipe(texto, caller: caller)
        let nota = try await selado(conclusao.nota, dados)
        return try await concluir(dados, caller: caller) { .realizar(nota: nota, por: $0, em: $1) }
    }

    /// The prospect did not come (from the start on).
    public func registrarAusenciaNoTour(_ texto: String, caller: Caller) async throws -> TourView {
        let dados = try await tourDaEquipe(texto, caller: caller)
        return try await concluir(dados, caller: caller) { .registrarAusencia(por: $0, em: $1) }
    }

    /// The team cancels (before the start), with a reason the prospect is told.
    public func cancelarTourPelaEquipe(_ texto: String, _ cancelamento: CancelamentoDeTour, caller: Caller) async throws -> TourView {
        try ServiceError.texto(cancelamento.motivo, campo: "motivo", maximo: Tour.tamanhoMaximoDoMotivo)
        let dados = try await tourDaEquipe(texto, caller: caller)
        let motivo = try await selado(cancelamento.motivo, dados)
        return try await aberto(TourView(try await cancelar(dados.id, por: caller.usuario ?? "admin", motivo: motivo, caller: caller)))
    }

    /// An operator erases the prospect's contact now (they asked, LGPD): a tour still to come is
    /// cancelled first (its time goes back to the unit: nobody is expected), then the key goes,
    /// the answers kept for retries that hold the contact, and the event that records it, as the
    /// retention timer does.
    public func apagarDadosDoTour(_ texto: String, caller: Caller) async throws -> TourView {
        var dados = try await tourDaEquipe(texto, caller: caller)
        guard let vault else { throw ServiceError.indisponivel("o cofre de dados pessoais não está configurado neste processo") }
        if dados.situacao == .agendado, clock.now < dados.agendado.inicio, !dados.dadosApagados {
            dados = try await cancelar(dados.id, por: caller.usuario ?? "admin", motivo: nil, caller: caller)
        }
        _ = try await vault.erase(subject: dados.id.rawValue)
        try await esquecerRespostas(dados.id.description)
        let now = clock.now
        let state = try await tours.handle(
            StreamNames.tour(dados.id), at: now, metadata: metadata(correlacao: dados.id.rawValue, caller), receipt: caller.receipt,
            failure: { ServiceError($0) }
        ) { _ in
            .apagarAgora(por: caller.usuario ?? "admin", em: now)
        }
        return try await aberto(TourView(try Self.tour(state)))
    }

    /// How the unit takes tours (the default until the team sets it). 404 for an unknown unit.
    public func configuracaoDeTours(unidade texto: String) async throws -> ConfiguracaoDeToursView {
        let unidadeId = try await unidadeExistente(texto)
        return Self.view(unidadeId, try await configuracaoDeTours(unidadeId))
    }

    /// The team sets how the unit takes tours: 422 naming the field. Tours already booked stay.
    public func configurarTours(
        unidade texto: String, _ pedido: PedidoDeConfiguracaoDeTours, caller: Caller
    ) async throws
        -> ConfiguracaoDeToursView
    {
        guard caller.papel == "admin", let quem = caller.usuario else { throw ServiceError.proibido("só a equipe (um admin) configura os tours") }
        let unidadeId = try await unidadeExistente(texto)
        guard let ativo = pedido.ativo else { throw ServiceError.invalido("ativo", "informe se a unidade agenda tours (true ou false)") }
        guard let duracao = pedido.duracaoMinutos else { throw ServiceError.invalido("duracaoMinutos", "informe a duração de um tour, em minutos") }
        guard let simultaneos = pedido.simultaneos else {
            throw ServiceError.invalido("simultaneos", "informe quantos tours a unidade recebe ao mesmo tempo")
        }
        guard let horario = pedido.horario else { throw ServiceError.invalido("horario", "informe o horário semanal dos tours") }
        var emailDaEquipe: String?
        if let texto = pedido.emailDaEquipe {
            guard EmailClaim.enderecoValido(texto) else {
                throw ServiceError.invalido("emailDaEquipe", "e-mail da equipe inválido (deixe sem ele para não avisar ninguém)")
            }
            emailDaEquipe = EmailClaim.normalise(texto)
        }
        let configuracao = ConfiguracaoDeTours.Configuracao(
            ativo: ativo, duracaoMinutos: duracao, simultaneos: simultaneos, horario: horario, emailDaEquipe: emailDaEquipe)
        let now = clock.now
        let state = try await configuracoesDeTours.handle(
            StreamNames.configuracaoDeTours(unidadeId), at: now, metadata: metadata(correlacao: unidadeId, caller), receipt: caller.receipt,
            failure: { ServiceError($0) }
        ) { _ in
            .definir(ConfiguracaoDeTours.Definida(unidadeId: unidadeId, configuracao: configuracao, por: quem, em: now))
        }
        return Self.view(unidadeId, state ?? .padrao)
    }

    // MARK: Timer

    /// Erases the contact of every tour cancelled or past its retention by the clock's now (the
    /// `tours_retencao` timers, earliest first): the key first, then the event that records it.
    @discardableResult
    public func apagarInteressadosVencidos(limite: Int = 200) async throws -> Int {
        let now = clock.now
        let prazos = try await lerPrazos(
            TourRetencaoView.self, de: ToursReadModel.projection, em: ToursReadModel.retencao, limite: limite, store: store)
        var apagados = 0
        let vencidos = prazos.filter { $0.vence <= now }
        Self.metricasDosTours.found(vencidos.count)
        for prazo in vencidos {
            guard let id = Tour.ID(prazo.tourId) else { continue }
            let stream = StreamNames.tour(id)
            let (state, version) = try await tours.load(stream)
            guard let events = try? Tour.decider.decide(.apagarDados(em: now), state), !events.isEmpty else { continue }
            guard let vault else { throw ServiceError.indisponivel("o cofre de dados pessoais não está configurado neste processo") }
            _ = try await vault.erase(subject: id.rawValue)
            try await esquecerRespostas(id.description)
            let meta = EventMetadata(correlationId: id.rawValue, actor: Tour.sistema, requestId: "tours", service: Self.consumidor)
            do {
                try await store.append(to: stream, expected: .after(version), events: try Events.new(events, at: now, metadata: meta))
                apagados += 1
                Self.metricasDosTours.fired(late: now.timeIntervalSince(prazo.vence))
            } catch is WrongExpectedVersion {
                continue
            }
        }
        return apagados
    }

    static let metricasDosTours = TimerMetrics("checkin:tours")

    // MARK: Helpers

    /// Checks the request, seals the contact and appends the tour with its place in the unit's
    /// day, in one append (bookings of one day take turns in this process).
    private func agendar(_ pedido: PedidoDeTour, por: String?, caller: Caller) async throws -> Tour.Dados {
        guard let texto = pedido.unidadeId, let unidadeId = UUID(text: texto) else {
            throw ServiceError.invalido("unidadeId", "informe a unidade (id) que você quer conhecer")
        }
        guard let inicio = pedido.inicio else {
            throw ServiceError.invalido("inicio", "informe o horário do tour (ISO 8601, ex.: 2026-12-03T10:00:00-03:00)")
        }
        let contato = try Self.contato(pedido)
        let interesse = try pedido.interesse.map { texto in
            guard let interesse = Tour.Interesse(rawValue: texto) else {
                throw ServiceError.invalido(
                    "interesse", "interesse desconhecido: use \(Tour.Interesse.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return interesse
        }
        let pessoas = pedido.pessoas ?? 1
        guard (1...Tour.pessoasMaximas).contains(pessoas) else {
            throw ServiceError.invalido("pessoas", "informe quantas pessoas vêm: de 1 a \(Tour.pessoasMaximas)")
        }
        // The id is the prospect's link: derived from the key (scoped to the caller) with the
        // address, the unit and the time, so that a retry finds its tour and only it, and nobody
        // reaches another's tour by sending a key they guessed.
        let id = Tour.ID(
            caller.idempotencyKey.map {
                Events.derivedId("tour", $0, contato.email, unidadeId.lowercasedString, inicio.formatted(Date.ISO8601FormatStyle()))
            } ?? EventIDs.random())
        let stream = StreamNames.tour(id)
        // A retry of a booking that was written answers what was written, whatever changed since
        // (the notice, the hours).
        if case .existente(let dados) = try await tours.load(stream).state { return dados }
        guard case .existente(let unidade) = try await unidades.load(StreamNames.unidade(Unidade.ID(unidadeId))).state else {
            throw ServiceError.invalido("unidadeId", "a unidade \(unidadeId.lowercasedString) não existe")
        }
        let configuracao = try await configuracaoDeTours(unidadeId)
        guard configuracao.ativo else { throw ServiceError.invalido("unidadeId", "a \(unidade.nome) não está agendando tours agora") }
        let dia = DataLocal(inicio, em: unidade.fuso)
        guard let horario = configuracao.horarios(em: dia, fuso: unidade.fuso).first(where: { $0.start == inicio }) else {
            throw ServiceError.invalido("inicio", "este não é um horário de tour da \(unidade.nome): escolha um dos horários livres")
        }
        let now = clock.now
        // The times first (the domain's rule), before anything is sealed.
        let rascunho = Tour.Agendado(
            tourId: id, unidadeId: unidadeId, dia: dia.description, inicio: horario.start, fim: horario.end, origem: por == nil ? .site : .equipe,
            interesse: interesse, pessoas: pessoas, contato: contato, por: por, em: now)
        do throws(Tour.Failure) {
            _ = try Tour.decider.decide(.agendar(rascunho), .inexistente)
        } catch {
            throw ServiceError(error, fuso: unidade.fuso)
        }
        guard let vault else { throw ServiceError.indisponivel("o cofre de dados pessoais não está configurado neste processo") }
        let agenda = StreamNames.agendaDeTours(unidade: unidadeId, dia: dia)
        let lugar = AgendaDeTours.Horario(tourId: id, unidadeId: unidadeId, dia: dia.description, inicio: horario.start, fim: horario.end)
        let meta = EventMetadata(correlationId: id.rawValue, actor: por ?? Tour.visitante, requestId: caller.requestId, service: Self.consumidor)
        return try await turnos.withTurn(of: [agenda]) {
            // Sealed once a place is found: a refused booking leaves no key behind.
            var selado: Tour.Agendado?
            for _ in 1...5 {
                let (diaDeTours, versao) = try await agendasDeTours.load(agenda)
                if case .existente(let dados) = try await tours.load(stream).state { return dados }
                let ocupar: [AgendaDeTours.Event]
                do {
                    ocupar = try AgendaDeTours.decider.decide(.ocupar(lugar, simultaneos: configuracao.simultaneos), diaDeTours)
                } catch {
                    throw ServiceError.conflito(
                        "horario_de_tour_lotado", "este horário acabou de ser ocupado: escolha outro entre os horários livres")
                }
                let agendado: Tour.Agendado
                if let selado {
                    agendado = selado
                } else {
                    agendado = try await selar(rascunho, vault)
                }
                selado = agendado
                let eventos = try Tour.decider.decide(.agendar(agendado), .inexistente)
                do {
                    try await store.append(
                        [
                            StreamWrite(stream: stream, expected: .noStream, events: try Events.new(eventos, at: now, metadata: meta)),
                            StreamWrite(stream: agenda, expected: .after(versao), events: try Events.new(ocupar, at: now, metadata: meta)),
                        ], receipt: caller.receipt)
                    return try Self.tour(eventos.reduce(Tour.State.inexistente, Tour.decider.evolve))
                } catch is WrongExpectedVersion {
                    continue
                }
            }
            throw ServiceError.conflito("conflito_de_versao", "o horário mudou durante a operação; tente de novo")
        }
    }

    /// The booking with its contact sealed under the tour's key.
    private func selar(_ a: Tour.Agendado, _ vault: PersonalDataVault) async throws -> Tour.Agendado {
        func selado(_ valor: String?) async throws -> String? {
            guard let valor else { return nil }
            return try await vault.seal(valor, for: a.tourId.rawValue).rawValue
        }
        let c = a.contato
        return Tour.Agendado(
            tourId: a.tourId, unidadeId: a.unidadeId, dia: a.dia, inicio: a.inicio, fim: a.fim, origem: a.origem, interesse: a.interesse,
            pessoas: a.pessoas,
            contato: Tour.Contato(
                nome: try await selado(c.nome) ?? "", email: try await selado(c.email) ?? "", telefone: try await selado(c.telefone),
                empresa: try await selado(c.empresa), mensagem: try await selado(c.mensagem)),
            por: a.por, em: a.em)
    }

    /// The contact as typed, checked and trimmed (not sealed yet).
    private static func contato(_ pedido: PedidoDeTour) throws -> Tour.Contato {
        let nome = (pedido.nome ?? "").trimmingCharacters(in: .whitespacesAndNewlines).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        // The sealed form is named only to whoever sent it: a prospect sees the lengths.
        if TextoLivre.problema(pedido.nome ?? "", maximo: Tour.tamanhoMaximoDoNome) == .formaSelada {
            throw ServiceError.invalido("nome", "o nome não pode começar com '\(TextoLivre.prefixoSelado)'")
        }
        guard nome.count >= 2, TextoLivre.cabe(pedido.nome ?? "", maximo: Tour.tamanhoMaximoDoNome) else {
            throw ServiceError.invalido("nome", "informe seu nome: de 2 a \(Tour.tamanhoMaximoDoNome) caracteres")
        }
        // The address and the phone are checked as sent, as the published schema says them.
        let email = pedido.email ?? ""
        guard !email.isEmpty else { throw ServiceError.invalido("email", "informe seu e-mail: a confirmação do tour vai para ele") }
        guard EmailClaim.enderecoValido(email) else { throw ServiceError.invalido("email", "e-mail inválido") }
        var telefone: String?
        if let texto = pedido.telefone {
            let digitos = texto.unicodeScalars.filter { ("0"..."9").contains($0) }.count
            guard texto.count <= Tour.tamanhoMaximoDoTelefone,
                texto.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || " +().-".unicodeScalars.contains($0) }),
                digitos == 0 ? texto.trimmingCharacters(in: .whitespaces).isEmpty : (8...15).contains(digitos)
            else {
                throw ServiceError.invalido(
                    "telefone", "telefone inválido: de 8 a 15 dígitos, com espaços, +, parênteses, pontos ou hífens se quiser (ex.: (11) 91234-5678)")
            }
            telefone = texto.trimmingCharacters(in: .whitespaces).nadaSeVazio
        }
        try ServiceError.texto(pedido.empresa, campo: "empresa", maximo: Tour.tamanhoMaximoDaEmpresa)
        try ServiceError.texto(pedido.mensagem, campo: "mensagem", maximo: Tour.tamanhoMaximoDaMensagem)
        func aparado(_ texto: String?) -> String? { texto?.trimmingCharacters(in: .whitespacesAndNewlines).nadaSeVazio }
        return Tour.Contato(
            nome: nome, email: EmailClaim.normalise(email), telefone: telefone, empresa: aparado(pedido.empresa), mensagem: aparado(pedido.mensagem))
    }

    /// Cancels `id` and gives its time back to the unit's day, in one append (in the day's turn,
    /// as bookings of that day are).
    private func cancelar(_ id: Tour.ID, por: String, motivo: String?, caller: Caller) async throws -> Tour.Dados {
        let atual = try await tourExistente(id.description)
        guard let dia = DataLocal(atual.agendado.dia) else { throw ServiceError(Tour.Failure.inexistente) }
        let agenda = StreamNames.agendaDeTours(unidade: atual.agendado.unidadeId, dia: dia)
        return try await turnos.withTurn(of: [agenda]) { try await cancelarNaVez(id, agenda: agenda, por: por, motivo: motivo, caller: caller) }
    }

    private func cancelarNaVez(_ id: Tour.ID, agenda: StreamName, por: String, motivo: String?, caller: Caller) async throws -> Tour.Dados {
        let stream = StreamNames.tour(id)
        let now = clock.now
        // The prospect has no account: their own cancellation names them as the visitor.
        let meta = EventMetadata(correlationId: id.rawValue, actor: caller.usuario ?? por, requestId: caller.requestId, service: Self.consumidor)
        for _ in 1...5 {
            let (state, versao) = try await tours.load(stream)
            guard case .existente(let dados) = state else { throw ServiceError(Tour.Failure.inexistente) }
            let eventos: [Tour.Event]
            do throws(Tour.Failure) {
                eventos = try Tour.decider.decide(.cancelar(por: por, motivo: motivo, em: now), state)
            } catch {
                throw ServiceError(error)
            }
            guard !eventos.isEmpty else { return dados }
            var writes = [StreamWrite(stream: stream, expected: .after(versao), events: try Events.new(eventos, at: now, metadata: meta))]
            let (diaDeTours, versaoDoDia) = try await agendasDeTours.load(agenda)
            let liberar = try AgendaDeTours.decider.decide(.liberar(id), diaDeTours)
            if !liberar.isEmpty {
                writes.append(StreamWrite(stream: agenda, expected: .after(versaoDoDia), events: try Events.new(liberar, at: now, metadata: meta)))
            }
            do {
                try await store.append(writes, receipt: caller.receipt)
                return eventos.reduce(state, Tour.decider.evolve).dados ?? dados
            } catch is WrongExpectedVersion {
                continue
            }
        }
        throw ServiceError.conflito("conflito_de_versao", "o tour mudou durante a operação; tente de novo")
    }

    private func concluir(_ dados: Tour.Dados, caller: Caller, _ command: (String, Date) -> Tour.Command) async throws -> TourView {
        let now = clock.now
        let fuso = try await fusoDaUnidade(dados.agendado.unidadeId)
        let state = try await tours.handle(
            StreamNames.tour(dados.id), at: now, metadata: metadata(correlacao: dados.id.rawValue, caller), receipt: caller.receipt,
            failure: { ServiceError($0, fuso: fuso) }
        ) { _ in
            command(caller.usuario ?? "admin", now)
        }
        return try await aberto(TourView(try Self.tour(state)))
    }

    private func tourExistente(_ texto: String) async throws -> Tour.Dados {
        guard let id = Tour.ID(texto), case .existente(let dados) = try await tours.load(StreamNames.tour(id)).state else {
            throw ServiceError(Tour.Failure.inexistente)
        }
        return dados
    }

    private func tourDaEquipe(_ texto: String, caller: Caller) async throws -> Tour.Dados {
        guard caller.papel == "admin" else { throw ServiceError.proibido("só a equipe (um admin) registra o andamento de um tour") }
        return try await tourExistente(texto)
    }

    private func unidadeExistente(_ texto: String) async throws -> UUID {
        guard let unidadeId = UUID(text: texto), case .existente = try await unidades.load(StreamNames.unidade(Unidade.ID(unidadeId))).state
        else { throw ServiceError.naoEncontrado("a unidade não existe") }
        return unidadeId
    }

    /// The unit's tour configuration as its stream says (the default until set).
    func configuracaoDeTours(_ unidadeId: UUID) async throws -> ConfiguracaoDeTours.Configuracao {
        try await configuracoesDeTours.load(StreamNames.configuracaoDeTours(unidadeId)).state ?? .padrao
    }

    private static func view(_ unidadeId: UUID, _ c: ConfiguracaoDeTours.Configuracao) -> ConfiguracaoDeToursView {
        ConfiguracaoDeToursView(
            unidadeId: unidadeId.lowercasedString, ativo: c.ativo, duracaoMinutos: c.duracaoMinutos, simultaneos: c.simultaneos, horario: c.horario,
            emailDaEquipe: c.emailDaEquipe)
    }

    /// The team's text sealed under the tour's key; nothing once the contact is erased (sealing
    /// would make the key anew, and the text would outlive the erasure).
    private func selado(_ texto: String?, _ dados: Tour.Dados) async throws -> String? {
        guard !dados.dadosApagados, let texto = texto?.trimmingCharacters(in: .whitespacesAndNewlines).nadaSeVazio else { return nil }
        guard let vault else { throw ServiceError.indisponivel("o cofre de dados pessoais não está configurado neste processo") }
        return try await vault.seal(texto, for: dados.id.rawValue).rawValue
    }

    private func aberto(_ texto: String?) async throws -> String? {
        guard let texto, let vault else { return nil }
        return try await vault.open(SealedField(rawValue: texto)).value
    }

    /// The view with the sealed fields opened (nil once erased).
    private func aberto(_ view: TourView) async throws -> TourView {
        var view = view
        view.nome = try await aberto(view.nome)
        view.email = try await aberto(view.email)
        view.telefone = try await aberto(view.telefone)
        view.empresa = try await aberto(view.empresa)
        view.mensagem = try await aberto(view.mensagem)
        view.nota = try await aberto(view.nota)
        view.motivo = try await aberto(view.motivo)
        return view
    }

    private func publico(_ dados: Tour.Dados) async throws -> TourPublico {
        let a = dados.agendado
        var unidade: Unidade.Dados?
        if case .existente(let dados) = try await unidades.load(StreamNames.unidade(Unidade.ID(a.unidadeId))).state { unidade = dados }
        let endereco = unidade.map { e in
            "\(e.endereco.logradouro), \(e.endereco.numero)\(e.endereco.complemento.map { " – \($0)" } ?? "") – \(e.endereco.cidade)/\(e.endereco.uf)"
        }
        return TourPublico(
            id: a.tourId.description, unidadeId: a.unidadeId.lowercasedString, unidade: unidade?.nome ?? "Unidade", endereco: endereco,
            fuso: unidade?.fusoHorario ?? Unidade.fusoPadrao, inicio: a.inicio, fim: a.fim, situacao: dados.situacao,
            nome: dados.dadosApagados ? nil : try await aberto(a.contato.nome), canceladoPorEquipe: dados.cancelado?.pelaEquipe ?? false)
    }

    static func tour(_ state: Tour.State) throws -> Tour.Dados {
        guard case .existente(let dados) = state else { throw ServiceError(Tour.Failure.inexistente) }
        return dados
    }
}

extension String {
    /// nil for an empty text.
    fileprivate var nadaSeVazio: String? { isEmpty ? nil : self }
}

extension ServiceError {
    init(_ failure: Tour.Failure, fuso: TimeZone? = nil) {
        func quando(_ instant: Date) -> String { Self.quando(instant, fuso: fuso) }
        switch failure {
        case .inexistente: self = .naoEncontrado("o tour não existe")
        case .jaAgendado: self = .conflito("tour_ja_agendado", "este tour já foi agendado")
        case .cedoDemaisParaAgendar:
            self = .invalido(
                "inicio",
                "este horário já passou ou está próximo demais: agende com pelo menos \(Int(Tour.antecedenciaMinima / 60)) minutos de antecedência")
        case .longeDemais:
            self = .invalido("inicio", "este horário está longe demais: agende tours para os próximos \(Int(Tour.antecedenciaMaxima / 86_400)) dias")
        case .cancelado: self = .conflito("tour_cancelado", "este tour foi cancelado")
        case .concluido: self = .conflito("tour_concluido", "este tour já foi registrado como realizado ou sem comparecimento")
        case .iniciado: self = .conflito("tour_iniciado", "este tour já começou e não pode mais ser cancelado")
        case .cedoDemais(let aPartirDe):
            self = ServiceError(
                .conflito, codigo: "tour_cedo_demais", mensagem: "ainda é cedo: isto pode ser registrado a partir de \(quando(aPartirDe))",
                detalhes: ["aPartirDe": aPartirDe.formatted(Date.ISO8601FormatStyle())])
        case .retencaoNaoVenceu(let em):
            self = ServiceError(
                .conflito, codigo: "retencao_nao_vencida", mensagem: "os dados deste interessado são guardados até \(quando(em))",
                detalhes: ["vence": em.formatted(Date.ISO8601FormatStyle())])
        }
    }

    init(_ failure: ConfiguracaoDeTours.Failure) {
        let c = ConfiguracaoDeTours.Configuracao.self
        switch failure {
        case .duracaoInvalida:
            self = .invalido(
                "duracaoMinutos", "a duração de um tour vai de \(c.duracoes.lowerBound) a \(c.duracoes.upperBound) minutos, em passos de 15")
        case .simultaneosInvalidos:
            self = .invalido("simultaneos", "a unidade recebe de 1 a \(c.simultaneosMaximos) tours ao mesmo tempo")
        }
    }
}
