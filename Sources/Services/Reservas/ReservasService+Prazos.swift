import Domain
import Foundation
import Projections

extension ReservasService {
    // MARK: Timers

    /// Runs every timer that is due at the clock's now: expires unpaid holds, concludes finished
    /// bookings. Returns how many it ran; a timer that fails does not hold up the ones behind it
    /// (the first failure is thrown after they ran). The timers are a read model, so they
    /// survive restarts.
    @discardableResult
    public func executarPrazosVencidos(limite: Int = 200) async throws -> Int {
        let now = clock.now
        let prazos = try await store.documents(ReservasReadModel.prazos, grupo: "prazo", limit: limite, offset: 0)
            .map { try ReadModelJSON.decoder.decode(PrazoView.self, from: $0) }
        var executados = 0
        var falha: (any Error)?
        for prazo in prazos where prazo.vence <= now {
            guard let id = Reserva.ID(prazo.reservaId) else { continue }
            do {
                switch prazo.acao {
                case .expirar: try await expirar(id, at: now)
                case .concluir: try await concluir(id, at: now)
                }
                executados += 1
            } catch let error as ServiceError where error.kind == .conflito {
                continue  // already confirmed/cancelled: the projection drops the timer
            } catch {
                falha = falha ?? error  // the timers behind it still run; the caller hears of it
            }
        }
        if let falha { throw falha }
        return executados
    }
}
