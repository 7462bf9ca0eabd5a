/// touchd's release version: the one place it is written.
///
/// `touchd --version`, `touchctl --version` and the socket's `hello` (`"daemon":"touchd 0.1.0"`)
/// print it; the Makefile reads it from this file for the Debian package, whose `debian/changelog`
/// must name the same version (`make deb` refuses to build otherwise).
public enum ReleaseVersion {
    /// The version number, `MAJOR.MINOR.PATCH`.
    public static let number = "0.1.0"

    /// What `tool --version` prints and the hello's `daemon` names: `touchd 0.1.0`.
    public static func of(_ tool: String) -> String { "\(tool) \(number)" }
}
