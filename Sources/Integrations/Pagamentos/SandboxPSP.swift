import AsyncHTTPClient
public import Domain
public import Foundation
public import Logging
import NIOCore
import NIOHTTP1
public import Services

/// A payment provider that behaves like a real PSP, for development and tests: charges stay
/// pending until someone pays them (`pagar`, the tester's "bank app"), cards are decided by the
/// network a moment later, refunds complete a moment after they are asked for, and every
/// outcome reaches us only through the signed webhook, retried until it is accepted.
///
/// Card tokens: `tok_sandbox_recusado` and `tok_sandbox_sem_saldo` are declined; any other
/// token is approved.
public actor SandboxPSP {
    public enum Situacao: String, Codable, Sendable {
        case pendente, paga, recusada, cancelada
    }

    /// A charge as the sandbox keeps it.
    public struct CobrancaSandbox: Codable, Sendable, Equatable {
        public let cobrancaId: String
        public let referencia: String
        public let valor: Money
        public let metodo: MetodoDePagamento
        public var situacao: Situacao
        public let pix: Pagamento.Pix?
        public let boleto: Pagamento.Boleto?
        public let expiraEm: Date
        public let criadaEm: Date
        /// Refund id → amount.
        public var reembolsos: [String: Money]
    }

    public enum Falha: Error, Equatable, CustomStringConvertible {
        case cobrancaDesconhecida
        case naoPendente(Situacao)
        case expirada
        case naoPaga
        case reembolsoExcedente(disponivel: Money)

        public var description: String {
            switch self {
            case .cobrancaDesconhecida: "cobrança desconhecida"
            case .naoPendente(let situacao): "a cobrança não está pendente (está \(situacao.rawValue))"
            case .expirada: "a cobrança expirou"
            case .naoPaga: "a cobrança não foi paga"
            case .reembolsoExcedente(let disponivel): "reembolso maior que o disponível (\(disponivel))"
            }
        }
    }

    let clock: any WallClock
    let segredo: Data
    let logger: Logger
    /// Pause before the card network answers and before a refund completes.
    let atraso: Duration
    private var webhookURL: String?
    /// Delivers a signed notice in-process instead of over HTTP (router tests): returns the
    /// status our webhook answered.
    private var entrega: (@Sendable (_ corpo: Data, _ assinatura: String) async -> Int)?
    private var cobrancas: [String: CobrancaSandbox] = [:]
    private var porReferencia: [String: String] = [:]
    /// The refunds paid out (`atraso` after they were asked, when their notice goes out).
    private var reembolsosConcluidos: Set<String> = []

    public init(segredo: Data, webhookURL: String? = nil, clock: any WallClock, atraso: Duration = .milliseconds(300), logger: Logger) {
        self.segredo = segredo
        self.webhookURL = webhookURL
        self.clock = clock
        self.atraso = atraso
        self.logger = logger
    }

    /// Where outcomes are posted (known once our server listens).
    public func apontarWebhook(para url: String) { webhookURL = url }

    /// Delivers notices through `entrega` instead of HTTP (tests that serve no socket).
    public func entregarPor(_ entrega: @escaping @Sendable (_ corpo: Data, _ assinatura: String) async -> Int) { self.entrega = entrega }

    public func cobranca(_ id: String) -> CobrancaSandbox? { cobrancas[id] }

    public func cobranca(referencia: String) -> CobrancaSandbox? { porReferencia[referencia].flatMap { cobrancas[$0] } }

    // MARK: The merchant's side (PaymentProvider)

    public func criar(_ pedido: PedidoDeCobranca) -> Pagamento.Cobranca {
        if let existente = cobranca(referencia: pedido.referencia) { return Self.publica(existente) }
        let id = "cob_" + Self.aleatorio(24, alfabeto: Self.minusculas)
        let now = clock.now
        var pix: Pagamento.Pix?
        var boleto: Pagamento.Boleto?
        switch pedido.metodo {
        case .pix:
            let txid = Self.aleatorio(32, alfabeto: Self.alfanumericos)
            pix = Pagamento.Pix(txid: txid, copiaECola: BRCode.payload(txid: txid, valor: pedido.valor, recebedor: "COWORKFLOW", cidade: "SAO PAULO"))
        case .boleto:
            boleto = Pagamento.Boleto(linhaDigitavel: Self.linhaDigitavel(valor: pedido.valor), vencimento: pedido.expiraEm)
        case .cartao, .manual:
            // (A payment at the reception is never sent: the server refuses it above this.)
            break
        }
        let cobranca = CobrancaSandbox(
            cobrancaId: id, referencia: pedido.referencia, valor: pedido.valor, metodo: pedido.metodo, situacao: .pendente,
            pix: pix, boleto: boleto, expiraEm: pedido.expiraEm, criadaEm: now, reembolsos: [:])
        cobrancas[id] = cobranca
        porReferencia[pedido.referencia] = id
        if pedido.metodo == .cartao {
            let motivo: String? =
                switch pedido.cartaoToken {
                case "tok_sandbox_recusado": "cartão recusado pelo emissor"
                case "tok_sandbox_sem_saldo": "saldo insuficiente"
                default: nil
                }
            let atraso = self.atraso
            Task {
                try? await Task.sleep(for: atraso)
                if let motivo { _ = try? self.recusar(id, motivo: motivo) } else { _ = try? self.pagar(id) }
            }
        }
        return Self.publica(cobranca)
    }

    /// Withdraws a pending charge; a paid one is refused (`naoPendente(.paga)`), as a real
    /// provider refuses to cancel a settled payment; anything else is left as it is.
    public func cancelar(_ id: String) throws(Falha) {
        guard var cobranca = cobrancas[id] else { throw .cobrancaDesconhecida }
        if cobranca.situacao == .paga { throw .naoPendente(.paga) }
        guard cobranca.situacao == .pendente else { return }
        cobranca.situacao = .cancelada
        cobrancas[id] = cobranca
    }

    public func reembolsar(_ id: String, reembolsoId: UUID, valor: Money) throws(Falha) {
        guard var cobranca = cobrancas[id] else { throw .cobrancaDesconhecida }
        guard cobranca.situacao == .paga else { throw .naoPaga }
        let chave = reembolsoId.lowercasedString
        guard cobranca.reembolsos[chave] == nil else { return }
        let disponivel = cobranca.valor - cobranca.reembolsos.values.reduce(.zero, +)
        guard valor <= disponivel else { throw .reembolsoExcedente(disponivel: disponivel) }
        cobranca.reembolsos[chave] = valor
        cobrancas[id] = cobranca
        let aviso = AvisoDoProvedor(
            id: "evt_rf_" + chave, tipo: .reembolsoConcluido, cobrancaId: id, referencia: cobranca.referencia, valor: valor,
            reembolsoId: reembolsoId, motivo: nil, criadoEm: clock.now)
        let atraso = self.atraso
        Task {
            try? await Task.sleep(for: atraso)
            self.concluir(reembolso: chave)
            await self.avisar(aviso)
        }
    }

    private func concluir(reembolso chave: String) {
        reembolsosConcluidos.insert(chave)
    }

    /// A refund of charge `id` as the refund query answers it: nil when there is none of that id.
    public func reembolso(_ id: String, reembolsoId: UUID) -> ReembolsoSandbox? {
        let chave = reembolsoId.lowercasedString
        guard let valor = cobrancas[id]?.reembolsos[chave] else { return nil }
        return ReembolsoSandbox(reembolsoId: chave, valor: valor, concluido: reembolsosConcluidos.contains(chave))
    }

    /// A refund as the sandbox's refund query answers it.
    public struct ReembolsoSandbox: Codable, Sendable, Equatable {
        public let reembolsoId: String
        public let valor: Money
        /// Paid out (its notice has gone out); false while in processing.
        public let concluido: Bool
    }

    // MARK: The payer's side (the tester's routes)

    /// The member pays a pending charge (PIX scanned, boleto paid, card approved). A declined
    /// one may be paid too: an issuer that reverses its decline, a late "paid" after a
    /// "declined", which providers do send (the booking was released; pagamentos refunds it).
    @discardableResult
    public func pagar(_ id: String) throws(Falha) -> CobrancaSandbox {
        guard var cobranca = cobrancas[id] else { throw .cobrancaDesconhecida }
        guard cobranca.situacao == .pendente || cobranca.situacao == .recusada else { throw .naoPendente(cobranca.situacao) }
        guard clock.now < cobranca.expiraEm else { throw .expirada }
        cobranca.situacao = .paga
        cobrancas[id] = cobranca
        let aviso = AvisoDoProvedor(
            id: "evt_pg_" + id, tipo: .cobrancaPaga, cobrancaId: id, referencia: cobranca.referencia, valor: cobranca.valor,
            reembolsoId: nil, motivo: nil, criadoEm: clock.now)
        Task { await self.avisar(aviso) }
        return cobranca
    }

    @discardableResult
    public func recusar(_ id: String, motivo: String) throws(Falha) -> CobrancaSandbox {
        guard var cobranca = cobrancas[id] else { throw .cobrancaDesconhecida }
        guard cobranca.situacao == .pendente else { throw .naoPendente(cobranca.situacao) }
        cobranca.situacao = .recusada
        cobrancas[id] = cobranca
        let aviso = AvisoDoProvedor(
            id: "evt_rc_" + id, tipo: .cobrancaRecusada, cobrancaId: id, referencia: cobranca.referencia, valor: cobranca.valor,
            reembolsoId: nil, motivo: motivo, criadoEm: clock.now)
        Task { await self.avisar(aviso) }
        return cobranca
    }

    // MARK: Webhooks

    /// Posts `aviso`, signed, until the merchant answers 2xx (or 4xx other than 408/429: it
    /// will never accept it); up to 10 attempts with doubling pauses.
    func avisar(_ aviso: AvisoDoProvedor) async {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        guard let corpo = try? encoder.encode(aviso) else { return }
        if let entrega {
            for _ in 1...10 {
                let status = await entrega(corpo, AssinaturaDeWebhook.assinar(corpo, segredo: segredo, em: clock.now))
                if (200..<300).contains(status) || (400..<500).contains(status) { return }
                try? await Task.sleep(for: .milliseconds(100))
            }
            return
        }
        guard let url = webhookURL else {
            logger.warning("sandbox: no webhook URL; notice dropped", metadata: ["aviso": "\(aviso.id)"])
            return
        }
        var pausa = Duration.milliseconds(200)
        for tentativa in 1...10 {
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: AssinaturaDeWebhook.cabecalho, value: AssinaturaDeWebhook.assinar(corpo, segredo: segredo, em: clock.now))
            request.body = .bytes(ByteBuffer(data: corpo))
            do {
                let response = try await Self.cliente.execute(request, timeout: .seconds(10))
                let status = Int(response.status.code)
                _ = try? await response.body.collect(upTo: 64 * 1024)
                if (200..<300).contains(status) {
                    // Said when it took more than one attempt: with the failures above it, the
                    // log tells which notices went through and when.
                    if tentativa > 1 {
                        logger.warning(
                            "sandbox: webhook delivered after failing",
                            metadata: ["aviso": "\(aviso.id)", "status": "\(status)", "tentativa": "\(tentativa)"])
                    }
                    return
                }
                if (400..<500).contains(status), status != 408, status != 429 {
                    logger.error("sandbox: webhook refused", metadata: ["aviso": "\(aviso.id)", "status": "\(status)"])
                    return
                }
                logger.warning(
                    "sandbox: webhook failed, retrying", metadata: ["aviso": "\(aviso.id)", "status": "\(status)", "tentativa": "\(tentativa)"])
            } catch {
                logger.warning(
                    "sandbox: webhook unreachable, retrying", metadata: ["aviso": "\(aviso.id)", "error": "\(error)", "tentativa": "\(tentativa)"])
            }
            try? await Task.sleep(for: pausa)
            pausa = min(pausa * 2, .seconds(10))
        }
        logger.error("sandbox: webhook given up", metadata: ["aviso": "\(aviso.id)"])
    }

    /// The webhook's client: its read timeout also bounds the answer's body, which the
    /// request's deadline does not (it ends when the head arrives), so an attempt never hangs
    /// without a line in the log. Lives as long as the process.
    static let cliente: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(10))
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    // MARK: Helpers

    static func publica(_ c: CobrancaSandbox) -> Pagamento.Cobranca {
        Pagamento.Cobranca(cobrancaId: c.cobrancaId, metodo: c.metodo, pix: c.pix, boleto: c.boleto)
    }

    static let alfanumericos = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    static let minusculas = Array("abcdefghijklmnopqrstuvwxyz0123456789")

    static func aleatorio(_ count: Int, alfabeto: [Character]) -> String {
        // Eight characters from each draw of the system's source (one system call), not one: a
        // charge's ids took a few per cent of the gateway under a load of bookings. A byte past
        // the last whole multiple of the alphabet is dropped, so that each character is as likely.
        var generator = SystemRandomNumberGenerator()
        guard alfabeto.count <= 256 else {
            return String((0..<count).map { _ in alfabeto[Int(generator.next(upperBound: UInt64(alfabeto.count)))] })
        }
        let limite = 256 - 256 % alfabeto.count
        var texto = ""
        texto.reserveCapacity(count)
        var feitos = 0
        var bits: UInt64 = 0
        var restantes = 0
        while feitos < count {
            if restantes == 0 {
                bits = generator.next()
                restantes = 8
            }
            let byte = Int(bits & 0xFF)
            bits >>= 8
            restantes -= 1
            guard byte < limite else { continue }
            texto.append(alfabeto[byte % alfabeto.count])
            feitos += 1
        }
        return texto
    }

    /// 47 digits: a bank, random digits and the amount in the last ten, as a boleto's line has.
    static func linhaDigitavel(valor: Money) -> String {
        let digits = Array("0123456789")
        let meio = aleatorio(33, alfabeto: digits)
        let quantia = String(valor.centavos)
        return "0019" + meio + String(repeating: "0", count: max(0, 10 - quantia.count)) + quantia.suffix(10)
    }
}

