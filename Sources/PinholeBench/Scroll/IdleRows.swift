import Foundation

/// Rows that load nothing: the frame loop alone, so its hitches measure the machine (other processes, timer
/// wake-ups), the reference the other strategies are compared with in the same run.
@MainActor
final class IdleRows: ScrollRowStrategy {
    func appear(row: Int, url: URL, cell: Int) {}
    func rebind(row: Int, url: URL, cell: Int) {}
    func disappear(row: Int, cell: Int) {}
    func draw(cell: Int) {}
    var isSettled: Bool { true }
    func showsOwnImage(cell: Int, url: URL) -> Bool { false }
}
