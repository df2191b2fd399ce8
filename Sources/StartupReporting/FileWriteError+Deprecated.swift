extension FileWriteError {
    /// The system's error number (`errno`).
    @available(*, deprecated, renamed: "errorNumber", message: "`code` is a `Code` in every other error; this is an errno")
    public var code: Int32 { errorNumber }

    /// An error writing `path`, or making its parent `folder`.
    @available(*, deprecated, renamed: "init(path:errorNumber:folder:)")
    public init(path: String, code: Int32, folder: String? = nil) {
        self.init(path: path, errorNumber: code, folder: folder)
    }
}
