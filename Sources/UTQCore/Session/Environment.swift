#if canImport(Glibc)
import Glibc
#endif

/// One environment variable, read as it is asked for. `ProcessInfo.environment` copies the
/// whole environment into a dictionary each time; at start-up utq asks for a few names, and
/// the copies were a twentieth of starting.
public enum Environment {
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
