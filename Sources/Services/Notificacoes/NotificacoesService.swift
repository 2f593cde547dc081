public import Domain
public import EventStore
import Foundation
import Messaging
public import Logging
public import Projections

/// The notificacoes service: Portuguese e-mails (and the in-app inbox) for what happens to a
/// member — welcome, booking confirmed (with an `.ics`), payment received, reminder before the
/// start, cancellation, refund, no-show.
///
/// Reactions (queue `coworkflow.notificacoes`) send the e-mail, trying `tentativas` times with
/// doubling pauses, then record NotificacaoEnviada (or NotificacaoFalhou for a refusal that will
/// not change) with the inbox row; a failure that may pass is thrown for the bus to retry.
/// The reminders are a durable timer over the `notificacoes_lembretes` read model.
public final class NotificacoesService: Sendable {
    /// A member's name and address, opened from the vault when a message is sent.
    public struct Contato: Sendable {
        public let nome: String
        public let email: String

        public init(nome: String, email: String) {
            self.nome = nome
            self.email = email
        }
    }

    let store: any ServiceStore
    let clock: any WallClock
    let mailer: any Mailer
    let remetente: EmailAddress
    let contato: @Sendable (String) async throws -> Contato?
    let logger: Logger
    /// Hours before the start the reminder goes.
    public let lembreteHoras: Int
    let tentativas: Int
    let pausa: Duration

    public static let consumidor = "notificacoes"
    public static let bindings = [
        Topology.routingKey(Usuario.Catalogo.registrado), Topology.routingKey(Reserva.Catalogo.confirmada), Topology.routingKey(Reserva.Catalogo.cancelada),
        Topology.routingKey(Pagamento.Catalogo.confirmado), Topology.routingKey(Pagamento.Catalogo.reembolsoConcluido), Topology.routingKey(Checkin.Catalogo.noShowRegistrado),
        Topology.routingKey(Usuario.Catalogo.dadosPessoaisApagados), Topology.routingKey(Reserva.Catalogo.expirada),
    ]
    static let service = "notificacoes"

    public init(
        store: any ServiceStore, clock: any WallClock, mailer: any Mailer, remetente: EmailAddress,
        contato: @escaping @Sendable (String) async throws -> Contato?, lembreteHoras: Int = 24, tentativas: Int = 3,
        pausa: Duration = .milliseconds(500), logger: Logger
    ) {
        self.store = store
        self.clock = clock
        self.mailer = mailer
        self.remetente = remetente
        self.contato = contato
        self.lembreteHoras = lembreteHoras
        self.tentativas = max(1, tentativas)
        self.pausa = pausa
        self.logger = logger
    }

    /// What to say, to whom, about what.
    struct Aviso {
        let tipo: Notificacao.Tipo
        let usuarioId: String
        let reservaId: UUID?
        let titulo: String
        let texto: String
        var anexos: [EmailAttachment] = []
    }

    // MARK: Reactions

