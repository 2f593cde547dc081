import Domain
import EventStore
import Foundation
import Projections
import Testing

@Suite("Stream names")
struct StreamNamesTests {
    @Test("a company's pooled credits are told apart from a member's wallet and from other streams")
    func company_pool_from_its_stream() {
        let empresa = UUID()
        #expect(StreamNames.empresa(daCarteira: StreamNames.creditos(Empresa.titular(empresa))) == empresa)
        #expect(StreamNames.empresa(daCarteira: StreamNames.creditos(UUID().uuidString.lowercased())) == nil)
        #expect(StreamNames.empresa(daCarteira: StreamName("empresa-\(empresa.uuidString.lowercased())")) == nil)
        #expect(StreamNames.empresa(daCarteira: StreamName("creditos")) == nil)
        #expect(StreamNames.empresa(daCarteira: StreamName("creditos-empresa-")) == nil)
    }
}
