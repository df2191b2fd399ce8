import StartupKit
import StartupManifest
import StartupReporting

/// `startup plan` and `startup graph`: validate the manifest and print the plan or the graph;
/// with `--what-if`, the plan after hypothetical changes.
enum PlanCommand {
    /// Prints the plan in the requested format; throws the exit code when the manifest is unusable.
    ///
    /// - Parameters:
    ///   - options: The parsed options.
    ///   - console: Where to print.
    ///   - learnsFromLastRun: Whether measured durations of the last run stand in for missing
    ///     estimates (`plan`, not `graph`).
    static func execute(_ options: PlanOptions, console: Console, learnsFromLastRun: Bool = true) throws(ExitCode) {
        let whole = try ManifestLoading.load(options.file, console: console)
        var manifest = try ManifestLoading.select(options.targets, from: whole, for: .plan, console: console)
        var measured: MeasuredEstimates?
        if learnsFromLastRun, options.usesLastRun {
            let path = options.report ?? ReportFiles.defaultPath(forManifest: options.file)
            let lastRun =
                if options.report != nil {
                    try ReportFiles.load(path, console: console)
                } else if MeasuredEstimates.areWanted(by: manifest) {
                    ReportFiles.lastRun(path, console: console)
                } else {
                    SavedRun?.none
                }
            if let lastRun {
                let estimates = MeasuredEstimates(
                    run: lastRun, manifest: manifest, source: options.report ?? ReportFiles.displayPath(forManifest: options.file))
                manifest = estimates.applied(to: manifest)
                measured = estimates.isEmpty ? nil : estimates
            }
        }
        let plan = try ManifestLoading.plan(manifest, binding: ManifestLoading.graphOnly(manifest), console: console)
        if !options.whatIf.isEmpty {
            let scenario: WhatIfScenario
            do {
                scenario = try WhatIfScenario.apply(options.whatIf, to: manifest)
            } catch {
                console.error("--what-if \(error.message)", details: "Usage: see startup plan --help")
                throw .usage
            }
            let changed = try ManifestLoading.plan(
                scenario.manifest, binding: ManifestLoading.graphOnly(scenario.manifest), console: console)
            let prediction = WhatIfPrediction(baseline: plan, scenario: scenario, changed: changed, jobs: options.jobs)
            switch options.format {
            case .text: console.out(prediction.text(file: options.file) + (measured.map { $0.line + "\n" } ?? ""))
            case .json:
                let annotated = MeasuredEstimates.annotate(prediction.json(), manifest: manifest, measured: measured)
                console.out(PlanServicesJSON.annotate(annotated, manifest: scenario.manifest).text(pretty: true) + "\n")
            case .dot: console.out(PlanExport.dot(changed) + "\n")
            case .mermaid: console.out(PlanExport.mermaid(changed) + "\n")
            }
            return
        }
        switch options.format {
        case .text:
            console.out(
                PlanTextRenderer(
                    plan: plan, manifest: manifest, jobs: options.jobs, file: options.file,
                    targets: options.targets, manifestCount: whole.commands.count
                ).render()
                    + (measured.map { $0.line + "\n" } ?? ""))
        case .json:
            let annotated = MeasuredEstimates.annotate(PlanExport.json(plan, jobs: options.jobs), manifest: manifest, measured: measured)
            console.out(PlanServicesJSON.annotate(annotated, manifest: manifest).text(pretty: true) + "\n")
        case .dot: console.out(PlanExport.dot(plan) + "\n")
        case .mermaid: console.out(PlanExport.mermaid(plan) + "\n")
        }
    }
}
