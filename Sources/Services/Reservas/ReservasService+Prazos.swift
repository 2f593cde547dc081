import Domain
import Foundation
import Projections
import Telemetry

extension ReservasService {
    // MARK: Timers

    /// Runs every timer that is due at the clock's now: expires unpaid holds, concludes finished
    /// bookings. Returns how many it ran; a timer that fails does not hold up the ones behind it
    /// (the first failure is thrown after they ran). The timers are a read model, so they
    /// survive restarts.
    @discardableResult
    public func executarPrazosVencidos(limite: Int = 200) async throws -> Int {
        let now = clock.now
        let prazos = try await lerPrazos(PrazoView.self, de: ReservasReadModel.projection, em: ReservasReadModel.prazos, limite: limite, store: store)
        var executados = 0
        var falha: (any Error)?
        let vencidos = prazos.filter { $0.vence <= now }
        Self.metricasDosPrazos.found(vencidos.count)
        for prazo in vencidos {
            guard let id = Reserva.ID(prazo.reservaId) else { continue }
            do {
                try await Traces.continuing(prazo.traceparent, "reservas prazo \(prazo.acao.rawValue)") {
                    switch prazo.acao {
                    case .expirar: try await expirar(id, at: now)
                    case .concluir: try await concluir(id, at: now)
                    case .avisarSerie: try await registrarCancelamentoDaSerie(id, at: now)
                    }
                }
                executados += 1
                Self.metricasDosPrazos.fired(late: now.timeIntervalSince(prazo.vence))
            } catch let error as ServiceError where error.kind == .conflito {
                continue  // already confirmed/cancelled: the projection drops the timer
            } catch {
                falha = falha ?? error  // the timers behind it still run; the caller hears of it
            }
        }
        if let falha { throw falha }
        return executados
    }

    static let metricasDosPrazos = TimerMetrics("reservas:prazos")
}
