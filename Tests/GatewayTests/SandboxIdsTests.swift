import Foundation
import Testing

@testable import Integrations

/// The sandbox provider's random ids: as long as asked, from their alphabet, every character as
/// likely as the others (eight characters per draw of the system's source).
@Suite("Sandbox provider: random ids")
struct SandboxIdsTests {
    @Test(
        "as long as asked, from the alphabet, each character as likely",
        arguments: [SandboxPSP.minusculas, SandboxPSP.alfanumericos, Array("0123456789")])
    func uniform(alfabeto: [Character]) {
        #expect(SandboxPSP.aleatorio(0, alfabeto: alfabeto).isEmpty)
        #expect(SandboxPSP.aleatorio(33, alfabeto: alfabeto).count == 33)
        let texto = SandboxPSP.aleatorio(1_000_000, alfabeto: alfabeto)
        var vezes: [Character: Int] = [:]
        for caractere in texto { vezes[caractere, default: 0] += 1 }
        #expect(Set(vezes.keys) == Set(alfabeto))
        // Expected 1,000,000 / n each (within 4 %: five standard deviations for 62 characters). A byte taken modulo n, the top not dropped, would make the
        // first 256 mod n characters more likely: by a quarter with 62 characters, a seventh with 36.
        let esperado = Double(1_000_000) / Double(alfabeto.count)
        for (caractere, n) in vezes { #expect(abs(Double(n) - esperado) < esperado * 0.04, "\(caractere): \(n)") }
    }

    @Test("an alphabet that divides 256 (none of its bytes dropped) or has more than 256 characters")
    func any_alphabet() {
        let hex = Array("0123456789abcdef")
        #expect(SandboxPSP.aleatorio(64, alfabeto: hex).allSatisfy(hex.contains))
        let grande = (0..<300).compactMap { UnicodeScalar(0x100 + $0).map(Character.init) }
        let texto = SandboxPSP.aleatorio(50, alfabeto: grande)
        #expect(texto.count == 50 && texto.allSatisfy(grande.contains))
    }
}