/// The PIX copy-and-paste payload (EMV "BR Code"): ID-length-value fields, the dynamic
/// location of the charge, and a CRC16-CCITT at the end.
enum BRCode {
    static func payload(txid: String, valor: Money, recebedor: String, cidade: String) -> String {
        let conta = field("00", "br.gov.bcb.pix") + field("25", "pix.sandbox.coworkflow.dev/qr/v2/\(txid)")
        // No `%d`: it takes a 32-bit int, and totals from R$ 21.474.836,48 up came out wrong.
        let centavos = valor.centavos % 100
        let reais = "\(valor.centavos / 100).\(centavos < 10 ? "0" : "")\(centavos)"
        var text =
            field("00", "01") + field("01", "12") + field("26", conta) + field("52", "0000") + field("53", "986")
            + field("54", reais) + field("58", "BR") + field("59", String(recebedor.prefix(25))) + field("60", String(cidade.prefix(15)))
            + field("62", field("05", String(txid.prefix(25)))) + "6304"
        text += String(format: "%04X", crc16(Array(text.utf8)))
        return text
    }

    static func field(_ id: String, _ value: String) -> String {
        id + String(format: "%02d", value.utf8.count) + value
    }

    /// CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF), as the BR Code requires.
    static func crc16(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        }
        return crc
    }
}

