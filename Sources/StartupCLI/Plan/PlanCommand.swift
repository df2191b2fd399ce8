import StartupKit
import StartupManifest

/// `startup plan` and `startup graph`: validate the manifest and print the plan or the graph.
enum PlanCommand {
    /// Prints the plan in the requested format; throws the exit code when the manifest is unusable.
    static func execute(_ options: PlanOptions, console: Console) throws(ExitCode) {
        let manifest = try ManifestLoading.load(options.file, console: console)
        let plan = try ManifestLoading.plan(manifest, binding: ManifestLoading.graphOnly(manifest), console: console)
        switch options.format {
        case .text: console.out(PlanTextRenderer(plan: plan, manifest: manifest, jobs: options.jobs, file: options.file).render())
        case .json: console.out(PlanExport.json(plan, jobs: options.jobs).text(pretty: true) + "\n")
        case .dot: console.out(PlanExport.dot(plan) + "\n")
        case .mermaid: console.out(PlanExport.mermaid(plan) + "\n")
        }
    }
}