    public func reagir(_ event: RecordedEvent) async throws -> [StreamWrite] {
        if event.type == Usuario.Catalogo.dadosPessoaisApagados.type {
            // The copies of the member's e-mails this process kept (an outbox) go with their data.
            guard case .dadosPessoaisApagados(let apagados)? = try Usuario.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder)
            else { return [] }
            try await mailer.esquecer(pessoa: apagados.usuarioId.description)
            return []
        }
        guard let aviso = try await aviso(for: event) else { return [] }
        var meta = event.metadata.caused(by: event.eventId, correlationId: event.metadata.correlationId)
        meta.service = Self.service
        meta.actor = "system:notificacoes"
        return try await entregar(aviso, id: Events.derivedId("notificacao", event.eventId), meta: meta)
    }

    private func aviso(for event: RecordedEvent) async throws -> Aviso? {
        let decoder = EventJSON.decoder
        switch event.type {
        case Usuario.Catalogo.registrado:
            guard event.stream.category == "usuario" else { return nil }
            let id = String(event.stream.rawValue.dropFirst("usuario-".count))
            return Aviso(
                tipo: .boasVindas, usuarioId: id, reservaId: nil, titulo: "Bem-vindo(a) à CoworkFlow",
                texto: "Sua conta está pronta. Encontre um espaço, reserve e pague por PIX, cartão ou boleto.")
        case Reserva.Catalogo.confirmada:
            let confirmada = try decoder.decode(Reserva.Confirmada.self, from: event.data)
            guard let (reserva, espaco, unidade, _) = try await contexto(confirmada.reservaId) else { return nil }
            let quando = Self.quando(reserva.intervalo, fuso: unidade?.fusoHorario)
            let nome = espaco?.nome ?? "espaço"
            let ics = convite(reserva, espaco, unidade, em: confirmada.em, cancelado: false)
            let codigo = try await codigoDeCheckin(confirmada.reservaId)
            return Aviso(
                tipo: .reservaConfirmada, usuarioId: reserva.usuarioId, reservaId: reserva.reservaId.rawValue,
                titulo: "Reserva confirmada: \(nome), \(quando)",
                texto: "Sua reserva de \(nome) (\(quando)) está confirmada. Total: \(Self.reais(reserva.total)). "
                    + (codigo.map { "Seu código de check-in é \($0): apresente-o na recepção ao chegar (ele também está, com o QR, em Minhas reservas). " }
                        ?? "Apresente o código de check-in na chegada: ele está, com o QR, em Minhas reservas. ")
                    + "O convite para a sua agenda segue em anexo.",
                anexos: [EmailAttachment(filename: "reserva.ics", contentType: Calendario.contentType, data: ics)])
        case Pagamento.Catalogo.confirmado:
            let pago = try decoder.decode(Pagamento.Confirmado.self, from: event.data)
            guard pago.valor > .zero else { return nil }
            return Aviso(
                tipo: .pagamentoRecebido, usuarioId: pago.usuarioId, reservaId: pago.reservaId,
                titulo: "Pagamento recebido: \(Self.reais(pago.valor))",
                texto: "Recebemos \(Self.reais(pago.valor)) por \(Self.metodo(pago.metodo)) para \(try await Self.descricao(contexto(Reserva.ID(pago.reservaId)))).")
        case Reserva.Catalogo.cancelada:
            let cancelada = try decoder.decode(Reserva.Cancelada.self, from: event.data)
            guard let (reserva, espaco, unidade, convidado) = try await contexto(cancelada.reservaId) else { return nil }
            let quando = Self.quando(reserva.intervalo, fuso: unidade?.fusoHorario)
            var texto = "Sua reserva de \(espaco?.nome ?? "espaço") (\(quando)) foi cancelada."
            if let motivo = cancelada.motivo, !motivo.isEmpty { texto += " Motivo: \(motivo)." }
            if cancelada.reembolso > .zero {
                texto += " Você receberá \(Self.reais(cancelada.reembolso)) de volta"
                texto += cancelada.multa > .zero ? " (multa de \(Self.reais(cancelada.multa)))." : "."
            }
            if convidado { texto += " Em anexo, o cancelamento do convite para a sua agenda." }
            // A hold whose payment the provider declined is not a cancellation the member asked for.
            let recusada = cancelada.por == "system:pagamentos"
            if recusada { texto = "O pagamento da sua reserva de \(espaco?.nome ?? "espaço") (\(quando)) foi recusado e o horário foi liberado; nada foi cobrado." }
            return Aviso(
                tipo: .cancelamento, usuarioId: reserva.usuarioId, reservaId: reserva.reservaId.rawValue,
                titulo: recusada ? "Pagamento recusado: \(espaco?.nome ?? "espaço"), \(quando)" : "Reserva cancelada", texto: texto,
                anexos: convidado
                    ? [EmailAttachment(
                        filename: "reserva.ics", contentType: Calendario.contentTypeDeCancelamento,
                        data: convite(reserva, espaco, unidade, em: cancelada.em, cancelado: true))]
                    : [])
        case Pagamento.Catalogo.reembolsoConcluido:
            let reembolso = try decoder.decode(Pagamento.ReembolsoConcluido.self, from: event.data)
            return Aviso(
                tipo: .reembolso, usuarioId: reembolso.usuarioId, reservaId: reembolso.reservaId,
                titulo: "Reembolso concluído: \(Self.reais(reembolso.valor))",
                texto: "Devolvemos \(Self.reais(reembolso.valor)) referentes \(try await Self.descricao(contexto(Reserva.ID(reembolso.reservaId)), artigo: "à")).")
        case Checkin.Catalogo.noShowRegistrado:
            struct NoShow: Decodable { let reservaId: UUID }
            let noShow = try decoder.decode(NoShow.self, from: event.data)
            guard let (reserva, espaco, unidade, _) = try await contexto(Reserva.ID(noShow.reservaId)) else { return nil }
            return Aviso(
                tipo: .noShow, usuarioId: reserva.usuarioId, reservaId: noShow.reservaId, titulo: "Não registramos sua entrada",
                texto: "Não houve check-in na sua reserva de \(espaco?.nome ?? "espaço") (\(Self.quando(reserva.intervalo, fuso: unidade?.fusoHorario))). "
                    + "O restante do horário foi liberado.")
        case Reserva.Catalogo.expirada:
            let expirada = try decoder.decode(Reserva.Expirada.self, from: event.data)
            guard let (reserva, espaco, unidade, _) = try await contexto(expirada.reservaId) else { return nil }
            let nome = espaco?.nome ?? "espaço"
            let quando = Self.quando(reserva.intervalo, fuso: unidade?.fusoHorario)
            return Aviso(
                tipo: .expiracao, usuarioId: reserva.usuarioId, reservaId: reserva.reservaId.rawValue,
                titulo: "Reserva expirada: \(nome), \(quando)",
                texto: "O prazo para pagar a sua reserva de \(nome) (\(quando)) acabou e o horário foi liberado; nada foi cobrado. "
                    + "Se ainda quiser o espaço, faça uma nova reserva.")
        default:
            return nil
        }
    }

    /// Sends `aviso` by e-mail (retrying) and returns the record of how it went. A member whose
    /// data was erased gets nothing.
    func entregar(_ aviso: Aviso, id: UUID, meta: EventMetadata) async throws -> [StreamWrite] {
        guard let pessoa = try await contato(aviso.usuarioId), !pessoa.email.isEmpty else { return [] }
        let messageId = "\(id.uuidString.lowercased())@coworkflow"
        let saudacao = pessoa.nome.isEmpty ? "Olá," : "Olá, \(pessoa.nome.split(separator: " ").first.map(String.init) ?? pessoa.nome),"
        let mensagem = EmailMessage(
            from: remetente, to: [EmailAddress(pessoa.email, name: pessoa.nome.isEmpty ? nil : pessoa.nome)], subject: aviso.titulo,
            text: "\(saudacao)\n\n\(aviso.texto)\n\nEquipe CoworkFlow\n", attachments: aviso.anexos, messageId: messageId, date: clock.now,
            pessoa: aviso.usuarioId)
        var erro = ""
        var passageiro: (any Error)?
        var tentativa = 0
        var pausa = self.pausa
        while tentativa < tentativas {
            tentativa += 1
            do {
                try await mailer.send(mensagem)
                erro = ""
                passageiro = nil
                break
            } catch {
                // Never the server's reply text: it may name the member's address (LGPD).
                erro = (error as? MailerError)?.semDadosPessoais ?? "e-mail failed: \(type(of: error))"
                logger.warning("e-mail failed", metadata: ["tipo": "\(aviso.tipo.rawValue)", "tentativa": "\(tentativa)", "erro": "\(erro)"])
                if let mailerError = error as? MailerError, !mailerError.isTransient {
                    passageiro = nil
                    break
                }
                passageiro = error
                if tentativa < tentativas {
                    try await Task.sleep(for: pausa)
                    pausa = pausa * 2
                }
            }
        }
        // A failure that may pass (a relay restarting, a 4xx, greylisting) is not the message's
        // end: it is thrown, and the bus tries the event again with its own, longer backoff,
        // then sets it aside as a dead letter that an operator can retry
        // (`coworkflow admin dead-letters --retry`); a reminder stays due for the timer's next pass.
        // Only a refusal that will not change (5xx, an invalid message) is recorded as failed.
        if let passageiro { throw passageiro }
        let now = clock.now
        let event: Notificacao.Event = erro.isEmpty
            ? .enviada(Notificacao.Enviada(
                notificacaoId: id, usuarioId: aviso.usuarioId, tipo: aviso.tipo, canal: "email", titulo: aviso.titulo, texto: aviso.texto,
                reservaId: aviso.reservaId, messageId: messageId, tentativas: tentativa, em: now))
            : .falhou(Notificacao.Falhou(
                notificacaoId: id, usuarioId: aviso.usuarioId, tipo: aviso.tipo, canal: "email", titulo: aviso.titulo, texto: aviso.texto,
                reservaId: aviso.reservaId, erro: String(erro.prefix(500)), tentativas: tentativa, em: now))
        let stream = StreamName(category: "notificacao", id: id.uuidString.lowercased())
        return [StreamWrite(stream: stream, expected: .noStream, events: try Events.derived([event], from: id.uuidString, at: now, metadata: meta))]
    }

    /// The booking as a person names it ("a reserva de Sala Ipê (seg., 25/11, 10:00–11:00)"),
    /// never its id; "a reserva" when it cannot be read.
    static func descricao(_ contexto: (Reserva.Solicitada, EspacoView?, UnidadeView?, convidado: Bool)?, artigo: String = "a") -> String {
        guard let (reserva, espaco, unidade, _) = contexto else { return "\(artigo) reserva" }
        return "\(artigo) reserva de \(espaco?.nome ?? "espaço") (\(quando(reserva.intervalo, fuso: unidade?.fusoHorario)))"
    }

    /// The booking's check-in code once checkin issued it (it reacts to the same confirmation):
    /// looked for a few times over about two seconds, then nil (the e-mail goes without it and
    /// points to where the code is shown).
    private func codigoDeCheckin(_ id: Reserva.ID) async throws -> String? {
        for tentativa in 0..<8 {
            if tentativa > 0 { try await Task.sleep(for: .milliseconds(250)) }
            for recorded in try await store.readStream(StreamNames.checkin(id)) {
                if case .liberado(let liberado)? = try Checkin.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) {
                    return liberado.codigo.texto
                }
            }
        }
        return nil
    }

    /// The booking's calendar event: the invitation, or its cancellation (same `UID`).
    private func convite(_ reserva: Reserva.Solicitada, _ espaco: EspacoView?, _ unidade: UnidadeView?, em: Date, cancelado: Bool) -> Data {
        let nome = espaco?.nome ?? "espaço"
        let local = unidade.map { "\($0.nome) — \($0.endereco.logradouro), \($0.endereco.numero), \($0.endereco.cidade)/\($0.endereco.uf)" }
        return Calendario.evento(
            uid: "reserva-\(reserva.reservaId)@coworkflow", inicio: reserva.intervalo.start, fim: reserva.intervalo.end,
            resumo: "Reserva: \(nome)", local: local, descricao: "Reserva \(reserva.reservaId) — \(Self.reais(reserva.total))",
            criadoEm: em, organizador: remetente.address, cancelado: cancelado)
    }

    /// The booking, its space and unit; nil for none, or when `confirmada` asks for a booking
    /// confirmed now (its own stream, never a read model that may lag a cancellation).
    /// `convidado`: the booking was confirmed at some point, so the member's calendar has the
    /// invitation the confirmation carried (a cancellation withdraws it).
    private func contexto(_ id: Reserva.ID, confirmada: Bool = false) async throws
        -> (Reserva.Solicitada, EspacoView?, UnidadeView?, convidado: Bool)?
    {
        let eventos = try await store.readStream(StreamNames.reserva(id))
        guard let first = eventos.first, first.type == Reserva.Catalogo.solicitada.type else { return nil }
        if confirmada, eventos.last?.type != Reserva.Catalogo.confirmada.type { return nil }
        let reserva = try EventJSON.decoder.decode(Reserva.Solicitada.self, from: first.data)
        let espaco = try await store.document(CatalogoReadModel.espacos, key: reserva.espacoId.uuidString.lowercased())
            .flatMap { try? ReadModelJSON.decoder.decode(EspacoView.self, from: $0) }
        let unidade = try await store.document(CatalogoReadModel.unidades, key: reserva.unidadeId.uuidString.lowercased())
            .flatMap { try? ReadModelJSON.decoder.decode(UnidadeView.self, from: $0) }
        return (reserva, espaco, unidade, eventos.contains { $0.type == Reserva.Catalogo.confirmada.type })
    }

    // MARK: Reminders (timer)

    /// Sends every reminder that is due (`lembreteHoras` before a confirmed booking's start,
    /// which has not started yet). Returns how many it sent or recorded as failed.
    @discardableResult
    public func enviarLembretesVencidos(limite: Int = 200) async throws -> Int {
        let now = clock.now
        // The list is sorted by start and keeps a booking until it ends (weeks, for a long one):
        // those already started lead it. The due ones come after them, found by a binary
        // search (a handful of one-document reads), or a page of started bookings would hide
        // every reminder behind it.
        let colecao = NotificacoesReadModel.lembretes
        let total = try await store.count(colecao, grupo: "prazo")
        let futuros = try await store.primeiro(colecao, grupo: "prazo", total: total, LembreteView.self) { $0.inicio > now }
        let lembretes = try await store.documents(colecao, grupo: "prazo", limit: limite, offset: futuros)
            .map { try ReadModelJSON.decoder.decode(LembreteView.self, from: $0) }
        var feitos = 0
        var primeiraFalha: (any Error)?
        for lembrete in lembretes {
            guard lembrete.inicio.addingTimeInterval(-Double(lembreteHoras) * 3_600) <= now else { break }  // sorted by start
            guard lembrete.inicio > now, let reservaId = UUID(uuidString: lembrete.reservaId) else { continue }
            let id = Events.derivedId("lembrete", lembrete.reservaId)
            let stream = StreamName(category: "notificacao", id: id.uuidString.lowercased())
            guard try await store.readStream(stream).isEmpty else { continue }
            // Cancelled (or expired) while the reminders' read model had not caught up: nothing to remind.
            guard let (reserva, espaco, unidade, _) = try await contexto(Reserva.ID(reservaId), confirmada: true) else { continue }
            let quando = Self.quando(reserva.intervalo, fuso: unidade?.fusoHorario)
            let aviso = Aviso(
                tipo: .lembrete, usuarioId: reserva.usuarioId, reservaId: reservaId, titulo: "Lembrete: \(espaco?.nome ?? "sua reserva"), \(quando)",
                texto: "Sua reserva de \(espaco?.nome ?? "espaço") começa em \(quando). O check-in abre pouco antes do início.")
            let meta = EventMetadata(correlationId: reservaId, actor: "system:notificacoes", requestId: "lembretes", service: Self.service)
            do {
                let writes = try await entregar(aviso, id: id, meta: meta)
                guard !writes.isEmpty else { continue }  // nobody to tell (the member erased their data)
                try await store.append(writes)
                feitos += 1
            } catch is WrongExpectedVersion {
                continue  // another replica sent it
            } catch {
                // One reminder that cannot be sent must not hold up the ones due after it.
                primeiraFalha = primeiraFalha ?? error
            }
        }
        if let primeiraFalha { throw primeiraFalha }
        return feitos
    }

    // MARK: Queries

    /// The member's in-app inbox, newest first.
    public func caixaDeEntrada(usuario: String, pagina: Int) async throws -> CaixaDeEntrada {
        let decoder = ReadModelJSON.decoder
        let lidaAte = try await store.document(NotificacoesReadModel.leitura, key: usuario).map { try decoder.decode(LeituraView.self, from: $0).ate }
        func lida(_ aviso: NotificacaoView) -> Bool { lidaAte.map { aviso.em <= $0 } ?? false }
        let docs = try await store.documents(NotificacoesReadModel.caixa, grupo: usuario, limit: 50, offset: (pagina - 1) * 50)
        let itens = try docs.map { try decoder.decode(NotificacaoView.self, from: $0) }
        // Newest first: the unread ones are the first, so counting stops at the first read one
        // (or at ``CaixaDeEntrada/maximoDeNaoLidas``).
        var naoLidas = 0
        var offset = 0
        contar: while naoLidas < CaixaDeEntrada.maximoDeNaoLidas {
            let lote = offset == (pagina - 1) * 50 ? itens
                : try await store.documents(NotificacoesReadModel.caixa, grupo: usuario, limit: 50, offset: offset).map {
                    try decoder.decode(NotificacaoView.self, from: $0)
                }
            for aviso in lote {
                if lida(aviso) || naoLidas == CaixaDeEntrada.maximoDeNaoLidas { break contar }
                naoLidas += 1
            }
            guard lote.count == 50 else { break }
            offset += 50
        }
        return CaixaDeEntrada(
            itens: itens.map { CaixaDeEntrada.Item($0, lida: lida($0)) },
            total: try await store.count(NotificacoesReadModel.caixa, grupo: usuario), pagina: pagina, naoLidas: naoLidas)
    }

    /// Marks every notice the member has now as read.
    public func marcarComoLidas(usuario: String, caller: Caller) async throws {
        let now = clock.now
        let meta = EventMetadata(actor: usuario, requestId: caller.requestId, service: Self.service)
        let event = Notificacao.Event.lidas(Notificacao.Lidas(usuarioId: usuario, ate: now))
        try await store.append(
            to: StreamName(category: "notificacao", id: "leitura-\(usuario)"), expected: .any,
            events: [try NewEvent(eventId: UUID(), event: event, metadata: meta, occurredAt: now)])
    }

    /// A page of the inbox, each notice read or not, and how many are unread.
    public struct CaixaDeEntrada: Encodable, Sendable {
        /// Unread notices are counted up to this many ("99+" for a person).
        public static let maximoDeNaoLidas = 100

        /// A notice as the inbox read model holds it, with whether it is read: encoded as the
        /// notice's fields plus `lida`.
        public struct Item: Encodable, Sendable {
            public let aviso: NotificacaoView
            public let lida: Bool

            init(_ aviso: NotificacaoView, lida: Bool) {
                self.aviso = aviso
                self.lida = lida
            }

            private enum CodingKeys: String, CodingKey { case lida }

            public func encode(to encoder: any Encoder) throws {
                try aviso.encode(to: encoder)
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(lida, forKey: .lida)
            }
        }

        public let itens: [Item]
        public let total: Int
        public let pagina: Int
        /// Unread notices in the whole inbox (at most ``maximoDeNaoLidas``).
        public let naoLidas: Int
    }

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

    /// `25/12/2026, 09:00–11:00` in the unit's time zone; with the end's date too when it falls
    /// on another day (`01/03/2026, 09:00 – 05/03/2026, 18:00`, or past midnight).
    static func quando(_ intervalo: TimeRange, fuso: String?) -> String {
        let zone = fuso.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "America/Sao_Paulo") ?? .gmt
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
        }
    }
}
