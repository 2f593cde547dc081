import Foundation
import Testing

@testable import Domain

@Suite("Free text and instants as the API takes them")
struct TextoEInstanteTests {
    @Test("an RFC 3339 date-time with Z or ±HH:MM names its instant; its fraction is dropped")
    func rfc3339_instants() throws {
        let utc = Date(timeIntervalSince1970: 1_799_067_600)  // 2027-01-04T13:00:00Z
        #expect(RFC3339.instante("2027-01-04T13:00:00Z") == utc)
        #expect(RFC3339.instante("2027-01-04T10:00:00-03:00") == utc)
        #expect(RFC3339.instante("2027-01-04T18:30:00+05:30") == utc)
        #expect(RFC3339.instante("2027-01-04T13:00:00.999999999Z") == utc)
        #expect(RFC3339.instante("2027-01-04T13:00:00-00:00") == utc)
        #expect(RFC3339.instante("2028-02-29T00:00:00Z") != nil, "a leap day")
    }

    @Test("anything else is no instant: trailing text, a second offset, short or long offsets, a missing T, days and hours that do not exist")
    func not_instants() {
        for texto in [
            "2027-01-04T10:00:00-03:00garbage", "2027-01-04T14:00:00Z-03:00", "2027-01-04T10:00:00-0300", "2027-01-04T10:00:00-03",
            "2027-01-04T10:00:00-03:00:00", "2027-01-04T10:00:00", "2027-01-04 10:00:00Z", "2027-01-04t10:00:00Z", "2027-01-04T10:00Z",
            "2027-01-04T10:00:00.Z", "2027-01-04T10:00:00.1234567891Z", "2027-02-29T10:00:00Z", "2027-01-04T24:00:00Z",
            "2027-01-04T23:59:60Z", "2027-01-04T10:00:00+24:00", "0000-01-04T10:00:00Z", "2027-1-04T10:00:00Z", " 2027-01-04T10:00:00Z",
            "", "２０２７-01-04T10:00:00Z",
        ] {
            #expect(RFC3339.instante(texto) == nil, "\(texto)")
        }
    }

    @Test("free text is bounded in characters and in UTF-8 bytes: one character of 60,000 combining marks does not fit 200")
    func free_text_bytes() {
        let marcas = "a" + String(repeating: "\u{0301}", count: 60_000)
        #expect(marcas.count == 1)
        #expect(TextoLivre.problema(marcas, maximo: 200) == .longo)
        #expect(TextoLivre.problema(String(repeating: "ã", count: 200), maximo: 200) == nil)
        #expect(TextoLivre.problema(String(repeating: "👩🏽‍💻", count: 20), maximo: 200) == nil, "emoji of 15 bytes, 20 of them")
        #expect(TextoLivre.problema(String(repeating: "a", count: 201), maximo: 200) == .longo)
        #expect(TextoLivre.limite(200) == "até 200 caracteres (800 bytes em UTF-8)")
    }

    @Test("no free text takes the form of a sealed personal field")
    func free_text_never_sealed() {
        #expect(TextoLivre.problema("pii:v1:6f1c2b1e-0000-4000-8000-000000000000:AAAA", maximo: 500) == .formaSelada)
        #expect(TextoLivre.problema("pii:", maximo: 500) == .formaSelada)
        #expect(TextoLivre.problema("sobre pii:v1:…", maximo: 500) == nil, "only the beginning is the sealed form")
    }

    @Test("names of spaces and units, amenities and captions follow the free-text rule")
    func domain_names_follow_the_rule() {
        let marcas = "S" + String(repeating: "\u{0301}", count: 5_000)
        #expect(throws: Espaco.Failure.nomeInvalido) { try Espaco.nomeValido(marcas) }
        #expect(throws: Espaco.Failure.nomeInvalido) { try Espaco.nomeValido("pii:v1:x") }
        #expect(throws: Espaco.Failure.comodidadeInvalida) { try Espaco.comodidadesValidas(["wi-fi", "pii:v1:x"]) }
        #expect(throws: Espaco.Failure.fotoInvalida) {
            try Espaco.fotosValidas([Espaco.Foto(url: "https://img/1.jpg", legenda: "Vista" + String(repeating: "\u{0301}", count: 1_000))])
        }
    }
}
