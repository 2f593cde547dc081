public import Domain
public import EventStore
public import Foundation
public import Integrations
public import Logging
public import Messaging
public import Services

/// What the business services of a process talk to outside it: the payment provider and the
/// mail server, and how reminders are timed.
public struct Integracoes: Sendable {
    public var provider: any PaymentProvider
    /// The secret the provider signs its webhooks with.
    public var segredoDoWebhook: Data
    /// The in-process sandbox PSP (all-in-one), whose webhook target this process sets.
    public var sandbox: SandboxPSP?
    /// Pays or declines the sandbox's charges for a tester (`/api/sandbox/...`): the sandbox in
    /// this process, or the sandbox server. Nil: a real provider, no tester routes.
    public var testador: (any SandboxTester)?
    public var mailer: any Mailer
    public var remetente: EmailAddress
    public var lembreteHoras: Int
    /// Days a letter or parcel waits at the front desk before its member is reminded (0: never).
    public var lembreteDeCorrespondenciaDias = 3
    /// Tries per e-mail, and the first pause between them (doubling).
    public var tentativasDeEmail: Int
    public var pausaDeEmail: Duration
    /// Where people open the web app (`PUBLIC_URL`, e.g. `https://app.example.com`): links in
    /// e-mails (a company's invitation) start with it. Nil: the links are paths only.
    public var enderecoPublico: String?

    public init(
        provider: any PaymentProvider, segredoDoWebhook: Data, sandbox: SandboxPSP?, testador: (any SandboxTester)? = nil, mailer: any Mailer,
        remetente: EmailAddress = SMTPSettings.defaultFrom, lembreteHoras: Int = 24, tentativasDeEmail: Int = 3,
        pausaDeEmail: Duration = .milliseconds(500)
    ) {
        self.provider = provider
        self.segredoDoWebhook = segredoDoWebhook
        self.sandbox = sandbox
        self.testador = testador ?? sandbox
        self.mailer = mailer
        self.remetente = remetente
        self.lembreteHoras = lembreteHoras
        self.tentativasDeEmail = tentativasDeEmail
        self.pausaDeEmail = pausaDeEmail
    }
}

/// The services of the business after the booking: payments, check-in, notifications,
/// finance and analytics.
public struct Negocio: Sendable {
    public let pagamentos: PagamentosService
    public let sandbox: SandboxPSP?
    public let testador: (any SandboxTester)?
    public let notificacoes: NotificacoesService
    public let checkin: CheckinService
    public let financeiro: FinanceiroService
    public let analytics: AnalyticsService
    public let assinaturas: AssinaturasService

    public static func make(
        store: any EventStore, clock: any WallClock, usuarios: UsuariosService, integracoes: Integracoes, logger: Logger
    ) -> Negocio {
        // A member's name as their profile has it; nil for an unknown or erased account.
        let nomeDoMembro: @Sendable (String) async throws -> String? = { usuario in
            do {
                return try await usuarios.perfil(usuario: usuario).nome
            } catch let error as ServiceError where error.kind == .naoEncontrado {
                return nil
            }
        }
        return Negocio(
            pagamentos: PagamentosService(
                store: store, clock: clock, provider: integracoes.provider, segredoDoWebhook: integracoes.segredoDoWebhook, logger: logger,
                contas: .de(usuarios)),
            sandbox: integracoes.sandbox, testador: integracoes.testador,
            notificacoes: NotificacoesService(
                store: store, clock: clock, mailer: integracoes.mailer, remetente: integracoes.remetente,
                contato: { usuario in
                    // No account (or an erased one) is "nobody to tell"; a failing database or
                    // vault is an error, so the event is retried instead of its e-mail dropped.
                    let perfil: UsuariosService.Perfil
                    do {
                        perfil = try await usuarios.perfil(usuario: usuario)
                    } catch let error as ServiceError where error.kind == .naoEncontrado {
                        return nil
                    }
                    return NotificacoesService.Contato(nome: perfil.nome, email: perfil.email)
                },
                lembreteHoras: integracoes.lembreteHoras, lembreteDeCorrespondenciaDias: integracoes.lembreteDeCorrespondenciaDias,
                tentativas: integracoes.tentativasDeEmail, pausa: integracoes.pausaDeEmail,
                abrir: { try await usuarios.cofre.open(SealedField(rawValue: $0)).value }, enderecoPublico: integracoes.enderecoPublico,
                logger: logger),
            checkin: CheckinService(
                store: store, clock: clock, vault: usuarios.cofre,
                nomeDoMembro: nomeDoMembro, esquecerRespostas: { _ = try await store.forgetRequestKeys(mentioning: $0) }),
            financeiro: FinanceiroService(
                store: store, clock: clock,
                nomeDoMembro: nomeDoMembro,
                sede: {
                    let primeira = try await store.readCategory(Unidade.Catalogo.category, after: .start, limit: 1).first
                    return primeira.flatMap { UUID(text: String($0.stream.rawValue.dropFirst(Unidade.Catalogo.category.count + 1))) }
                }),
            analytics: AnalyticsService(store: store, clock: clock),
            assinaturas: AssinaturasService(
                store: store, clock: clock, vault: usuarios.cofre,
                nomeDoMembro: nomeDoMembro))
    }
}

