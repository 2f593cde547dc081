import Domain
import EventStore
public import Foundation
public import Projections
import Telemetry

/// Visitors: a member registers who is coming to a unit and when; the front desk records the
/// arrival (notificacoes tells the host) and the departure. The visitor's name and e-mail are
/// sealed under the visit's own key, erased by the `checkin:visitas` timer an hour after a
/// cancellation (notificacoes tells the visitor first) or ``Visita/retencao`` after the expected
/// arrival.
extension CheckinService {
    public struct PedidoDeVisita: Decodable, Sendable {
        public let unidadeId: String?
        public let chegadaPrevista: Date?
        public let nome: String?
        /// Optional: the visitor gets the invitation (where, when, who expects them) by e-mail.
        public let email: String?
        /// The front desk (an admin) registering a visitor who came unannounced: the member they
        /// came to see. Anyone else registers only their own visitors (403).
        public let paraUsuarioId: String?
    }

    /// The host's visits: those still to come (up to ``atrasoNaLista`` late) or under way
    /// (earliest first), and the others (latest first, at most ``anterioresMaximo``).
    public struct MinhasVisitas: Codable, Sendable {
        public let proximas: [VisitaView]
        public let anteriores: [VisitaView]
    }

    public static let tamanhoMaximoDoNomeDoVisitante = 120
    static let anterioresMaximo = 50
    /// How late an expected visitor still counts among the host's next ones.
    static let atrasoNaLista: TimeInterval = 2 * 60 * 60
    /// Visitors a member may register in 24 hours: each may send an e-mail to an address the
    /// member typed, so the platform is not a way to mail strangers in bulk (the desk has no cap).
    public static let visitasPorDia = 30

