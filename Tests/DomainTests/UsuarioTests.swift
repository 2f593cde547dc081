import Domain
import Foundation
import Testing

@Suite("Usuario decider")
struct UsuarioTests {
    let id = Usuario.ID(UUID())
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let senha = Usuario.Senha(hash: "h", salt: "s", iteracoes: 600_000)
    var scenario: Scenario<Usuario.Command, Usuario.State, Usuario.Event, Usuario.Failure> { Scenario(Usuario.decider) }

    var registrado: Usuario.Event {
        .registrado(Usuario.Registrado(usuarioId: id, nome: "n", email: "e", senha: senha, papel: .membro, em: t0))
    }

    func falhou(_ minutes: Double, bloqueadoAte: Date? = nil) -> Usuario.Event {
        .loginFalhou(Usuario.LoginFalhou(usuarioId: id, em: t0.addingTimeInterval(minutes * 60), bloqueadoAte: bloqueadoAte))
    }

    @Test func registering_twice_is_refused() {
        let command = Usuario.Command.registrar(id: id, nome: "n", email: "e", senha: senha, papel: .membro, em: t0)
        #expect(scenario.given().when(command).outcome == .events([registrado]))
        #expect(scenario.given(registrado).when(command).outcome == .failure(.jaRegistrado))
    }