/// A recurring job that must run in one process at a time (a lease in the store).
public struct Temporizador: Sendable {
    public let lease: String
    public let tick: @Sendable () async throws -> Void

    public init(lease: String, tick: @escaping @Sendable () async throws -> Void) {
        self.lease = lease
        self.tick = tick
    }
}

extension Negocio {
    /// The services that react to other services' events (each has a bus consumer).
    public static let reagem: [Deployable] = [.reservas, .pagamentos, .checkin, .financeiro, .notificacoes]
}

extension Backend {
    /// The reactions of `services` to events, as bus consumers.
    public func reactors(for services: [Deployable] = Deployable.allCases) -> [BusConsumer] {
        var consumers: [BusConsumer] = []
        let reservas = self.reservas, negocio = self.negocio
        if services.contains(.pagamentos) {
            // Its reactions call the payment provider: an outage of the provider must not turn
            // a refund or a charge withdrawal into a dead letter within seconds. Retried in
            // place for about a quarter of an hour (100 ms doubling to 30 s, 40 attempts).
            consumers.append(
                BusConsumer(
                    service: PagamentosService.consumidor, bindings: PagamentosService.bindings, maxAttempts: 40,
                    retry: Backoff(first: .milliseconds(100), limit: .seconds(30)),
                    // A batch of bookings is charged on one read of the store (issue 40).
                    readAhead: { try await negocio.pagamentos.lerAntes($0) }
                ) {
                    try await negocio.pagamentos.reagir($0)
                })
        }
        if services.contains(.reservas) {
            // Its writes meet members' bookings on the agenda streams: conflicts are retried.
            consumers.append(
                BusConsumer(service: ReservasService.consumidor, bindings: ReservasService.bindings, maxAttempts: 20) {
                    try await reservas.reagir($0)
                })
        }
        if services.contains(.checkin) {
            consumers.append(
                BusConsumer(service: CheckinService.consumidor, bindings: CheckinService.bindings, maxAttempts: 10) {
                    try await negocio.checkin.reagir($0)
                })
        }
        if services.contains(.financeiro) {
            consumers.append(
                BusConsumer(service: FinanceiroService.consumidor, bindings: FinanceiroService.bindings, maxAttempts: 10) {
                    try await negocio.financeiro.reagir($0)
                })
        }
        if services.contains(.notificacoes) {
            // An e-mail the relay cannot take now is tried again for ~2 minutes (doubling
            // pauses up to a minute), then set aside as a dead letter to retry.
            consumers.append(
                BusConsumer(
                    service: NotificacoesService.consumidor, bindings: NotificacoesService.bindings, maxAttempts: 8,
                    retry: Backoff(first: .seconds(1), limit: .seconds(60))
                ) {
                    try await negocio.notificacoes.reagir($0)
                })
        }
        return consumers
    }

    /// The timers of `services`.
    public func temporizadores(for services: [Deployable] = Deployable.allCases) -> [Temporizador] {
        var timers: [Temporizador] = []
        let reservas = self.reservas, negocio = self.negocio, usuarios = self.usuarios
        if services.contains(.usuarios) {
            // An erasure whose process stopped before its key was destroyed is finished here.
            timers.append(Temporizador(lease: UsuariosService.apagamentos) { try await usuarios.concluirApagamentos() })
        }
        if services.contains(.reservas) {
            timers.append(Temporizador(lease: "reservas:prazos") { try await reservas.executarPrazosVencidos() })
        }
        if services.contains(.pagamentos) {
            // A refund whose notice never arrived is asked about at the provider.
            timers.append(Temporizador(lease: "pagamentos:reembolsos") { try await negocio.pagamentos.conciliarReembolsos() })
        }
        if services.contains(.checkin) {
            timers.append(Temporizador(lease: "checkin:no-shows") { try await negocio.checkin.executarNoShowsVencidos() })
            // Visitors' names and e-mails, erased when cancelled or past the log's retention.
            timers.append(Temporizador(lease: "checkin:visitas") { try await negocio.checkin.apagarVisitantesVencidos() })
            // Prospects' contacts, erased when a tour is cancelled or its follow-up is over.
            timers.append(Temporizador(lease: "checkin:tours") { try await negocio.checkin.apagarInteressadosVencidos() })
        }
        if services.contains(.assinaturas) {
            timers.append(Temporizador(lease: "assinaturas:creditos") { try await negocio.assinaturas.expirarCreditosVencidos() })
            timers.append(Temporizador(lease: "assinaturas:ciclos") { try await negocio.assinaturas.renovarAssinaturas() })
            timers.append(Temporizador(lease: "assinaturas:compras") { try await negocio.assinaturas.expirarComprasVencidas() })
        }
        if services.contains(.notificacoes) {
            timers.append(Temporizador(lease: "notificacoes:lembretes") { try await negocio.notificacoes.enviarLembretesVencidos() })
            // Letters and parcels left waiting at the front desk (ADR 0017).
            timers.append(Temporizador(lease: "notificacoes:correspondencia") { try await negocio.notificacoes.enviarLembretesDeCorrespondencia() })
        }
        return timers
    }
}
