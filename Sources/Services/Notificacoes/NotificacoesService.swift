public import Domain
import EventStore
import Foundation
public import Logging
import Messaging

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
    /// Days a letter or parcel waits at the front desk before its member is reminded, once
    /// (0: never).
    public let lembreteDeCorrespondenciaDias: Int
    let tentativas: Int
    let pausa: Duration
    /// Opens a field sealed by the vault (nil: erased), e.g. an invitation's address and link.
    let abrir: @Sendable (String) async throws -> String?
    let enderecoPublico: String?

    public static let consumidor = "notificacoes"
    public static let bindings = [
        Topology.routingKey(Usuario.Catalogo.registrado), Topology.routingKey(Reserva.Catalogo.confirmada),
        Topology.routingKey(Reserva.Catalogo.cancelada), Topology.routingKey(Reserva.Catalogo.remarcada),
        Topology.routingKey(Pagamento.Catalogo.confirmado), Topology.routingKey(Pagamento.Catalogo.reembolsoConcluido),
        Topology.routingKey(Checkin.Catalogo.noShowRegistrado),
        Topology.routingKey(Usuario.Catalogo.dadosPessoaisApagados), Topology.routingKey(Reserva.Catalogo.expirada),
        Topology.routingKey(Assinatura.Catalogo.cobrancaConfirmada), Topology.routingKey(Assinatura.Catalogo.cobrancaRecusada),
        Topology.routingKey(Assinatura.Catalogo.suspensa), Topology.routingKey(Assinatura.Catalogo.reativada),
        Topology.routingKey(Assinatura.Catalogo.cobrancaEmitida), Topology.routingKey(Assinatura.Catalogo.duplicadoDevolvido),
        Topology.routingKey(Empresa.Catalogo.conviteEnviado), Topology.routingKey(Assinatura.Catalogo.cicloIniciado),
        Topology.routingKey(CompraDePacote.Catalogo.paga), Topology.routingKey(CompraDePacote.Catalogo.reembolsada),
        Topology.routingKey(Visita.Catalogo.registrada), Topology.routingKey(Visita.Catalogo.cancelada),
        Topology.routingKey(Visita.Catalogo.chegou), Topology.routingKey(SerieDeReservas.Catalogo.criada),
        Topology.routingKey(SerieDeReservas.Catalogo.cancelada), Topology.routingKey(SerieDeReservas.Catalogo.remarcada),
        Topology.routingKey(Encomenda.Catalogo.registrada), Topology.routingKey(Encomenda.Catalogo.cancelada),
        Topology.routingKey(Chamado.Catalogo.respondido), Topology.routingKey(Chamado.Catalogo.resolvido),
        Topology.routingKey(Encontro.Catalogo.inscrito), Topology.routingKey(Encontro.Catalogo.vagaConcedida),
        Topology.routingKey(Encontro.Catalogo.desistiu), Topology.routingKey(Tour.Catalogo.agendado),
        Topology.routingKey(Tour.Catalogo.cancelado), Topology.routingKey(Tour.Catalogo.dadosApagados),
    ]
    static let service = "notificacoes"

    public init(
        store: any ServiceStore, clock: any WallClock, mailer: any Mailer, remetente: EmailAddress,
        contato: @escaping @Sendable (String) async throws -> Contato?, lembreteHoras: Int = 24, lembreteDeCorrespondenciaDias: Int = 3,
        tentativas: Int = 3,
        pausa: Duration = .milliseconds(500), abrir: @escaping @Sendable (String) async throws -> String? = { _ in nil },
        enderecoPublico: String? = nil, logger: Logger
    ) {
        self.store = store
        self.clock = clock
        self.mailer = mailer
        self.remetente = remetente
        self.contato = contato
        self.lembreteHoras = lembreteHoras
        self.lembreteDeCorrespondenciaDias = max(0, lembreteDeCorrespondenciaDias)
        self.tentativas = max(1, tentativas)
        self.pausa = pausa
        self.abrir = abrir
        self.enderecoPublico = enderecoPublico
        self.logger = logger
    }

    /// A subscription as its stream holds it now (how its cycles are charged).
    var assinaturas: AggregateStore<Assinatura.Command, Assinatura.State, Assinatura.Event, Assinatura.Failure> {
        AggregateStore(store: store, decider: Assinatura.decider) {
            try Assinatura.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    /// What to say, to whom, about what.
    struct Aviso {
        let tipo: Notificacao.Tipo
        let usuarioId: String
        let reservaId: UUID?
        let titulo: String
        let texto: String
        var anexos: [EmailAttachment] = []
        /// Someone who may have no account yet (an invitation's address): sent here instead of
        /// the member's contact.
        var destino: Contato? = nil
        /// The e-mail's body when it must say more than the stored record (a secret link).
        var textoDoEmail: String? = nil
    }
}
