import TouchEvdev
import TouchSystem

extension UdevInputDevice {
    /// The kernel's name of the input device this event node belongs to (sysfs `inputN/name`), when
    /// it can be read.
    public var kernelName: String? {
        guard let slash = syspath.lastIndex(of: "/") else { return nil }
        let path = syspath[..<slash] + "/name"
        guard let text = try? FileReader.readText(String(path), limit: 4096) else { return nil }
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    /// Whether this is one of touchd's own virtual touchscreens (by its kernel name): never opened.
    public var isVirtualTouchscreen: Bool {
        kernelName.map { VirtualTouchscreenDescription.isVirtualTouchscreen(name: $0) } ?? false
    }
}