    var contas: AggregateStore<Usuario.Command, Usuario.State, Usuario.Event, Usuario.Failure> {
        AggregateStore(store: store, decider: Usuario.decider) { try Usuario.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    var visitas: AggregateStore<Visita.Command, Visita.State, Visita.Event, Visita.Failure> {
        AggregateStore(store: store, decider: Visita.decider) { try Visita.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    // MARK: Commands

    /// The caller registers a visitor (an admin also for another member, `paraUsuarioId`). 422
    /// naming the field for a unit or member that does not exist, an arrival in the past or too
    /// far ahead, a blank or over-long name, an invalid e-mail.
    public func registrarVisita(_ pedido: PedidoDeVisita, caller: Caller) async throws -> VisitaView {
        guard let quem = caller.usuario else { throw ServiceError.naoAutenticado }
        var usuario = quem
        if let para = pedido.paraUsuarioId, para.lowercased() != quem {
            guard caller.papel == "admin" else {
                throw ServiceError.proibido("só a recepção (um admin) registra visitantes para outro membro; registre os seus")
            }
            // A member whose account counts: not an unknown, deactivated or erased one.
            guard let id = Usuario.ID(para), case .existente(let conta) = try await contas.load(UsuariosService.stream(id)).state, conta.ativo
            else {
                throw ServiceError.invalido("paraUsuarioId", "não há membro ativo com o id \(para.prefix(60))")
            }
            usuario = id.description
            // The host reads it next, not only the desk.
            caller.receipt?.markShared()
        }
        guard let texto = pedido.unidadeId, let unidadeId = UUID(text: texto) else {
            throw ServiceError.invalido("unidadeId", "informe a unidade (id) onde o visitante é esperado")
        }
        guard let chegada = pedido.chegadaPrevista else {
            throw ServiceError.invalido("chegadaPrevista", "informe a chegada prevista (ISO 8601, ex.: 2026-12-01T14:00:00-03:00)")
        }
        let nome = (pedido.nome ?? "").trimmingCharacters(in: .whitespacesAndNewlines).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard nome.count >= 2, TextoLivre.cabe(pedido.nome ?? "", maximo: Self.tamanhoMaximoDoNomeDoVisitante) else {
            throw ServiceError.invalido(
                "nome",
                "informe o nome do visitante: de 2 a \(Self.tamanhoMaximoDoNomeDoVisitante) caracteres, \(TextoLivre.foraDaFormaSelada)")
        }
        var email: String?
        if let texto = pedido.email?.trimmingCharacters(in: .whitespacesAndNewlines), !texto.isEmpty {
            guard EmailClaim.enderecoValido(texto) else { throw ServiceError.invalido("email", "e-mail do visitante inválido") }
            email = EmailClaim.normalise(texto)
        }
        guard case .existente(let unidade) = try await unidades.load(StreamNames.unidade(Unidade.ID(unidadeId))).state else {
            throw ServiceError.invalido("unidadeId", "a unidade \(unidadeId.lowercasedString) não existe")
        }
        guard let vault else { throw ServiceError.indisponivel("o cofre de dados pessoais não está configurado neste processo") }
        if caller.papel != "admin" { try await dentroDoLimiteDiario(quem) }
        let id = Visita.ID(caller.idempotencyKey.map { Events.derivedId("visita", quem, $0) } ?? EventIDs.random())
        let stream = StreamNames.visita(id)
        // A retry of a registration that was written (same key) answers what was written.
        if case .existente(let dados) = try await visitas.load(stream).state, dados.registro.usuarioId == usuario {
            return try await aberta(VisitaView(dados))
        }
        var emailSelado: String?
        if let email { emailSelado = try await vault.seal(email, for: id.rawValue).rawValue }
        let registro = Visita.Registro(
            visitaId: id, usuarioId: usuario, unidadeId: unidadeId, chegadaPrevista: chegada,
            dia: DataLocal(chegada, em: unidade.fuso).description, nome: try await vault.seal(nome, for: id.rawValue).rawValue,
            email: emailSelado)
        let now = clock.now
        let state = try await visitas.handle(
            stream, at: now, metadata: metadataDaVisita(id, caller), receipt: caller.receipt, failure: { ServiceError($0, fuso: unidade.fuso) }
        ) { _ in
            .registrar(registro, por: quem, em: now)
        }
        return try await aberta(try Self.visita(state))
    }

    /// The host (or an admin) cancels a visit before the arrival; the visitor is told (when the
    /// host gave an address) and their data erased an hour later.
    public func cancelarVisita(_ texto: String, caller: Caller) async throws -> VisitaView {
        let id = try await visitaVisivel(texto, caller: caller).id
        let now = clock.now
        let state = try await visitas.handle(
            StreamNames.visita(id), at: now, metadata: metadataDaVisita(id, caller), receipt: caller.receipt, failure: { ServiceError($0) }
        ) { _ in
            .cancelar(por: caller.usuario ?? "admin", em: now)
        }
        return try await aberta(try Self.visita(state))
    }

    /// The front desk (an admin): the visitor arrived. 409 for a cancelled visit, one already
    /// arrived, or more than ``Visita/chegadaAntecipada`` before the expected time.
    public func registrarChegada(_ texto: String, caller: Caller) async throws -> VisitaView {
        try await recepcao(texto, caller: caller) { .registrarChegada(por: $0, em: $1) }
    }

    /// The front desk: the visitor left.
    public func registrarSaida(_ texto: String, caller: Caller) async throws -> VisitaView {
        try await recepcao(texto, caller: caller) { .registrarSaida(por: $0, em: $1) }
    }

    private func recepcao(_ texto: String, caller: Caller, _ command: (String, Date) -> Visita.Command) async throws -> VisitaView {
        guard caller.papel == "admin" else { throw ServiceError.proibido("só a recepção (um admin) registra a chegada e a saída de visitantes") }
        let dados = try await visitaVisivel(texto, caller: caller)
        let id = dados.id
        let now = clock.now
        let fuso = try await fusoDaUnidade(dados.registro.unidadeId)
        let state = try await visitas.handle(
            StreamNames.visita(id), at: now, metadata: metadataDaVisita(id, caller), receipt: caller.receipt,
            failure: { ServiceError($0, fuso: fuso) }
        ) { _ in
            command(caller.usuario ?? "admin", now)
        }
        return try await aberta(try Self.visita(state))
    }

    /// An operator erases the visitor's name and e-mail now (the visitor asked, LGPD): the key
    /// first, then the event that records it (`por` the operator), as the retention timer does.
    public func apagarVisitante(_ texto: String, caller: Caller) async throws -> VisitaView {
        guard caller.papel == "admin" else { throw ServiceError.proibido("só um admin apaga os dados de um visitante") }
        let id = try await visitaVisivel(texto, caller: caller).id
        guard let vault else { throw ServiceError.indisponivel("o cofre de dados pessoais não está configurado neste processo") }
        _ = try await vault.erase(subject: id.rawValue)
        let now = clock.now
        let state = try await visitas.handle(
            StreamNames.visita(id), at: now, metadata: metadataDaVisita(id, caller), receipt: caller.receipt, failure: { ServiceError($0) }
        ) { _ in
            .apagarAgora(por: caller.usuario ?? "admin", em: now)
        }
        return try await aberta(try Self.visita(state))
    }

    // MARK: Queries

    /// The caller's visits as host.
    public func minhasVisitas(caller: Caller) async throws -> MinhasVisitas {
        guard let usuario = caller.usuario else { throw ServiceError.naoAutenticado }
        let todas = try await store.documents(VisitasReadModel.porAnfitriao, grupo: usuario, limit: 1000, offset: 0)
            .map { try ReadModelJSON.decoder.decode(VisitaView.self, from: $0) }
        let corte = clock.now.addingTimeInterval(-Self.atrasoNaLista)
        func proxima(_ v: VisitaView) -> Bool { (v.situacao == .esperada && v.chegadaPrevista >= corte) || v.situacao == .presente }
        let proximas = todas.filter(proxima)
        let anteriores = todas.filter { !proxima($0) }.reversed().prefix(Self.anterioresMaximo)
        return MinhasVisitas(proximas: try await abertas(proximas), anteriores: try await abertas(Array(anteriores)))
    }

    /// The front desk's list of a unit's local day (`data` `AAAA-MM-DD`), earliest first.
    public func visitasDoDia(unidade: String, data: String) async throws -> [VisitaView] {
        guard let unidadeId = UUID(text: unidade) else { throw ServiceError.naoEncontrado("a unidade não existe") }
        guard let dia = DataLocal(data) else {
            throw ServiceError.requisicaoInvalida("'data' deve ser uma data AAAA-MM-DD", detalhes: ["campo": "data"])
        }
        guard case .existente = try await unidades.load(StreamNames.unidade(Unidade.ID(unidadeId))).state else {
            throw ServiceError.naoEncontrado("a unidade \(unidadeId.lowercasedString) não existe")
        }
        let grupo = VisitasReadModel.grupo(unidade: unidadeId.lowercasedString, dia: dia.description)
        return try await abertas(
            try await store.documents(VisitasReadModel.visitas, grupo: grupo, limit: 1000, offset: 0)
                .map { try ReadModelJSON.decoder.decode(VisitaView.self, from: $0) })
    }

    // MARK: Timer

    /// Erases the visitor data of every visit cancelled or past its retention by the clock's
    /// now (the `visitas_retencao` timers, earliest first): the key first, then the event that
    /// records it, so a process that stops in between erases it again on the next pass.
    @discardableResult
    public func apagarVisitantesVencidos(limite: Int = 200) async throws -> Int {
        let now = clock.now
        let prazos = try await lerPrazos(
            VisitaRetencaoView.self, de: VisitasReadModel.projection, em: VisitasReadModel.retencao, limite: limite, store: store)
        var apagados = 0
        let vencidos = prazos.filter { $0.vence <= now }
        Self.metricasDasVisitas.found(vencidos.count)
        for prazo in vencidos {
            guard let id = Visita.ID(prazo.visitaId) else { continue }
            let stream = StreamNames.visita(id)
            let (state, version) = try await visitas.load(stream)
            guard let events = try? Visita.decider.decide(.apagarDados(em: now), state), !events.isEmpty else { continue }
            _ = try await vault?.erase(subject: id.rawValue)
            let meta = EventMetadata(correlationId: id.rawValue, actor: Visita.sistema, requestId: "visitas", service: Self.consumidor)
            do {
                try await store.append(to: stream, expected: .after(version), events: try Events.new(events, at: now, metadata: meta))
                apagados += 1
                Self.metricasDasVisitas.fired(late: now.timeIntervalSince(prazo.vence))
            } catch is WrongExpectedVersion {
                continue
            }
        }
        return apagados
    }

    static let metricasDasVisitas = TimerMetrics("checkin:visitas")

    // MARK: Helpers

    /// 429 `visitas_demais` once `usuario` registered ``visitasPorDia`` visitors in the last 24
    /// hours (as the host's list has them), with the seconds until the oldest of them leaves the window.
    private func dentroDoLimiteDiario(_ usuario: String) async throws {
        let now = clock.now
        let desde = now.addingTimeInterval(-86_400)
        let recentes = try await store.documents(VisitasReadModel.porAnfitriao, grupo: usuario, limit: 1000, offset: 0)
            .map { try ReadModelJSON.decoder.decode(VisitaView.self, from: $0) }
            .filter { $0.registradaPor == usuario && $0.registradaEm > desde }
            .map(\.registradaEm).sorted()
        guard recentes.count >= Self.visitasPorDia, let primeira = recentes.first else { return }
        throw ServiceError(
            .limiteExcedido, codigo: "visitas_demais",
            mensagem: "você registrou \(recentes.count) visitantes nas últimas 24 horas, o máximo; tente de novo mais tarde ou fale com a recepção",
            retryAfter: max(1, Int(primeira.addingTimeInterval(86_400).timeIntervalSince(now).rounded(.up))))
    }

    /// The visit named by `texto` as its stream holds it, if the caller is its host or an admin;
    /// 404 otherwise.
    private func visitaVisivel(_ texto: String, caller: Caller) async throws -> Visita.Dados {
        let naoExiste = ServiceError.naoEncontrado("o visitante não existe")
        guard let id = Visita.ID(texto), case .existente(let dados) = try await visitas.load(StreamNames.visita(id)).state else {
            throw naoExiste
        }
        guard caller.papel == "admin" || dados.registro.usuarioId == caller.usuario else { throw naoExiste }
        return dados
    }

    /// The view with the visitor's name and e-mail opened (nil once erased).
    private func aberta(_ view: VisitaView) async throws -> VisitaView {
        var view = view
        guard let vault else {
            view.nome = nil
            view.email = nil
            return view
        }
        if let nome = view.nome { view.nome = try await vault.open(SealedField(rawValue: nome)).value }
        if let email = view.email { view.email = try await vault.open(SealedField(rawValue: email)).value }
        return view
    }

    private func abertas(_ views: [VisitaView]) async throws -> [VisitaView] {
        var abertas: [VisitaView] = []
        for view in views { abertas.append(try await aberta(view)) }
        return abertas
    }

    private func metadataDaVisita(_ id: Visita.ID, _ caller: Caller) -> EventMetadata {
        EventMetadata(correlationId: id.rawValue, actor: caller.usuario ?? "admin", requestId: caller.requestId, service: Self.consumidor)
    }

    static func visita(_ state: Visita.State) throws -> VisitaView {
        guard case .existente(let dados) = state else { throw ServiceError(Visita.Failure.inexistente) }
        return VisitaView(dados)
    }
}

extension ServiceError {
    init(_ failure: Visita.Failure, fuso: TimeZone? = nil) {
        func quando(_ instant: Date) -> String { Self.quando(instant, fuso: fuso) }
        switch failure {
        case .inexistente: self = .naoEncontrado("o visitante não existe")
        case .noPassado:
            self = .invalido("chegadaPrevista", "a chegada prevista já passou: registre visitantes de agora em diante")
        case .longeDemais:
            self = .invalido(
                "chegadaPrevista", "a chegada prevista está longe demais: registre visitantes com até \(Int(Visita.antecedenciaMaxima / 86_400)) dias"
            )
        case .jaRegistrada: self = .conflito("visita_ja_registrada", "este visitante já foi registrado")
        case .cancelada: self = .conflito("visita_cancelada", "esta visita foi cancelada pelo anfitrião")
        case .jaChegou: self = .conflito("visitante_ja_chegou", "a chegada deste visitante já foi registrada")
        case .jaSaiu: self = .conflito("visitante_ja_saiu", "a saída deste visitante já foi registrada")
        case .semChegada: self = .conflito("visitante_nao_chegou", "registre a chegada do visitante antes da saída")
        case .cedoDemais(let aPartirDe):
            self = ServiceError(
                .conflito, codigo: "visita_cedo_demais",
                mensagem: "esta visita é esperada mais tarde: a chegada pode ser registrada a partir de \(quando(aPartirDe))",
                detalhes: ["aPartirDe": aPartirDe.formatted(Date.ISO8601FormatStyle())])
        case .retencaoNaoVenceu(let em):
            self = ServiceError(
                .conflito, codigo: "retencao_nao_vencida", mensagem: "os dados deste visitante são guardados até \(quando(em))",
                detalhes: ["vence": em.formatted(Date.ISO8601FormatStyle())])
        }
    }
}
