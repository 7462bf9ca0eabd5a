import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// What a uinput device is to be: its identity, event bits and absolute axes.
public struct UinputSetup: Hashable, Sendable {
    /// One absolute axis: `ABS_*` code, range and units per millimetre.
    public struct Axis: Hashable, Sendable {
        public var code: UInt16
        public var minimum: Int32
        public var maximum: Int32
        public var resolution: Int32

        public init(code: UInt16, minimum: Int32, maximum: Int32, resolution: Int32) {
            self.code = code
            self.minimum = minimum
            self.maximum = maximum
            self.resolution = resolution
        }
    }

    public var name: String
    public var phys: String
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    /// `EV_KEY` codes.
    public var keys: [UInt16]
    /// `INPUT_PROP_*` bits.
    public var properties: [UInt16]
    public var axes: [Axis]

    public init(
        name: String, phys: String, bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16, keys: [UInt16], properties: [UInt16],
        axes: [Axis]
    ) {
        self.name = name
        self.phys = phys
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.keys = keys
        self.properties = properties
        self.axes = axes
    }
}

/// An input device touchd creates through `/dev/uinput`: it exists while this object holds its
/// descriptor. The kernel removes it when the descriptor closes, however the process ends (a crash
/// included), so a restarted daemon never finds its old devices beside its new ones.
///
/// Confined to the loop that made it; every call goes through ``SystemCall``.
public final class UinputDevice {
    /// The default uinput node.
    public static let defaultPath = "/dev/uinput"
    /// `EV_SYN`, `EV_KEY`, `EV_ABS`.
    static let eventTypes: [Int32] = [0x00, 0x01, 0x03]
    private var fd: Int32
    /// The device's name, for messages.
    public let name: String
    /// The kernel's name of the created device (`inputN`), when it tells.
    public let sysname: String?

    /// Opens `path` and creates the device.
    /// - Throws: ``SystemError`` naming the call: `open` (`ENOENT`: no uinput in this kernel;
    ///   `EACCES`/`EPERM`: not allowed), or an `ioctl` the kernel refused.
    public init(_ setup: UinputSetup, path: String = UinputDevice.defaultPath) throws(SystemError) {
        let fd = try SystemCall.descriptor("open", path) { open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC) }
        do {
            try Self.configure(fd, setup, subject: "\(path) (\(setup.name))")
        } catch {
            Descriptor.close(fd, path)
            throw error
        }
        self.fd = fd
        name = setup.name
        var buffer = [CChar](repeating: 0, count: 64)
        let told = buffer.withUnsafeMutableBufferPointer { touchd_uinput_sysname(fd, $0.baseAddress, 64) } >= 0
        sysname = told ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    deinit { destroy() }

    private static func configure(_ fd: Int32, _ setup: UinputSetup, subject: String) throws(SystemError) {
        for type in eventTypes {
            try SystemCall.require("ioctl(UI_SET_EVBIT)", subject) { touchd_uinput_set_bit(fd, 0, type) }
        }
        for key in setup.keys {
            try SystemCall.require("ioctl(UI_SET_KEYBIT)", subject) { touchd_uinput_set_bit(fd, 1, Int32(key)) }
        }
        for property in setup.properties {
            try SystemCall.require("ioctl(UI_SET_PROPBIT)", subject) { touchd_uinput_set_bit(fd, 3, Int32(property)) }
        }
        for axis in setup.axes {
            try SystemCall.require("ioctl(UI_SET_ABSBIT)", subject) { touchd_uinput_set_bit(fd, 2, Int32(axis.code)) }
            try SystemCall.require("ioctl(UI_ABS_SETUP)", subject) {
                touchd_uinput_abs_setup(fd, Int32(axis.code), axis.minimum, axis.maximum, axis.resolution)
            }
        }
        try SystemCall.require("ioctl(UI_DEV_SETUP)", subject) {
            touchd_uinput_dev_setup(fd, setup.name, setup.bus, setup.vendor, setup.product, setup.version)
        }
        try SystemCall.require("ioctl(UI_SET_PHYS)", subject) { touchd_uinput_set_phys(fd, setup.phys) }
        try SystemCall.require("ioctl(UI_DEV_CREATE)", subject) { touchd_uinput_create(fd) }
    }

    /// Writes `events` (type, code, value), in as few `write`s as it can; the kernel stamps them.
    /// - Throws: ``SystemError`` from `write` (the device was destroyed, or the kernel refused).
    public func write(types: [UInt16], codes: [UInt16], values: [Int32]) throws(SystemError) {
        guard fd >= 0 else { return }
        let fd = self.fd
        let name = self.name
        let count = min(types.count, codes.count, values.count)
        var start = 0
        while start < count {
            let end = min(start + 64, count)
            let n = Int32(truncatingIfNeeded: end - start)
            // The chunk read where it is (`start` and `end` are within all three arrays).
            let result = types.withUnsafeBufferPointer { t in
                codes.withUnsafeBufferPointer { c in
                    values.withUnsafeBufferPointer { v in
                        Result { () throws(SystemError) -> SystemCall.Outcome in
                            try SystemCall.posix("write", name) {
                                touchd_uinput_write(fd, t.baseAddress.map { $0 + start }, c.baseAddress.map { $0 + start }, v.baseAddress.map { $0 + start }, n)
                            }
                        }
                    }
                }
            }
            _ = try result.get()
            start = end
        }
    }

    /// Removes the device and closes its descriptor (once; later calls do nothing).
    public func destroy() {
        guard fd >= 0 else { return }
        _ = touchd_uinput_destroy(fd)
        Descriptor.close(fd, name)
        fd = -1
    }
}
