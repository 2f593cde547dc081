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

    /// The addresses /openapi.json's e-mail pattern with `format: email` takes (schemathesis sent
    /// `x@t4.test*`, which the format refuses and the server took: CI failed).
    static let aceitos = [
        "a@b.co", " Maria@Example.COM\n", "o'neil+tag@mail.example-1.com.br", "!#$%&'*+-/=?^_`{|}~@x.y",
        String(repeating: "l", count: 64) + "@" + String(repeating: "d", count: 63) + ".com", "a@b.123", "a@a--b.co", "a@abc--d.co",
    ]
    static let recusados = [
        "", "a", "a@b", "@b.co", "a@", "a@@b.co", "a@b@c.co", "a@t4.test*", "a@b_c.co", "a@-b.co", "a@b-.co", "a@b..co", "a@.b.co",
        "a@b.co.", ".a@b.co", "a.@b.co", "a..b@b.co", "a b@c.co", "\"a\"@b.co", "a@[1.2.3.4]", "ünï@exämple.com", "a@\u{212A}.co",
        "a@xn--abc.co", "a@ab--cd.co", String(repeating: "l", count: 65) + "@b.co", "a@" + String(repeating: "d", count: 64) + ".com",
        "a@" + Array(repeating: String(repeating: "d", count: 60), count: 5).joined(separator: "."),
    ]

    @Test("an address is a dot-atom, '@' and a host name of two labels or more", arguments: aceitos)
    func addresses_accepted(_ email: String) {
        #expect(EmailClaim.enderecoValido(email))
    }

    @Test("quoted forms, IP literals, one-label domains, other characters and overlong parts are refused", arguments: recusados)
    func addresses_refused(_ email: String) {
        #expect(!EmailClaim.enderecoValido(email))
    }

    @Test func events_have_stable_type_strings() {
        #expect(EmailClaim.Event.reivindicado(usuario: maria).eventType == "EmailReivindicado")
        #expect(EmailClaim.Event.liberado(usuario: maria).eventType == "EmailLiberado")
    }
}
