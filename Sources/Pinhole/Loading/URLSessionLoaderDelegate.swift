import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The session's delegate: hands each callback to the ``URLSessionTransfer`` of its task.
///
/// URLSession calls it on its own serial delegate queue; the transfer table is guarded by a `Locked`.
final class URLSessionLoaderDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let transfers = Locked<[Int: URLSessionTransfer]>([:])

    var count: Int { transfers.withLock { $0.count } }

    func register(_ transfer: URLSessionTransfer, for taskIdentifier: Int) {
        transfers.withLock { $0[taskIdentifier] = transfer }
    }

    func unregister(_ taskIdentifier: Int) {
        _ = transfers.withLock { $0.removeValue(forKey: taskIdentifier) }
    }

    private func transfer(_ task: URLSessionTask) -> URLSessionTransfer? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let transfer = transfer(dataTask) else { return completionHandler(.cancel) }
        completionHandler(transfer.didReceive(response) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer(dataTask)?.didReceive(data)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        // No transfer: a task we do not know was cancelled or never ours; leave the question unanswered rather
        // than answer a cancelled task (which traps in FoundationNetworking).
        guard let transfer = transfer(task) else { return }
        guard let target = request.url else { return completionHandler(nil) }
        switch transfer.answerRedirect(to: target) {
        case .follow: completionHandler(request)
        case .refuse: completionHandler(nil)
        case .ignore: break  // the task was cancelled: answering now would trap in FoundationNetworking
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        transfer(task)?.didComplete(error: error)
        unregister(task.taskIdentifier)
    }
}