/// The sandbox as this process's payment provider (all-in-one mode).
public struct SandboxProvider: PaymentProvider {
    public let psp: SandboxPSP

    public init(psp: SandboxPSP) { self.psp = psp }

    public func criarCobranca(_ pedido: PedidoDeCobranca) async throws -> Pagamento.Cobranca {
        await psp.criar(pedido)
    }

    public func cancelarCobranca(_ cobrancaId: String) async throws -> CancelamentoDeCobranca {
        do {
            try await psp.cancelar(cobrancaId)
            return .cancelada
        } catch .naoPendente(.paga) {
            guard let cobranca = await psp.cobranca(cobrancaId) else { return .cancelada }
            return .paga(valor: cobranca.valor)
        } catch {
            throw PaymentProviderError(operacao: "cancelar", codigoDoProvedor: 404, mensagem: error.description)
        }
    }

    public func reembolsar(cobrancaId: String, reembolsoId: UUID, valor: Money) async throws {
        do {
            try await psp.reembolsar(cobrancaId, reembolsoId: reembolsoId, valor: valor)
        } catch {
            throw PaymentProviderError(operacao: "reembolsar", codigoDoProvedor: 409, mensagem: error.description)
        }
    }

    public func reembolso(cobrancaId: String, reembolsoId: UUID) async throws -> SituacaoDoReembolso {
        guard let reembolso = await psp.reembolso(cobrancaId, reembolsoId: reembolsoId) else { return .desconhecido }
        return reembolso.concluido ? .concluido(valor: reembolso.valor) : .emProcessamento
    }
}