    @Test func a_right_password_logs_in_and_a_wrong_one_is_recorded() {
        let at = t0.addingTimeInterval(60)
        #expect(
            scenario.given(registrado).when(.entrar(senhaConfere: true, em: at)).outcome
                == .events([.loginRealizado(Usuario.LoginRealizado(usuarioId: id, em: at))]))
        #expect(
            scenario.given(registrado).when(.entrar(senhaConfere: false, em: at)).outcome
                == .events([.loginFalhou(Usuario.LoginFalhou(usuarioId: id, em: at, bloqueadoAte: nil))]))
    }

    @Test func the_fifth_failure_within_fifteen_minutes_locks_for_fifteen_minutes() {
        let fifth = t0.addingTimeInterval(14 * 60)
        let outcome = scenario.given(registrado, falhou(1), falhou(2), falhou(3), falhou(4))
            .when(.entrar(senhaConfere: false, em: fifth)).outcome
        #expect(outcome == .events([.loginFalhou(Usuario.LoginFalhou(usuarioId: id, em: fifth, bloqueadoAte: fifth.addingTimeInterval(900)))]))
    }

    @Test func failures_older_than_the_window_do_not_count() {
        let late = t0.addingTimeInterval(20 * 60)
        let outcome = scenario.given(registrado, falhou(1), falhou(2), falhou(3), falhou(4))
            .when(.entrar(senhaConfere: false, em: late)).outcome
        #expect(outcome == .events([.loginFalhou(Usuario.LoginFalhou(usuarioId: id, em: late, bloqueadoAte: nil))]))
    }

    @Test func a_locked_account_refuses_even_the_right_password_until_the_lock_ends() {
        let until = t0.addingTimeInterval(20 * 60)
        let locked = scenario.given(registrado, falhou(5, bloqueadoAte: until))
        #expect(locked.when(.entrar(senhaConfere: true, em: t0.addingTimeInterval(10 * 60))).outcome == .failure(.contaBloqueada(ate: until)))
        let after = until.addingTimeInterval(1)
        #expect(
            locked.when(.entrar(senhaConfere: true, em: after)).outcome
                == .events([.loginRealizado(Usuario.LoginRealizado(usuarioId: id, em: after))]))
    }

    @Test func a_success_clears_the_failure_count() {
        let ok = Usuario.Event.loginRealizado(Usuario.LoginRealizado(usuarioId: id, em: t0.addingTimeInterval(5 * 60)))
        let at = t0.addingTimeInterval(6 * 60)
        let outcome = scenario.given(registrado, falhou(1), falhou(2), falhou(3), falhou(4), ok)
            .when(.entrar(senhaConfere: false, em: at)).outcome
        #expect(outcome == .events([.loginFalhou(Usuario.LoginFalhou(usuarioId: id, em: at, bloqueadoAte: nil))]))
    }

    @Test func deactivated_accounts_cannot_log_in_and_promotion_is_once() {
        let desativado = Usuario.Event.desativado(Usuario.Desativado(usuarioId: id, por: "admin", em: t0))
        #expect(scenario.given(registrado, desativado).when(.entrar(senhaConfere: true, em: t0)).outcome == .failure(.contaDesativada))
        #expect(
            scenario.given(registrado, desativado).when(.entrar(senhaConfere: false, em: t0)).outcome
                == .events([.loginFalhou(Usuario.LoginFalhou(usuarioId: id, em: t0, bloqueadoAte: nil))]), "a wrong guess is counted")
        #expect(scenario.given(registrado, desativado).when(.desativar(por: "admin", em: t0)).outcome == .failure(.jaDesativado))
        let promovido = Usuario.Event.promovido(Usuario.Promovido(usuarioId: id, papel: .admin, por: "root", em: t0))
        #expect(scenario.given(registrado, promovido).when(.promover(por: "root", em: t0)).outcome == .failure(.jaEhAdmin))
    }

    @Test func a_member_goes_on_a_plan_by_its_trimmed_name_and_off_it_with_nil() {
        let mensal = Usuario.Event.planoDefinido(Usuario.PlanoDefinido(usuarioId: id, plano: "Mensal", por: "admin", em: t0))
        #expect(scenario.given(registrado).when(.definirPlano("  Mensal ", por: "admin", em: t0)).outcome == .events([mensal]))
        #expect(scenario.given(registrado, mensal).when(.definirPlano("Mensal", por: "admin", em: t0)).outcome == .events([]))
        #expect(
            scenario.given(registrado, mensal).when(.definirPlano(nil, por: "admin", em: t0)).outcome
                == .events([.planoDefinido(Usuario.PlanoDefinido(usuarioId: id, plano: nil, por: "admin", em: t0))]))
        #expect(scenario.given(registrado).when(.definirPlano(nil, por: "admin", em: t0)).outcome == .events([]))
        for nome in ["", "   ", String(repeating: "p", count: 101)] {
            #expect(scenario.given(registrado).when(.definirPlano(nome, por: "admin", em: t0)).outcome == .failure(.planoInvalido))
        }
        let desativado = Usuario.Event.desativado(Usuario.Desativado(usuarioId: id, por: "admin", em: t0))
        #expect(scenario.given(registrado, desativado).when(.definirPlano("Mensal", por: "admin", em: t0)).outcome == .failure(.contaDesativada))
        if case .existente(let conta) = Usuario.decider.fold([registrado, mensal]) {
            #expect(conta.plano == "Mensal")
        } else {
            Issue.record("no account")
        }
    }

    @Test func an_erased_account_takes_no_more_commands() {
        let apagado = Usuario.Event.dadosPessoaisApagados(Usuario.DadosPessoaisApagados(usuarioId: id, em: t0))
        #expect(scenario.given(registrado, apagado).when(.entrar(senhaConfere: true, em: t0)).outcome == .failure(.naoEncontrado))
        #expect(Usuario.decider.isTerminal(Usuario.decider.fold([registrado, apagado])))
    }

    @Test func events_round_trip_through_their_stored_form() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        for event in [
            registrado, falhou(1, bloqueadoAte: t0), .planoDefinido(Usuario.PlanoDefinido(usuarioId: id, plano: "Mensal", por: "a", em: t0)),
        ] {
            let data = try encoder.encode(event)
            #expect(try Usuario.Event.decode(type: event.eventType, data: data, using: decoder) == event)
        }
        #expect(try Usuario.Event.decode(type: "Outro", data: Data("{}".utf8), using: decoder) == nil)
    }
}
