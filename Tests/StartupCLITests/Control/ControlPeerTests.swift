import Foundation
import Testing

@testable import StartupCLI

/// Another user is refused even when the socket's mode lets them connect: the run checks each peer's user id,
/// and the client checks the run's. The other user is `nobody`, reached from root with `setpriv`.
@Suite struct ControlPeerTests {
    /// Whether this test process can run a child as `nobody`: it is root and has `setpriv`, and perl is there to
    /// be a raw client.
    static let canDropToNobody =
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/perl")

    /// `COMMAND ARGUMENTS...` as `nobody`.
    private func asNobody(_ arguments: [String], in folder: String) async throws -> StartupBinary.Result {
        try await StartupBinary.launch(
            "/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups"] + arguments, in: folder
        ).finish()
    }

    @Test(.enabled(if: canDropToNobody, "needs root, /usr/bin/setpriv and /usr/bin/perl to act as another user (nobody)"))
    func anotherUser_isRefused_evenWithTheSocketsModeOpened() async throws {
        let fixture = try await ControlFixture()
        let socket = fixture.server.path.socket
        #expect(chmod(socket, 0o666) == 0)
        let perl = """
            use IO::Socket::UNIX; my $s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "connect: $!\\n";
            print $s qq({"version": 1, "op": "down"}\\n); print while <$s>;
            """
        let raw = try await asNobody(["/usr/bin/perl", "-e", perl, socket], in: fixture.folder.path)
        #expect(raw.error == "", "status \(raw.status)")
        #expect(raw.status == 0, "\(raw.error)")
        let answer = try #require(ControlAnswer.parse(Array(raw.output.dropLast().utf8)), "\(raw.output)")
        #expect(answer == .error("refused: this run belongs to user 0, and only its owner may control it", exit: 77))
        #expect(fixture.target.calls == [])
        #expect(await fixture.startup(["ps"]).code == .success)
    }

    @Test(.enabled(if: canDropToNobody, "needs root, /usr/bin/setpriv and /usr/bin/perl to act as another user (nobody)"))
    func theClient_refusesARunOfAnotherUser() async throws {
        let fixture = try await ControlFixture()
        #expect(chmod(fixture.server.path.socket, 0o666) == 0)
        let result = try await asNobody([StartupBinary.path, "down", "--file", fixture.manifest], in: fixture.folder.path)
        #expect(result.status == 77)
        #expect(result.error.contains("belongs to another user's process"), "\(result.error)")
        #expect(fixture.target.calls == [])
    }

    @Test(.enabled(if: canDropToNobody, "needs root, /usr/bin/setpriv and /usr/bin/perl to act as another user (nobody)"))
    func withTheSocketsOwnMode_anotherUserCannotConnectAtAll() async throws {
        let fixture = try await ControlFixture()
        let result = try await asNobody([StartupBinary.path, "ps", "--file", fixture.manifest], in: fixture.folder.path)
        #expect(result.status == 69)
        #expect(result.error == "error: no run of \(fixture.manifest) is up\n")
    }
}
