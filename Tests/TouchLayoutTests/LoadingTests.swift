import Foundation
import Testing
import TouchCore

@testable import TouchLayout

/// Every key of the format, each set to something other than its default.
let fullLayout = """
    version = 1

    [application]
    id = "app"
    delegate = "delegate"

    [tap]
    interval = 0.5
    distance_mm = 9
    max_duration = 1
    slop_mm = 4.5

    [queue]
    capacity = 64

    [[window]]
    id = "main"
    size = [1280, 800.5]
    level = 2
    key = false
    points_per_mm = 5.0
    refresh_hz = 120
    display = "left"
    root_controller = "home"

    [[window]]
    id = "overlay"
    size = [100, 50]
    key = true

    [[controller]]
    id = "home"
    view = "home.root"

    [[controller]]
    id = "sheet"
    view = "sheet.root"
    presented_by = "home"

    [[view]]
    id = "home.root"
    parent = "main"
    frame = [0, 0, 1280, 800]
    bounds_origin = [0, -20]
    hidden = true
    alpha = 0.5
    interactive = false
    clips_to_bounds = true
    multiple_touch = true
    exclusive_touch = true
    hit_expansion = [1, 2, 3.5, 4]
    hit_test = "redirect"
    redirect = "button"

    [[view]]
    id = "button"
    parent = "home.root"
    frame = [10.5, 20, 30, 40]
    hit_expansion = 10
    hit_test = "capture"

    [[view]]
    id = "sheet.root"
    parent = "main"
    frame = [0, 0, 1280, 800]
    hit_test = "pass-through"

    [[handler]]
    responder = "button"
    on = "touches_ended"
    action = "open-door"
    payload = { door = 1, name = "front", ratio = 0.5, open = true, list = [1, "two"], when = 1979-05-27T07:32:00Z }
    pass_on = false
    tap_count = 2

    [[handler]]
    responder = "delegate"
    on = "touches_cancelled"
    action = "log"

    [[device]]
    match.kind = "touchscreen"
    match.name = "Atmel*"
    match.usb = "03EB:8c1f"
    match.id_path = "pci-0000:00:14.0-usb-0:2:1.0"
    match.id_serial = "Atmel_maXTouch"
    match.devnode = "/dev/input/event5"
    window = "main"
    region = [0, 0, 640, 800]
    rotation = 90
    swap_axes = true
    invert_x = true
    invert_y = true
    calibration = [1, 0, 0.5, 0, 1, -0.25]
    udev_calibration = false
    grab = false
    palm_pressure = 200
    palm_touch_major = 30

    [[device]]
    window = "overlay"
    pointercal = "pointercal"

    [device.match]
    kind = "touchpad"
    """

