import TouchSystem
import Testing
import TouchDevices
import TouchEvdev

/// What the device shell does without devices; the real kernel path is exercised in the VM harness.
@Suite(.timeLimit(.minutes(10))) struct DeviceShellTests {
    @Test func aFileThatIsNotAnEvdevNodeIsAClearErrorNotACrash() {
        #expect {
            _ = try EvdevDevice(path: "/dev/null")
        } throws: { error in
            guard let error = error as? SystemError else { return false }
            return error.call == "libevdev_new_from_fd" && error.subject == "/dev/null" && !error.description.isEmpty
        }
        #expect {
            _ = try EvdevDevice(path: "/nonexistent/event0")
        } throws: { error in
            (error as? SystemError)?.call == "open" && "\(error)".contains("No such file")
        }
    }

    @Test func theStableIdentityIgnoresTheEventNumberAndPrefersThePort() {
        let udev = StableIdentity.of(
            name: "Atmel maXTouch", vendor: 0x03eb, product: 0x8c1f,
            properties: ["ID_PATH": "pci-0000:00:14.0-usb-0:2:1.0", "ID_SERIAL": "Atmel_1"], physicalPath: "usb-0000:00:14.0-2/input0")
        #expect(udev == "pci-0000:00:14.0-usb-0:2:1.0/Atmel_1/03eb:8c1f/Atmel maXTouch")
        let kernelOnly = StableIdentity.of(name: "Atmel maXTouch", vendor: 0x03eb, product: 0x8c1f, properties: [:], physicalPath: "usb-0000:00:14.0-2/input0")
        #expect(kernelOnly == "usb-0000:00:14.0-2/input0/03eb:8c1f/Atmel maXTouch")
        #expect(StableIdentity.of(name: "x", vendor: 1, product: 2, properties: [:], physicalPath: nil) == "0001:0002/x")
        #expect(StableIdentity.of(name: "x", vendor: 1, product: 2, properties: ["ID_SERIAL": "noserial"], physicalPath: nil) == "0001:0002/x")
    }

    @Test func identicalDevicesPresentTogetherGetDistinctIdentities() {
        let id = "0001:0002/x"
        #expect(StableIdentity.distinct(id, from: []) == id)
        #expect(StableIdentity.distinct(id, from: ["0003:0004/y"]) == id)
        #expect(StableIdentity.distinct(id, from: [id]) == "0001:0002/x#2")
        #expect(StableIdentity.distinct(id, from: [id, "0001:0002/x#2"]) == "0001:0002/x#3")
        // The first of two is unplugged: its identity is free again for the next one.
        #expect(StableIdentity.distinct(id, from: ["0001:0002/x#2"]) == id)
    }

    @Test func enumerationWorksWithoutUdevd() throws {
        let udev = try Udev()
        // This machine may have no /dev/input at all: enumeration must still answer.
        for device in try udev.inputDevices() { #expect(device.devnode.hasPrefix("/dev/input/event")) }
        let fd = try udev.startMonitor()
        #expect(fd >= 0)
        #expect(udev.monitorSource == (Udev.udevdIsRunning ? "udev" : "kernel"))
        #expect(udev.receive().isEmpty)
    }
}
