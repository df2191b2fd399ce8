/// A package's share of a start-up: a name, and the commands it adds to a builder.
///
/// A feature package or an SDK wrapper vends its commands as a module; the app adds the modules
/// it links, then adjusts what they added (``StartupPlanBuilder/remove(_:)``, adding a command
/// with the same id again to replace it). The plan remembers which module added each command:
/// errors name modules, and the report gives each command's ``CommandReport/module`` and the time
/// spent by each module (``StartupReport/timeByModule(along:)``).
///
/// ```swift
/// struct AdsKit: StartupModule {
///     let name = "AdsKit"
///     func register(into builder: inout StartupPlanBuilder) {
///         builder.add("ads", dependsOn: ["consent"], options: CommandOptions(isOptional: true)) { _ in
///             await Ads.start()
///         }
///     }
/// }
///
/// var builder = StartupPlanBuilder()
/// builder.add(module: AdsKit())
/// ```
public protocol StartupModule: Sendable {
    /// The module's name, as errors and reports show it: the package or SDK it stands for.
    var name: String { get }

    /// Adds the module's commands to `builder`. Every command added here is attributed to the
    /// module, including those a module it adds in turn does not claim.
    ///
    /// - Parameter builder: The app's builder; the module may also read it
    ///   (``StartupPlanBuilder/contains(_:)``) and remove or replace what others added.
    func register(into builder: inout StartupPlanBuilder)
}
