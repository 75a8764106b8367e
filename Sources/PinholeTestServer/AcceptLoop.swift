import Glibc

/// The accept thread: takes new connections, gives each a thread, and joins threads of ended connections.
struct AcceptLoop {
    let storage: ServerStorage

    func run() {
        while true {
            let (_, stopping) = Socket.poll(
                storage.listenerFD, events: Int16(POLLIN), wakeFD: storage.wakeReadFD, timeout: 1000)
            if stopping { break }
            acceptPending()
            for thread in storage.takeEndedThreads() { thread.join() }
        }
    }

    private func acceptPending() {
        while true {
            switch Socket.accept(storage.listenerFD) {
            case .success(let fd?):
                let storage = storage
                let wakeFD = storage.wakeReadFD
                storage.startConnection(fd: fd) { id in
                    let connection = ClientConnection(fd: fd, wakeFD: wakeFD)
                    ConnectionHandler(storage: storage, connection: connection).run()
                    storage.connectionEnded(id: id)
                }
            case .success(nil):
                return
            case .failure:
                // Out of descriptors or memory: back off instead of spinning on a readable listener.
                _ = Socket.poll(storage.wakeReadFD, events: Int16(POLLIN), wakeFD: storage.wakeReadFD, timeout: 10)
                return
            }
        }
    }
}
