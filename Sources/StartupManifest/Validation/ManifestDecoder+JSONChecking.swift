import StartupJSON

/// The manifest is checked with the same value checks as a saved run report (ids, booleans,
/// whole numbers), so both accept and reject the same values.
extension ManifestDecoder: JSONChecking {}
