import Domain
import Foundation
import Testing

@Suite("E-mail claim decider")
struct EmailClaimTests {
    let maria = EmailClaim.UsuarioID(UUID())
    let joao = EmailClaim.UsuarioID(UUID())
    var scenario: Scenario<EmailClaim.Command, EmailClaim.State, EmailClaim.Event, EmailClaim.Failure> {
        Scenario(EmailClaim.decider)
    }

    @Test func a_free_address_is_claimed() {
        #expect(scenario.given().when(.reivindicar(usuario: maria)).outcome == .events([.reivindicado(usuario: maria)]))
    }

    @Test func an_address_claimed_by_someone_else_is_refused() {
        #expect(scenario.given(.reivindicado(usuario: maria)).when(.reivindicar(usuario: joao)).outcome == .failure(.emailEmUso))
    }

    @Test func claiming_again_for_the_same_account_changes_nothing() {
        #expect(scenario.given(.reivindicado(usuario: maria)).when(.reivindicar(usuario: maria)).outcome == .events([]))
    }

    @Test func a_released_address_can_be_claimed_by_another_account() {
        let outcome = scenario.given(.reivindicado(usuario: maria), .liberado(usuario: maria)).when(.reivindicar(usuario: joao)).outcome
        #expect(outcome == .events([.reivindicado(usuario: joao)]))
    }

    @Test func only_the_owner_releases_a_claim() {
        #expect(scenario.given(.reivindicado(usuario: maria)).when(.liberar(usuario: joao)).outcome == .failure(.naoReivindicadoPor(joao)))
        #expect(scenario.given().when(.liberar(usuario: maria)).outcome == .failure(.naoReivindicadoPor(maria)))
        #expect(scenario.given(.reivindicado(usuario: maria)).when(.liberar(usuario: maria)).outcome == .events([.liberado(usuario: maria)]))
    }

    @Test func addresses_compare_in_normal_form() {
        #expect(EmailClaim.normalise("  Maria@Example.COM\n") == "maria@example.com")
    }

    @Test func events_have_stable_type_strings() {
        #expect(EmailClaim.Event.reivindicado(usuario: maria).eventType == "EmailReivindicado")
        #expect(EmailClaim.Event.liberado(usuario: maria).eventType == "EmailLiberado")
    }
}
