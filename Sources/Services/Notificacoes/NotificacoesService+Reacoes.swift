import Domain
public import EventStore
import Foundation
import Projections

extension NotificacoesService {
    // MARK: Reactions

    public func reagir(_ event: RecordedEvent) async throws -> [StreamWrite] {
        if event.type == Usuario.Catalogo.dadosPessoaisApagados.type {
            // The copies of the member's e-mails this process kept (an outbox) go with their data.
            guard case .dadosPessoaisApagados(let apagados)? = try Usuario.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder)
            else { return [] }
            try await mailer.esquecer(pessoa: apagados.usuarioId.description)
            return []
        }
        if event.type == Tour.Catalogo.dadosApagados.type {
            // Likewise the copies of a prospect's tour e-mails (`tour:<id>`).
            guard case .dadosApagados(let apagados)? = try Tour.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder)
            else { return [] }
            try await mailer.esquecer(pessoa: "tour:\(apagados.tourId)")
            return []
        }
        var meta = event.metadata.caused(by: event.eventId, correlationId: event.metadata.correlationId)
        meta.service = Self.service
        meta.actor = "system:notificacoes"
        // A tour's booking or cancellation on the public site also tells the unit's team, when it
        // gave a mailbox: first, so that a retry after a failure there sends the prospect's once.
        var writes: [StreamWrite] = []
        if event.type == Tour.Catalogo.agendado.type || event.type == Tour.Catalogo.cancelado.type,
            let tour = try Tour.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder),
            let equipe = try await avisoDeTourParaEquipe(tour)
        {
            writes += try await entregar(equipe, id: Events.derivedId("notificacao", event.eventId, "equipe"), meta: meta)
        }
        guard let aviso = try await aviso(for: event) else { return writes }
        return writes + (try await entregar(aviso, id: Events.derivedId("notificacao", event.eventId), meta: meta))
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
            // An occurrence of a series: the series' one notice invited the member to all of them.
            guard reserva.serie == nil else { return nil }
            let quando = Self.quando(reserva.intervalo, fuso: unidade?.fusoHorario)
            let nome = espaco?.nome ?? "espaço"
            let ics = convite(reserva, espaco, unidade, em: confirmada.em, cancelado: false)
            let codigo = try await codigoDeCheckin(confirmada.reservaId)
            return Aviso(
                tipo: .reservaConfirmada, usuarioId: reserva.usuarioId, reservaId: reserva.reservaId.rawValue,
                titulo: "Reserva confirmada: \(nome), \(quando)",
                texto: "Sua reserva de \(nome) (\(quando)) está confirmada. Total: \(Self.reais(reserva.total)). "
                    + (codigo.map {
                        "Seu código de check-in é \($0): apresente-o na recepção ao chegar (ele também está, com o QR, em Minhas reservas). "
                    }
                        ?? "Apresente o código de check-in na chegada: ele está, com o QR, em Minhas reservas. ")
                    + "O convite para a sua agenda segue em anexo.",
                anexos: [EmailAttachment(filename: "reserva.ics", contentType: Calendario.contentType, data: ics)])
        case Pagamento.Catalogo.confirmado:
            let pago = try decoder.decode(Pagamento.Confirmado.self, from: event.data)
            guard pago.valor > .zero else { return nil }
            let contexto = try await contexto(Reserva.ID(pago.reservaId))
            // An occurrence of a series, charged as it was booked: the series' notice said so
            // (a declined charge is still told, as the booking's cancellation).
            guard contexto?.0.serie == nil else { return nil }
            return Aviso(
                tipo: .pagamentoRecebido, usuarioId: pago.usuarioId, reservaId: pago.reservaId,
                titulo: "Pagamento recebido: \(Self.reais(pago.valor))",
                texto: "Recebemos \(Self.reais(pago.valor)) por \(Self.metodo(pago.metodo)) para \(Self.descricao(contexto))."
            )
        case Reserva.Catalogo.remarcada:
            return try await remarcacao(decoder.decode(Reserva.Remarcada.self, from: event.data))
        case SerieDeReservas.Catalogo.criada:
            return try await serieReservada(decoder.decode(SerieDeReservas.Criada.self, from: event.data), em: event.occurredAt)
        case SerieDeReservas.Catalogo.cancelada:
            return try await serieCancelada(decoder.decode(SerieDeReservas.Cancelada.self, from: event.data))
        case SerieDeReservas.Catalogo.remarcada:
            return try await serieRemarcada(decoder.decode(SerieDeReservas.Remarcada.self, from: event.data))
        case Reserva.Catalogo.cancelada:
            let cancelada = try decoder.decode(Reserva.Cancelada.self, from: event.data)
            // Cancelled with the rest of its series: the series' one notice tells them all.
            guard cancelada.daSerie != true else { return nil }
            guard let (reserva, espaco, unidade, convidado) = try await contexto(cancelada.reservaId) else { return nil }
            let quando = Self.quando(reserva.intervalo, fuso: unidade?.fusoHorario)
            var texto = "Sua reserva de \(espaco?.nome ?? "espaço") (\(quando)) foi cancelada."
            if let motivo = Self.motivo(cancelada.motivo) { texto += " \(motivo)" }
            if cancelada.reembolso > .zero {
                texto += " Você receberá \(Self.reais(cancelada.reembolso)) de volta"
                texto += cancelada.multa > .zero ? " (multa de \(Self.reais(cancelada.multa)))." : "."
            }
            if convidado { texto += " Em anexo, o cancelamento do convite para a sua agenda." }
            // Above the invitation's last revision: each move of the booking sent it again.
            let sequencia = convidado ? (try await self.reserva(cancelada.reservaId)?.remarcacoes ?? 0) : 0
            // A hold whose payment the provider declined is not a cancellation the member asked for.
            let recusada = cancelada.por == "system:pagamentos"
            if recusada {
                texto =
                    "O pagamento da sua reserva de \(espaco?.nome ?? "espaço") (\(quando)) foi recusado e o horário foi liberado; nada foi cobrado."
            }
            return Aviso(
                tipo: .cancelamento, usuarioId: reserva.usuarioId, reservaId: reserva.reservaId.rawValue,
                titulo: recusada ? "Pagamento recusado: \(espaco?.nome ?? "espaço"), \(quando)" : "Reserva cancelada", texto: texto,
                anexos: convidado
                    ? [
                        EmailAttachment(
                            filename: "reserva.ics", contentType: Calendario.contentTypeDeCancelamento,
                            data: convite(
                                reserva, espaco, unidade, em: cancelada.em, cancelado: true,
                                sequencia: sequencia))
                    ]
                    : [])
        case Pagamento.Catalogo.reembolsoConcluido:
            let reembolso = try decoder.decode(Pagamento.ReembolsoConcluido.self, from: event.data)
            // The refund a cancellation of its series promised: that notice said how much comes back.
            if let cancelamento = try await reserva(Reserva.ID(reembolso.reservaId))?.cancelamento, cancelamento.daSerie == true,
                cancelamento.reembolso == reembolso.valor
            {
                return nil
            }
            return Aviso(
                tipo: .reembolso, usuarioId: reembolso.usuarioId, reservaId: reembolso.reservaId,
                titulo: "Reembolso concluído: \(Self.reais(reembolso.valor))",
                texto:
                    "Devolvemos \(Self.reais(reembolso.valor)) referentes \(try await Self.descricao(contexto(Reserva.ID(reembolso.reservaId)), artigo: "à"))."
            )
        case Checkin.Catalogo.noShowRegistrado:
            struct NoShow: Decodable { let reservaId: UUID }
            let noShow = try decoder.decode(NoShow.self, from: event.data)
            guard let (reserva, espaco, unidade, _) = try await contexto(Reserva.ID(noShow.reservaId)) else { return nil }
            return Aviso(
                tipo: .noShow, usuarioId: reserva.usuarioId, reservaId: noShow.reservaId, titulo: "Não registramos sua entrada",
                texto:
                    "Não houve check-in na sua reserva de \(espaco?.nome ?? "espaço") (\(Self.quando(reserva.intervalo, fuso: unidade?.fusoHorario))). "
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
        case Assinatura.Catalogo.cobrancaConfirmada:
            let paga = try decoder.decode(Assinatura.CobrancaConfirmada.self, from: event.data)
            return Aviso(
                tipo: .assinatura, usuarioId: paga.titular, reservaId: nil, titulo: "Pagamento da assinatura recebido",
                texto: "Recebemos o pagamento do ciclo \(paga.ciclo) da sua assinatura. Obrigado!")
        case Assinatura.Catalogo.cobrancaRecusada:
            let recusada = try decoder.decode(Assinatura.CobrancaRecusada.self, from: event.data)
            let fuso = Unidade.fuso(nil)
            let depois =
                recusada.proximaTentativa.map { "Tentaremos de novo em \(DataLocal($0, em: fuso).brasileira)." }
                ?? "Foi a última tentativa: a assinatura será suspensa até o pagamento."
            return Aviso(
                tipo: .assinatura, usuarioId: recusada.titular, reservaId: nil, titulo: "Pagamento da assinatura recusado",
                texto: "A cobrança do ciclo \(recusada.ciclo) da sua assinatura foi recusada (\(recusada.motivo)). \(depois) "
                    + "Se preferir, atualize a forma de pagamento ou fale com a recepção.")
        case Assinatura.Catalogo.suspensa:
            let suspensa = try decoder.decode(Assinatura.Suspensa.self, from: event.data)
            return Aviso(
                tipo: .assinatura, usuarioId: suspensa.titular, reservaId: nil, titulo: "Assinatura suspensa por falta de pagamento",
                texto: "Não conseguimos cobrar o ciclo \(suspensa.ciclo) da sua assinatura. Os benefícios do plano ficam suspensos até o pagamento; "
                    + "se o ciclo terminar sem pagamento, a assinatura será encerrada.")
        case Empresa.Catalogo.conviteEnviado:
            return try await convite(try decoder.decode(Empresa.ConviteEnviado.self, from: event.data))
        case Visita.Catalogo.registrada:
            return try await conviteDeVisita(try decoder.decode(Visita.Registrada.self, from: event.data))
        case Visita.Catalogo.cancelada:
            return try await cancelamentoDeVisita(try decoder.decode(Visita.Ocorrencia.self, from: event.data))
        case Visita.Catalogo.chegou:
            return try await chegadaDeVisita(try decoder.decode(Visita.Ocorrencia.self, from: event.data))
        case Encomenda.Catalogo.registrada:
            return try await correspondencia(try decoder.decode(Encomenda.Registrada.self, from: event.data))
        case Encomenda.Catalogo.cancelada:
            return try await correspondenciaCancelada(try decoder.decode(Encomenda.Ocorrencia.self, from: event.data))
        case Chamado.Catalogo.respondido:
            return try await respostaDeChamado(try decoder.decode(Chamado.Respondido.self, from: event.data))
        case Chamado.Catalogo.resolvido:
            return try await chamadoResolvido(try decoder.decode(Chamado.Ocorrencia.self, from: event.data))
        case Tour.Catalogo.agendado, Tour.Catalogo.cancelado:
            guard let tour = try Tour.Event.decode(type: event.type, data: event.data, using: decoder) else { return nil }
            return try await avisoDeTour(tour)
        case Encontro.Catalogo.inscrito, Encontro.Catalogo.vagaConcedida, Encontro.Catalogo.desistiu:
            guard let encontro = try Encontro.Event.decode(type: event.type, data: event.data, using: decoder) else { return nil }
            return try await avisoDeEncontro(encontro)
        case Assinatura.Catalogo.cobrancaEmitida:
            // A cycle to pay by PIX or boleto: its code, by e-mail (a card is charged by itself;
            // its outcome has its own e-mails).
            let emitida = try decoder.decode(Assinatura.CobrancaEmitida.self, from: event.data)
            let emissao = emitida.emissao
            let fuso = Unidade.fuso(nil)
            let valor = Self.reais(Money(centavos: emissao.valorCentavos))
            let codigo: String
            if let pix = emissao.cobranca.pix {
                codigo = "Pague com o PIX copia e cola:\n\n\(pix.copiaECola)"
            } else if let boleto = emissao.cobranca.boleto {
                codigo = "Linha digitável do boleto (vence em \(DataLocal(boleto.vencimento, em: fuso).brasileira)):\n\n\(boleto.linhaDigitavel)"
            } else {
                return nil
            }
            let texto = "A cobrança do ciclo \(emissao.ciclo) da sua assinatura, de \(valor), está disponível em Meu plano."
            return Aviso(
                tipo: .assinatura, usuarioId: emitida.titular, reservaId: nil, titulo: "Cobrança da assinatura: ciclo \(emissao.ciclo)", texto: texto,
                textoDoEmail: "\(texto)\n\n\(codigo)")
        case Assinatura.Catalogo.duplicadoDevolvido:
            let devolvido = try decoder.decode(Assinatura.PagamentoDuplicadoDevolvido.self, from: event.data)
            return Aviso(
                tipo: .assinatura, usuarioId: devolvido.titular, reservaId: nil, titulo: "Pagamento em duplicidade devolvido",
                texto: "O ciclo \(devolvido.ciclo) da sua assinatura já estava pago quando recebemos outro pagamento dele; "
                    + "devolvemos \(Self.reais(Money(centavos: devolvido.valorCentavos))) pelo mesmo meio.")
        case Assinatura.Catalogo.cicloIniciado:
            // A card renews by itself: the member hears of it (PIX and boleto cycles have the
            // charge's e-mail with its code; the first cycle is the subscription itself).
            let iniciado = try decoder.decode(Assinatura.CicloIniciado.self, from: event.data)
            guard iniciado.ciclo.numero > 1,
                case .existente(let dados) = try await assinaturas.load(StreamNames.assinatura(iniciado.titular)).state,
                dados.cobranca.metodo == .cartao
            else { return nil }
            return Aviso(
                tipo: .assinatura, usuarioId: iniciado.titular, reservaId: nil, titulo: "Assinatura renovada: ciclo \(iniciado.ciclo.numero)",
                texto: Self.renovacao(iniciado.ciclo))
        case CompraDePacote.Catalogo.paga:
            let paga = try decoder.decode(CompraDePacote.Paga.self, from: event.data)
            return Aviso(
                tipo: .pagamentoRecebido, usuarioId: paga.titular, reservaId: nil, titulo: "Pacote pago: \(paga.lote.descricao)",
                texto: Self.pacotePago(paga.lote))
        case CompraDePacote.Catalogo.reembolsada:
            let reembolso = try decoder.decode(CompraDePacote.Reembolsada.self, from: event.data)
            return Aviso(
                tipo: .pagamentoRecebido, usuarioId: reembolso.titular, reservaId: nil, titulo: "Pacote reembolsado: \(reembolso.nome)",
                texto: Self.pacoteReembolsado(reembolso))
        case Assinatura.Catalogo.reativada:
            let reativada = try decoder.decode(Assinatura.Reativada.self, from: event.data)
            return Aviso(
                tipo: .assinatura, usuarioId: reativada.titular, reservaId: nil, titulo: "Assinatura reativada",
                texto: "Recebemos o pagamento e sua assinatura está ativa de novo, com todos os benefícios do plano.")
        default:
            return nil
        }
    }

    /// Sends `aviso` by e-mail (retrying) and returns the record of how it went. A member whose
    /// data was erased gets nothing.
    func entregar(_ aviso: Aviso, id: UUID, meta: EventMetadata) async throws -> [StreamWrite] {
        var destino = aviso.destino
        if destino == nil { destino = try await contatoDaEmpresa(aviso.usuarioId) }
        if destino == nil { destino = try await contato(aviso.usuarioId) }
        guard let pessoa = destino, !pessoa.email.isEmpty else { return [] }
        let messageId = "\(id.lowercasedString)@coworkflow"
        let saudacao = pessoa.nome.isEmpty ? "Olá," : "Olá, \(pessoa.nome.split(separator: " ").first.map(String.init) ?? pessoa.nome),"
        let mensagem = EmailMessage(
            from: remetente, to: [EmailAddress(pessoa.email, name: pessoa.nome.isEmpty ? nil : pessoa.nome)], subject: aviso.titulo,
            text: "\(saudacao)\n\n\(aviso.textoDoEmail ?? aviso.texto)\n\nEquipe CoworkFlow\n", attachments: aviso.anexos, messageId: messageId,
            date: clock.now,
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
        let event: Notificacao.Event =
            erro.isEmpty
            ? .enviada(
                Notificacao.Enviada(
                    notificacaoId: id, usuarioId: aviso.usuarioId, tipo: aviso.tipo, canal: "email", titulo: aviso.titulo, texto: aviso.texto,
                    reservaId: aviso.reservaId, messageId: messageId, tentativas: tentativa, em: now))
            : .falhou(
                Notificacao.Falhou(
                    notificacaoId: id, usuarioId: aviso.usuarioId, tipo: aviso.tipo, canal: "email", titulo: aviso.titulo, texto: aviso.texto,
                    reservaId: aviso.reservaId, erro: String(erro.prefix(500)), tentativas: tentativa, em: now))
        let stream = StreamName(category: "notificacao", id: id.lowercasedString)
        return [
            StreamWrite(stream: stream, expected: .noStream, events: try Events.derived([event], from: id.uppercasedString, at: now, metadata: meta))
        ]
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

    /// The booking's calendar event: the invitation, or its cancellation (same `UID`);
    /// `sequencia`: how many times it was moved (each move sent the invitation again).
    private func convite(
        _ reserva: Reserva.Solicitada, _ espaco: EspacoView?, _ unidade: UnidadeView?, em: Date, cancelado: Bool, sequencia: Int = 0
    ) -> Data {
        Calendario.eventos(
            [Self.evento(reserva, espaco, unidade, sequencia: sequencia)], criadoEm: em, organizador: remetente.address, cancelado: cancelado)
    }

    /// A booking as its calendar event (`UID` `reserva-<id>@coworkflow`, the same in every notice).
    static func evento(_ reserva: Reserva.Solicitada, _ espaco: EspacoView?, _ unidade: UnidadeView?, sequencia: Int = 0) -> Calendario.Evento {
        let local = unidade.map { "\($0.nome) — \($0.endereco.logradouro), \($0.endereco.numero), \($0.endereco.cidade)/\($0.endereco.uf)" }
        return Calendario.Evento(
            uid: "reserva-\(reserva.reservaId)@coworkflow", inicio: reserva.intervalo.start, fim: reserva.intervalo.end,
            resumo: "Reserva: \(espaco?.nome ?? "espaço")", local: local, descricao: "Reserva \(reserva.reservaId) — \(Self.reais(reserva.total))",
            sequencia: sequencia)
    }

    /// A moved booking's notice, with the invitation at its new time (same `UID`, the next
    /// `SEQUENCE`: calendars move the event). Nothing once it was cancelled (its cancellation
    /// tells), when it is gone, or when it moved with its series (the series' notice tells).
    private func remarcacao(_ e: Reserva.Remarcada) async throws -> Aviso? {
        // Moved with the rest of its series: the series' one notice tells them all.
        guard e.daSerie != true else { return nil }
        guard let dados = try await reserva(e.reservaId), dados.status == .confirmada else { return nil }
        let reserva = dados.solicitacao
        let (espaco, unidade) = try await lugar(reserva)
        let nome = espaco?.nome ?? "espaço"
        let antes = Self.quando(e.de, fuso: unidade?.fusoHorario)
        let depois = Self.quando(e.para, fuso: unidade?.fusoHorario)
        let quem = e.por == reserva.usuarioId ? "Você mudou" : "A recepção mudou"
        return Aviso(
            tipo: .remarcacao, usuarioId: reserva.usuarioId, reservaId: reserva.reservaId.rawValue,
            titulo: "Reserva remarcada: \(nome), \(depois)",
            texto: "\(quem) o horário da sua reserva de \(nome): era \(antes), agora é \(depois). "
                + "O valor, o pagamento e o código de check-in continuam os mesmos. Em anexo, o convite atualizado para a sua agenda.",
            anexos: [
                EmailAttachment(
                    filename: "reserva.ics", contentType: Calendario.contentType,
                    data: convite(reserva, espaco, unidade, em: e.em, cancelado: false, sequencia: dados.remarcacoes))
            ])
    }

    /// The booking (its time as last moved), its space and unit; nil for none, or when
    /// `confirmada` asks for a booking confirmed now (its own stream, never a read model that may
    /// lag a cancellation). `convidado`: the booking was confirmed at some point, or is an
    /// occurrence of a series (whose notice invited the member to all of them), so the member's
    /// calendar has the invitation (a cancellation withdraws it).
    func contexto(
        _ id: Reserva.ID, confirmada: Bool = false
    ) async throws
        -> (Reserva.Solicitada, EspacoView?, UnidadeView?, convidado: Bool)?
    {
        guard let dados = try await reserva(id) else { return nil }
        if confirmada, dados.status != .confirmada { return nil }
        let reserva = dados.solicitacao
        let (espaco, unidade) = try await lugar(reserva)
        return (reserva, espaco, unidade, reserva.serie != nil || dados.confirmadaEm != nil)
    }

    /// The booking as its stream says now (its time as last moved, ``Reserva/Remarcada``); nil
    /// for none.
    func reserva(_ id: Reserva.ID) async throws -> Reserva.Dados? {
        try Self.dados(try await store.readStream(StreamNames.reserva(id)))
    }

    /// Each of the bookings `ids` as its stream says now, in one read (absent: none).
    func reservas(_ ids: [Reserva.ID]) async throws -> [Reserva.ID: Reserva.Dados] {
        let lidos = try await store.readStreams(ids.map { StreamRead(StreamNames.reserva($0), from: 1) })
        var reservas: [Reserva.ID: Reserva.Dados] = [:]
        for id in ids {
            if let dados = try Self.dados(lidos[StreamNames.reserva(id)] ?? []) { reservas[id] = dados }
        }
        return reservas
    }

    /// A booking's stream folded (nil: not a booking's).
    private static func dados(_ eventos: [RecordedEvent]) throws -> Reserva.Dados? {
        guard eventos.first?.type == Reserva.Catalogo.solicitada.type else { return nil }
        let decodificados = try eventos.compactMap { try Reserva.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
        guard case .existente(let dados) = Reserva.decider.fold(decodificados) else { return nil }
        return dados
    }

    /// The booking's space and unit as the catalog shows them (nil: not there).
    func lugar(_ reserva: Reserva.Solicitada) async throws -> (EspacoView?, UnidadeView?) {
        let espaco = try await store.document(CatalogoReadModel.espacos, key: reserva.espacoId.lowercasedString)
            .flatMap { try? ReadModelJSON.decoder.decode(EspacoView.self, from: $0) }
        let unidade = try await store.document(CatalogoReadModel.unidades, key: reserva.unidadeId.lowercasedString)
            .flatMap { try? ReadModelJSON.decoder.decode(UnidadeView.self, from: $0) }
        return (espaco, unidade)
    }
}
