/// Why a request cannot be served: the message of the error answer and the exit status the client takes.
package struct ControlProtocolError: Error, Equatable, Sendable {
    /// What is wrong, a sentence without a final period.
    package var message: String
    /// The client's exit status: 64 for a request that is wrong.
    package var exit: Int32

    /// An error of the request (64) unless `exit` says otherwise.
    package init(_ message: String, exit: Int32 = 64) {
        self.message = message
        self.exit = exit
    }
}
