import StartupManifest
import Testing

/// `ManifestReadiness.Probe`'s documented `switch`, with a `default` for the probes to come,
/// compiled as written.
private func address(of probe: ManifestReadiness.Probe) -> String? {
    switch probe {
    case .tcp(let host, let port), .http(let host, let port, _): "\(host):\(port)"
    default: nil
    }
}

@Suite struct ProbeExampleTests {
    @Test func documentedSwitch_answersForItsCases_andTheDefault() {
        #expect(address(of: .tcp(host: "127.0.0.1", port: 5433)) == "127.0.0.1:5433")
        #expect(address(of: .http(host: "localhost", port: 80, path: "/")) == "localhost:80")
        #expect(address(of: .exec("true")) == nil)
    }
}
