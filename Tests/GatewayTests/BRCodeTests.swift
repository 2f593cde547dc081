import Domain
import Testing

@testable import Integrations
@testable import Services

/// The sandbox's PIX copy-and-paste payload carries the amount in field 54 as reais with two
/// decimals.
@Suite("PIX BR Code")
struct BRCodeTests {
    @Test(arguments: [
        (Int64(5_000), "50.00"), (Int64(7), "0.07"), (Int64(2_147_483_648), "21474836.48"), (Int64(100_000_000_000), "1000000000.00"),
    ])
    func the_amount_field_is_exact(centavos: Int64, reais: String) {
        let payload = BRCode.payload(txid: "tx1", valor: Money(centavos: centavos), recebedor: "CoworkFlow", cidade: "Sao Paulo")
        let length = reais.utf8.count < 10 ? "0\(reais.utf8.count)" : "\(reais.utf8.count)"
        #expect(payload.contains("5303986" + "54" + length + reais + "5802BR"), "\(payload)")
    }
}