@Suite(.timeLimit(.minutes(10))) struct LoadingTests {
    @Test func everyKeyIsRead() throws {
        let document = try load(fullLayout, file: "/etc/touchd/layout.toml")
        #expect(document.version == 1)
        #expect(document.application == ApplicationSpec(id: "app", delegate: "delegate"))
        #expect(
            document.settings.tap
                == TapSettings(interval: 0.5, distanceMillimetres: 9, maximumDuration: 1, slopMillimetres: 4.5))
        #expect(document.settings.queueCapacity == 64)
        #expect(
            document.windows == [
                WindowSpec(
                    id: "main",
                    properties: WindowProperties(
                        size: Size(width: 1280, height: 800.5), level: 2, isKey: false, pointsPerMillimetre: 5, display: "left",
                        rootController: "home", refreshRate: 120)),
                // A window that names no refresh rate has the layout's default, 60 Hz.
                WindowSpec(id: "overlay", properties: WindowProperties(size: Size(width: 100, height: 50), isKey: true, refreshRate: 60)),
            ])
        #expect(
            document.controllers == [
                ControllerSpec(id: "home", properties: ControllerProperties(view: "home.root")),
                ControllerSpec(id: "sheet", properties: ControllerProperties(view: "sheet.root", presentedBy: "home")),
            ])
        #expect(
            document.views == [
                ViewSpec(
                    id: "home.root", parent: "main",
                    properties: ViewProperties(
                        frame: Rect(x: 0, y: 0, width: 1280, height: 800), boundsOrigin: Point(x: 0, y: -20), isHidden: true,
                        alpha: 0.5, isUserInteractionEnabled: false, clipsToBounds: true, isMultipleTouchEnabled: true,
                        isExclusiveTouch: true, hitExpansion: EdgeInsets(top: 1, left: 2, bottom: 3.5, right: 4),
                        hitTestPolicy: .redirect("button"))),
                ViewSpec(
                    id: "button", parent: "home.root",
                    properties: ViewProperties(
                        frame: Rect(x: 10.5, y: 20, width: 30, height: 40), hitExpansion: EdgeInsets(all: 10),
                        hitTestPolicy: .capture)),
                ViewSpec(
                    id: "sheet.root", parent: "main",
                    properties: ViewProperties(frame: Rect(x: 0, y: 0, width: 1280, height: 800), hitTestPolicy: .passThrough)),
            ])
        #expect(
            document.handlers == [
                Handler(
                    responder: "button", trigger: .touchesEnded, action: "open-door",
                    payload: .object([
                        ("door", .int(1)), ("list", .array([.int(1), .string("two")])), ("name", .string("front")),
                        ("open", .bool(true)), ("ratio", .double(0.5)), ("when", .string("1979-05-27T07:32:00Z")),
                    ]), passesOn: false, tapCount: 2),
                Handler(responder: "delegate", trigger: .touchesCancelled, action: "log"),
            ])
        #expect(
            document.devices == [
                DeviceSpec(
                    match: DeviceMatchSpec(
                        kind: .touchscreen, name: "Atmel*", usb: USBID(vendor: 0x03eb, product: 0x8c1f),
                        idPath: "pci-0000:00:14.0-usb-0:2:1.0", idSerial: "Atmel_maXTouch",
                        devnode: "/dev/input/event5"),
                    window: "main", region: Rect(x: 0, y: 0, width: 640, height: 800), rotation: .clockwise90,
                    swapAxes: true, invertX: true, invertY: true, calibration: [1, 0, 0.5, 0, 1, -0.25],
                    usesUdevCalibration: false, grab: false, palmPressure: 200, palmTouchMajor: 30),
                DeviceSpec(
                    match: DeviceMatchSpec(kind: .touchpad), window: "overlay",
                    pointercal: "/etc/touchd/pointercal"),
            ])
        #expect(document.keyWindow?.id == "overlay")
        #expect(document.devices[0].match.usb?.description == "03eb:8c1f")
    }

    @Test func defaultsAreFilledIn() throws {
        let document = try load(
            """
            [[window]]
            id = "w"
            size = [10, 20]

            [[view]]
            id = "v"
            parent = "w"
            frame = [1, 2, 3, 4]

            [[handler]]
            responder = "v"
            on = "touches_began"
            action = "go"

            [[device]]
            window = "w"
            """)
        #expect(document.version == 1)
        #expect(document.application.id == "application")
        #expect(document.application.delegate == "app_delegate")
        #expect(document.settings == ApplicationSettings(), "the core's defaults")
        #expect(document.settings.tap == TapSettings(interval: 0.35, distanceMillimetres: 7, maximumDuration: 0.75, slopMillimetres: 7))
        #expect(document.settings.queueCapacity == 1024)
        let window = try #require(document.windows.first)
        #expect(window.level == 0)
        #expect(window.isKey)  // the first window is key by default
        #expect(window.pointsPerMillimetre == 6.4)
        #expect(window.display == "default")
        #expect(window.rootController == nil)
        #expect(document.controllers.isEmpty)
        let view = try #require(document.views.first)
        #expect(view.boundsOrigin == .zero)
        #expect(!view.isHidden)
        #expect(view.alpha == 1)
        #expect(view.isUserInteractionEnabled)
        #expect(!view.clipsToBounds)
        #expect(!view.isMultipleTouchEnabled)
        #expect(!view.isExclusiveTouch)
        #expect(view.hitExpansion == .zero)
        #expect(view.hitTestPolicy == .default)
        #expect(view.firstResponderTraits == nil)
        let handler = try #require(document.handlers.first)
        #expect(handler.payload == .object([]))
        #expect(handler.passesOn)
        #expect(handler.tapCount == nil)
        let device = try #require(document.devices.first)
        #expect(device.match == DeviceMatchSpec(kind: .any))
        #expect(device.region == nil)
        #expect(device.rotation == .none)
        #expect(!device.swapAxes && !device.invertX && !device.invertY)
        #expect(device.calibration == nil)
        #expect(device.usesUdevCalibration)
        #expect(device.pointercal == nil)
        #expect(device.grab)
        #expect(device.palmPressure == nil && device.palmTouchMajor == nil)
    }

    @Test func fileOrderIsKept() throws {
        // Sibling order is z-order, so entries must come out exactly as written, not sorted.
        let document = try load(
            """
            [[window]]
            id = "zeta"
            size = [10, 10]
            [[window]]
            id = "alpha"
            size = [10, 10]

            [[view]]
            id = "top"
            parent = "zeta"
            frame = [0, 0, 1, 1]
            [[view]]
            id = "middle"
            parent = "zeta"
            frame = [0, 0, 1, 1]
            [[view]]
            id = "bottom"
            parent = "zeta"
            frame = [0, 0, 1, 1]

            [[handler]]
            responder = "top"
            on = "touches_ended"
            action = "second"
            [[handler]]
            responder = "top"
            on = "touches_began"
            action = "first"
            """)
        #expect(document.windows.map(\.id) == ["zeta", "alpha"])
        #expect(document.views.map(\.id) == ["top", "middle", "bottom"])
        #expect(document.subviews(of: "zeta").map(\.id) == ["top", "middle", "bottom"])
        #expect(document.handlers.map(\.action) == ["second", "first"])
        #expect(document.keyWindow?.id == "zeta")
    }

    @Test func aWindowWithoutViewsIsFine() throws {
        let document = try load(
            """
            [[window]]
            id = "empty"
            size = [10, 10]
            """)
        #expect(document.windows.map(\.id) == ["empty"])
        #expect(document.views.isEmpty)
    }

    @Test func keyDefaultsSkipWindowsMarkedNotKey() throws {
        let document = try load(
            """
            [[window]]
            id = "a"
            size = [1, 1]
            key = false
            [[window]]
            id = "b"
            size = [1, 1]
            """)
        #expect(document.windows.map(\.isKey) == [false, true])
    }

    @Test func arraysOfTablesMayBeWrittenInline() throws {
        let document = try load(
            """
            window = [{ id = "w", size = [4, 4] }]
            view = [
              { id = "v1", parent = "w", frame = [0, 0, 1, 1] },
              { id = "v2", parent = "v1", frame = [0, 0, 1, 1], alpha = 0.25 },
            ]
            """)
        #expect(document.views.map(\.id) == ["v1", "v2"])
        #expect(document.view("v2")?.alpha == 0.25)
        #expect(document.window(containing: "v2")?.id == "w")
    }

    @Test func relativePointercalResolvesAgainstTheLayoutDirectory() throws {
        let text = """
            [[window]]
            id = "w"
            size = [4, 4]
            [[device]]
            window = "w"
            pointercal = "cal/pointercal"
            [[device]]
            window = "w"
            pointercal = "/etc/pointercal"
            """
        #expect(try load(text, file: "config/kiosk.toml").devices.map(\.pointercal) == ["config/cal/pointercal", "/etc/pointercal"])
        #expect(try load(text, file: "kiosk.toml").devices.map(\.pointercal) == ["cal/pointercal", "/etc/pointercal"])
    }

    @Test func aCalibrationFileIsAPathLikeAPointercalsAndNotReadYet() throws {
        let text = """
            [[window]]
            id = "w"
            size = [4, 4]
            [[device]]
            window = "w"
            calibration_file = "screen.calibration"
            [[device]]
            window = "w"
            calibration_file = "/var/lib/touchd/pad.calibration"
            """
        let devices = try load(text, file: "config/kiosk.toml").devices
        #expect(devices.map(\.calibrationFile) == ["config/screen.calibration", "/var/lib/touchd/pad.calibration"])
        #expect(devices.allSatisfy { $0.calibrationFileMatrix == nil }, "the daemon's loader reads the files")
    }
}
