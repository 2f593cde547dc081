import EventStore
import Foundation
import Testing

@testable import Services

@Suite("Write receipts: what a command's appends wrote, for its caller")
struct WriteReceiptTests {
    @Test("each type keeps its last position across the command's appends; a write is shared only once marked")
    func merges_appends() {
        let receipt = WriteReceipt()
        #expect(receipt.types.isEmpty && !receipt.shared)
        let primeira = GlobalPosition(transaction: 10, sequence: 1)
        let segunda = GlobalPosition(transaction: 12, sequence: 4)
        let terceira = GlobalPosition(transaction: 12, sequence: 6)
        receipt.record(AppendResult(positions: [primeira, segunda], versions: [:], types: ["A": segunda, "B": primeira]))
        receipt.record(AppendResult(positions: [terceira], versions: [:], types: ["B": terceira]))
        // An answer that wrote nothing (a repeated append of nothing new) changes nothing.
        receipt.record(AppendResult(positions: [], versions: [:]))
        #expect(receipt.types == ["A": segunda, "B": terceira])
        #expect(!receipt.shared)
        receipt.markShared()
        #expect(receipt.shared)
    }
}
