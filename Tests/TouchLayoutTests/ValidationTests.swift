import Foundation
import Testing
import TouchCore

@testable import TouchLayout

/// One test per validation rule: each checks the key path, the line and the expectation.
@Suite(.timeLimit(.minutes(10))) struct ValidationTests {
    @Test func theBaseLayoutIsValid() throws {
        #expect(issues(baseLayout).isEmpty, "\(issues(baseLayout))")
    }

    // MARK: syntax, keys, types

    @Test func syntaxErrorsHaveLineAndColumn() {
        let text = baseLayout + """
            [[view]]
            id = "c"
            parent = = "a"
            """
        let issue = singleIssue(text)
        #expect(issue?.kind == .syntax)
        #expect(issue?.line == line(of: "parent = =", in: text))
        #expect(issue?.column != nil)
        let prefix = "layout.toml:\(line(of: "parent = =", in: text) ?? 0):\(issue?.column ?? 0): TOML syntax error: "
        #expect(issue?.description.hasPrefix(prefix) == true, "\(String(describing: issue))")
    }

    @Test func unknownKeysSuggestTheClosestKnownKey() {
        let text = baseLayout.replacingOccurrences(of: "frame = [10, 10, 100, 100]", with: "frame = [10, 10, 100, 100]\nalpah = 0.5")
        check(
            singleIssue(text), kind: .unknownKey, keyPath: "view[1].alpah", line: line(of: "alpah", in: text),
            location: #"view "a" (view[1]).alpah"#, mentions: [#"unknown key "alpah""#, #"did you mean "alpha"?"#])
    }

    @Test func unknownKeysKnowUIKitSpellings() {
        let text = baseLayout + """
            [[view]]
            id = "c"
            parent = "a"
            frame = [0, 0, 1, 1]
            userInteractionEnabled = false
            """
        check(
            singleIssue(text), kind: .unknownKey, keyPath: "view[4].userInteractionEnabled",
            line: line(of: "userInteractionEnabled", in: text), mentions: [#"did you mean "interactive"?"#])
    }

    @Test(arguments: [
        ("pass_through = true", "pass_through", #"did you mean hit_test = "pass-through"?"#),
        ("passThrough = true", "passThrough", #"did you mean hit_test = "pass-through"?"#),
        ("expand = 4", "expand", #"did you mean "hit_expansion"?"#),
        ("hit_slop = 4", "hit_slop", #"did you mean "hit_expansion"?"#),
    ])
    func unknownKeysThatNameASettingSuggestIt(line extra: String, key: String, suggestion: String) {
        let text = baseLayout + "[[view]]\nid = \"c\"\nparent = \"a\"\nframe = [0, 0, 1, 1]\n\(extra)\n"
        check(singleIssue(text), kind: .unknownKey, keyPath: "view[4].\(key)", line: line(of: extra, in: text), mentions: [suggestion])
    }

    @Test(arguments: ["id = \"main\n", "id = 'main\n", "id = \"main\r\n"])
    func anUnterminatedStringIsCalledThat(line broken: String) {
        let text = "[[window]]\n" + broken + "size = [10, 10]\n"
        let issue = singleIssue(text)
        #expect(issue?.kind == .syntax && issue?.line == 2)
        #expect(issue?.message.hasPrefix("TOML syntax error: the string on this line is not closed") == true, "\(String(describing: issue))")
        // A control character inside a closed string is still called what it is.
        let inside = singleIssue("[[window]]\nid = \"ma\u{1}in\"\nsize = [10, 10]\n")
        #expect(inside?.message.contains("control characters") == true, "\(String(describing: inside))")
    }

    @Test func unknownKeysWithoutACloseMatchListTheKnownKeys() {
        let text = "zebra = 1\n" + baseLayout
        check(
            singleIssue(text), kind: .unknownKey, keyPath: "zebra", line: 1,
            mentions: ["unknown key \"zebra\" in the layout file", #"expected one of "version", "application""#])
    }

    @Test func unknownTopLevelTablesAreTypos() {
        let text = baseLayout + """
            [[views]]
            id = "c"
            """
        check(
            singleIssue(text), kind: .unknownKey, keyPath: "views", line: line(of: "[[views]]", in: text),
            mentions: [#"did you mean "view"?"#])
    }

    @Test func unknownKeysInNestedTables() {
        let text = baseLayout + """
            [[device]]
            window = "main"
            match.knd = "touchscreen"
            """
        check(
            singleIssue(text), kind: .unknownKey, keyPath: "device[0].match.knd", line: line(of: "match.knd", in: text),
            mentions: [#"did you mean "kind"?"#])
    }

    @Test func wrongTypesNameWhatWasFound() {
        let text = baseLayout.replacingOccurrences(of: "frame = [200, 10, 100, 100]", with: "frame = [200, 10, 100, 100]\nhidden = \"no\"")
        check(
            singleIssue(text), kind: .wrongType, keyPath: "view[3].hidden", line: line(of: "hidden", in: text),
            location: #"view "b" (view[3]).hidden"#,
            mentions: [#"expected a boolean (true or false), found a string "no""#])
    }

    @Test func wrongTypesInsideArraysNameTheElement() {
        let text = baseLayout.replacingOccurrences(of: "size = [800, 600]", with: "size = [800, \"600\"]")
        check(
            singleIssue(text), kind: .wrongType, keyPath: "window[0].size[1]", line: line(of: "size =", in: text),
            location: #"window "main" (window[0]).size[1]"#, mentions: ["expected height: \(Limits.windowLength)", "found a string \"600\""])
    }

    @Test func aSingleTableWhereAnArrayOfTablesBelongs() {
        let text = """
            [window]
            id = "w"
            size = [1, 1]
            """
        check(
            singleIssue(text), kind: .wrongType, keyPath: "window", line: 1,
            mentions: ["write [[window]], not [window]"])
    }

    @Test func missingRequiredKeysPointAtTheirEntry() {
        let text = baseLayout + """
            [[view]]
            id = "c"
            parent = "a"
            """
        check(
            singleIssue(text), kind: .missingKey, keyPath: "view[4].frame",
            line: line(of: "[[view]]", in: text, occurrence: 5), location: #"view "c" (view[4]).frame"#,
            mentions: ["missing required key", "expected [x, y, width, height]"])
    }

    @Test func missingIDsAndHandlerKeys() {
        let text = baseLayout + """
            [[handler]]
            responder = "a"
            """
        let found = issues(text)
        let handlerLine = line(of: "[[handler]]", in: text)
        #expect(found.map(\.keyPath) == ["handler[0].on", "handler[0].action"], "\(found)")
        #expect(found.allSatisfy { $0.kind == .missingKey && $0.line == handlerLine })
        #expect(found.first?.description.contains(#"expected one of "touches_began""#) == true)
    }

    @Test func aLayoutWithoutWindowsIsRefused() {
        check(
            singleIssue("version = 1\n"), kind: .missingKey, keyPath: "window", line: nil,
            mentions: ["no [[window]]", "expected at least one window"])
    }

    // MARK: version

    @Test func versionTwoIsRejected() {
        let text = "version = 2\n" + baseLayout
        check(
            singleIssue(text), kind: .invalidValue, keyPath: "version", line: 1,
            mentions: ["version 2 is not supported: expected 1"])
    }

    // MARK: ids and references

    @Test func duplicateIDsAcrossResponderKinds() {
        let text = baseLayout + """
            [[view]]
            id = "main"
            parent = "a"
            frame = [0, 0, 1, 1]
            """
        check(
            singleIssue(text), kind: .duplicateID, keyPath: "view[4].id", line: line(of: #"id = "main""#, in: text, occurrence: 2),
            mentions: [#"duplicate id "main""#, #"window "main" (window[0]) on line 2"#, "expected ids unique across"])
    }

    @Test func duplicateIDsWithTheDefaultApplicationIDs() {
        let text = baseLayout + """
            [[view]]
            id = "app_delegate"
            parent = "a"
            frame = [0, 0, 1, 1]
            """
        check(
            singleIssue(text), kind: .duplicateID, keyPath: "view[4].id", line: line(of: #"id = "app_delegate""#, in: text),
            mentions: ["the app delegate (its default id)"])
    }

    @Test func unknownParents() {
        let text = baseLayout.replacingOccurrences(of: "parent = \"a\"", with: "parent = \"aa\"")
        check(
            singleIssue(text), kind: .unknownReference, keyPath: "view[2].parent", line: line(of: #"parent = "aa""#, in: text),
            location: #"view "a.child" (view[2]).parent"#,
            mentions: [#"unknown parent "aa""#, "expected the id of a [[window]] or of a [[view]]", #"did you mean "a"?"#])
    }

    @Test func parentsMustBeWindowsOrViews() {
        let text = baseLayout.replacingOccurrences(of: "parent = \"a\"", with: "parent = \"home\"")
        check(
            singleIssue(text), kind: .unknownReference, keyPath: "view[2].parent", line: line(of: #"parent = "home""#, in: text),
            mentions: [#"parent "home" is a controller: expected the id of a [[window]] or of a [[view]]"#])
    }

    @Test func unknownControllers() {
        let text = baseLayout.replacingOccurrences(of: #"root_controller = "home""#, with: #"root_controller = "hom""#)
        check(
            singleIssue(text), kind: .unknownReference, keyPath: "window[0].root_controller", line: 4,
            mentions: [#"unknown root controller "hom""#, "expected the id of a [[controller]]", #"did you mean "home"?"#])
    }

    @Test func unknownPresentingControllers() {
        let text = baseLayout + """
            [[controller]]
            id = "sheet"
            view = "b"
            presented_by = "nobody"
            """
        check(
            singleIssue(text), kind: .unknownReference, keyPath: "controller[1].presented_by",
            line: line(of: "presented_by", in: text), mentions: [#"unknown presenting controller "nobody""#])
    }

    @Test func unknownControllerViews() {
        let text = baseLayout + """
            [[controller]]
            id = "sheet"
            view = "main"
            """
        check(
            singleIssue(text), kind: .unknownReference, keyPath: "controller[1].view", line: line(of: #"view = "main""#, in: text),
            location: #"controller "sheet" (controller[1]).view"#,
            mentions: [#"view "main" is a window: expected the id of the controller's root [[view]]"#])
    }

    @Test func unknownResponders() {
        let text = baseLayout + """
            [[handler]]
            responder = "blue"
            on = "touches_began"
            action = "x"
            """
        check(
            singleIssue(text), kind: .unknownReference, keyPath: "handler[0].responder", line: line(of: "responder", in: text),
            mentions: [#"unknown responder "blue""#, "expected the id of a window, view, controller, the application or its delegate"])
    }

    @Test func handlersMayTargetEveryKindOfResponder() {
        var text = baseLayout
        for responder in ["main", "home", "a", "application", "app_delegate"] {
            text += "[[handler]]\nresponder = \"\(responder)\"\non = \"touches_moved\"\naction = \"x\"\n"
        }
        #expect(issues(text).isEmpty, "\(issues(text))")
    }

    @Test func unknownWindows() {
        let text = baseLayout + """
            [[device]]
            window = "a"
            """
        check(
            singleIssue(text), kind: .unknownReference, keyPath: "device[0].window", line: line(of: #"window = "a""#, in: text),
            mentions: [#"window "a" is a view: expected the id of a [[window]]"#])
    }

    // MARK: structure

    @Test func cyclesInViewParents() {
        let text = baseLayout + """
            [[view]]
            id = "x"
            parent = "z"
            frame = [0, 0, 1, 1]
            [[view]]
            id = "y"
            parent = "x"
            frame = [0, 0, 1, 1]
            [[view]]
            id = "z"
            parent = "y"
            frame = [0, 0, 1, 1]
            """
        check(
            singleIssue(text), kind: .cycle, keyPath: "view[4].parent", line: line(of: #"parent = "z""#, in: text),
            location: #"view "x" (view[4]).parent"#,
            mentions: [#"views "x" → "z" → "y" → "x" form a cycle of parents"#, "expected every chain of parents to end at a window"])
    }

    @Test func aViewThatIsItsOwnParent() {
        let text = baseLayout + """
            [[view]]
            id = "self"
            parent = "self"
            frame = [0, 0, 1, 1]
            """
        check(
            singleIssue(text), kind: .cycle, keyPath: "view[4].parent", line: line(of: #"parent = "self""#, in: text),
            mentions: [#"view "self" is its own parent"#])
    }

    @Test func cyclesInPresentingControllers() {
        let text = baseLayout + """
            [[controller]]
            id = "one"
            view = "a"
            presented_by = "two"
            [[controller]]
            id = "two"
            view = "b"
            presented_by = "one"
            """
        check(
            singleIssue(text), kind: .cycle, keyPath: "controller[1].presented_by",
            line: line(of: #"presented_by = "two""#, in: text),
            mentions: [#"controllers "one" → "two" → "one" present each other in a cycle"#])
    }

    @Test func aControllerThatPresentsItself() {
        let text = baseLayout + """
            [[controller]]
            id = "mirror"
            view = "a"
            presented_by = "mirror"
            """
        check(
            singleIssue(text), kind: .cycle, keyPath: "controller[1].presented_by",
            line: line(of: #"presented_by = "mirror""#, in: text),
            mentions: [#"controller "mirror" presents itself: expected a different controller"#])
    }

    @Test func aViewThatIsTheRootOfTwoControllers() {
        let text = baseLayout + """
            [[controller]]
            id = "other"
            view = "home.root"
            """
        check(
            singleIssue(text), kind: .conflict, keyPath: "controller[1].view",
            line: line(of: #"view = "home.root""#, in: text, occurrence: 2),
            mentions: [#"view "home.root" is already the root view of controller "home" (controller[0])"#,
                       "expected each view to be the root view of at most one controller"])
    }

    @Test func aRootControllerWhoseViewIsNotInItsWindow() {
        let text = baseLayout.replacingOccurrences(of: "view = \"home.root\"", with: "view = \"a\"")
        check(
            singleIssue(text), kind: .conflict, keyPath: "window[0].root_controller", line: 4,
            location: #"window "main" (window[0]).root_controller"#,
            mentions: [#"root controller "home" has root view "a", whose parent is "home.root", not this window"#,
                       #"expected the root controller's view to be a top-level view of this window (parent = "main")"#])
    }

    @Test func redirectTargetsMustBeStrictDescendants() {
        let text = baseLayout.replacingOccurrences(
            of: "frame = [200, 10, 100, 100]", with: "frame = [200, 10, 100, 100]\nhit_test = \"redirect\"\nredirect = \"a.child\"")
        check(
            singleIssue(text), kind: .invalidValue, keyPath: "view[3].redirect", line: line(of: "redirect = ", in: text),
            location: #"view "b" (view[3]).redirect"#,
            mentions: [#""a.child" is not inside view "b" (its parent is "a")"#, "expected the id of a strict descendant"])
    }

    /// `count` views, each inside the previous one, starting under "home.root" (depth 1).
    func nestedChain(_ count: Int) -> String {
        (1...count).map { i in
            "[[view]]\nid = \"d\(i)\"\nparent = \"\(i == 1 ? "home.root" : "d\(i - 1)")\"\nframe = [0, 0, 10, 10]\n"
        }.joined(separator: "\n")
    }

    @Test func nestingUpToTheMaximumDepthIsFine() throws {
        // home.root is 1 level below the window, so the chain's last view is at the maximum.
        let deepest = Limits.maximumViewDepth - 1
        let text = baseLayout + nestedChain(deepest)
        #expect(issues(text).isEmpty, "\(issues(text).prefix(3))")
        let tree = try load(text).makeTree()
        #expect(tree.path(to: ResponderID("d\(deepest)")).count == Limits.maximumViewDepth + 1)
    }

    @Test func nestingPastTheMaximumDepthIsReportedOnce() {
        let count = Limits.maximumViewDepth
        let text = baseLayout + nestedChain(count)
        check(
            singleIssue(text), kind: .exceedsLimit, keyPath: "view[\(count + 3)].parent",
            line: line(of: #"id = "d\#(count)""#, in: text).map { $0 + 1 },
            mentions: [
                #"view "d\#(count)" is nested \#(count + 1) levels below its window"#, "expected at most \(Limits.maximumViewDepth)",
            ])
    }

    @Test func aVeryDeepChainIsOneIssueNotACrash() {
        let found = issues(baseLayout + nestedChain(5_000))
        #expect(found.count == 1, "\(found.prefix(3))")
        #expect(found.first?.keyPath == "view[\(Limits.maximumViewDepth + 3)].parent")
    }

    /// `count` views, each inside the previous one under "home.root", each scaled `scale` and
    /// placed as far out as a frame and a translation may be.
    func scaledChain(_ count: Int, scale: String) -> String {
        (1...count).map { i in
            "[[view]]\nid = \"s\(i)\"\nparent = \"\(i == 1 ? "home.root" : "s\(i - 1)")\"\nframe = [1000000, 1000000, 1000000, 1000000]\n"
                + "transform = { scale = \(scale), translate = [1000000, 1000000] }\n"
        }.joined(separator: "\n")
    }

    @Test(arguments: ["1000", "0.001", "[1000, 0.001]"])
    func composedScalesUpToTheBoundAreFine(scale: String) throws {
        let text = baseLayout + scaledChain(2, scale: scale)
        #expect(issues(text).isEmpty, "\(issues(text).prefix(3))")
        #expect(try load(text).makeTree().properties(of: "s2") != nil)
    }

    /// Each view's scale is in its domain, but their product along the path is not: the first
    /// view past the bound is reported, not its subviews.
    @Test(arguments: [
        ("1000", "enlarges it 1000000000-fold"), ("0.001", "shrinks it 1000000000-fold"), ("[0.5, 1000]", "enlarges it 1000000000-fold"),
    ])
    func aComposedScalePastTheBoundIsReportedOnce(scale: String, excess: String) {
        let text = baseLayout + scaledChain(Limits.maximumViewDepth - 1, scale: scale)
        check(
            singleIssue(text), kind: .exceedsLimit, keyPath: "view[6].transform", line: line(of: #"id = "s3""#, in: text).map { $0 + 3 },
            mentions: [#"view "s3""#, excess, "expected at most 1000000-fold either way"])
    }

    @Test func redirectToADeeperDescendantIsFine() {
        let text = baseLayout.replacingOccurrences(
            of: "frame = [0, 0, 800, 600]", with: "frame = [0, 0, 800, 600]\nhit_test = \"redirect\"\nredirect = \"a.child\"")
        #expect(issues(text).isEmpty, "\(issues(text))")
        #expect((try? load(text))?.view("home.root")?.hitTestPolicy == .redirect("a.child"))
    }

    @Test func redirectToItself() {
        let text = baseLayout.replacingOccurrences(
            of: "frame = [200, 10, 100, 100]", with: "frame = [200, 10, 100, 100]\nhit_test = \"redirect\"\nredirect = \"b\"")
        check(
            singleIssue(text), kind: .invalidValue, keyPath: "view[3].redirect", line: line(of: "redirect = ", in: text),
            mentions: ["redirect names the view itself"])
    }

    @Test func redirectOnlyWithTheRedirectPolicy() {
        let text = baseLayout.replacingOccurrences(
            of: "frame = [10, 10, 100, 100]", with: "frame = [10, 10, 100, 100]\nredirect = \"a.child\"")
        check(
            singleIssue(text), kind: .conflict, keyPath: "view[1].redirect", line: line(of: "redirect = ", in: text),
            mentions: [#"expected hit_test = "redirect", "redirect-anywhere" or "redirect-inside-target" alongside it"#])
    }

    @Test func theRedirectPolicyNeedsATarget() {
        let text = baseLayout.replacingOccurrences(
            of: "frame = [10, 10, 100, 100]", with: "frame = [10, 10, 100, 100]\nhit_test = \"redirect\"")
        check(
            singleIssue(text), kind: .missingKey, keyPath: "view[1].redirect", line: line(of: "[[view]]", in: text, occurrence: 2),
            mentions: [#"required by hit_test = "redirect""#])
    }

    @Test func unknownHitTestPoliciesSuggestTheSpelling() {
        let text = baseLayout.replacingOccurrences(
            of: "frame = [10, 10, 100, 100]", with: "frame = [10, 10, 100, 100]\nhit_test = \"passthrough\"")
        check(
            singleIssue(text), kind: .invalidValue, keyPath: "view[1].hit_test", line: line(of: "hit_test", in: text),
            mentions: [#"expected one of "default", "pass-through", "capture", "redirect""#, #"did you mean "pass-through"?"#])
    }

    @Test func moreThanOneKeyWindow() {
        let text = baseLayout + """
            [[window]]
            id = "second"
            size = [1, 1]
            key = true
            [[window]]
            id = "third"
            size = [1, 1]
            key = true
            """
        check(
            singleIssue(text), kind: .conflict, keyPath: "window[2].key", line: line(of: "key = true", in: text, occurrence: 2),
            location: #"window "third" (window[2]).key"#,
            mentions: [#"window "second" (window[1]) already has key = true"#, "expected at most one key window"])
    }

    // MARK: values

    @Test func negativeSizes() {
        let text = baseLayout.replacingOccurrences(of: "size = [800, 600]", with: "size = [-800, 600]")
        check(
            singleIssue(text), kind: .invalidValue, keyPath: "window[0].size[0]", line: 3,
            mentions: ["width -800 is out of range", "expected \(Limits.windowLength)"])
    }

    @Test func negativeFrameSizes() {
        let text = baseLayout.replacingOccurrences(of: "frame = [5, 5, 20, 20]", with: "frame = [5, 5, 20, -20]")
        check(
            singleIssue(text), kind: .invalidValue, keyPath: "view[2].frame[3]", line: line(of: "-20", in: text),
            location: #"view "a.child" (view[2]).frame[3]"#,
            mentions: ["height -20 is out of range", "expected \(Limits.length)"])
    }

    @Test func nonFiniteNumbers() {
        let text = baseLayout.replacingOccurrences(of: "frame = [5, 5, 20, 20]", with: "frame = [inf, 5, 20, 20]")
        check(
            singleIssue(text), kind: .invalidValue, keyPath: "view[2].frame[0]", line: line(of: "inf", in: text),
            mentions: ["x inf is not a finite number", "expected \(Limits.coordinate)"])
        let size = baseLayout.replacingOccurrences(of: "size = [800, 600]", with: "size = [800, nan]")
        check(singleIssue(size), kind: .invalidValue, keyPath: "window[0].size[1]", line: 3, mentions: ["height nan is not a finite number"])
    }

    @Test func framesNeedFourNumbers() {
        let text = baseLayout.replacingOccurrences(of: "frame = [5, 5, 20, 20]", with: "frame = [5, 5, 20]")
        check(
            singleIssue(text), kind: .invalidValue, keyPath: "view[2].frame", line: line(of: "[5, 5, 20]", in: text),
            mentions: ["[5, 5, 20] has 3 elements: expected [x, y, width, height]"])
    }

    @Test func alphaOutsideZeroToOne() {
        let text = baseLayout.replacingOccurrences(of: "frame = [200, 10, 100, 100]", with: "frame = [200, 10, 100, 100]\nalpha = 1.5")
        let issue = singleIssue(text)
        let alphaLine = line(of: "alpha", in: text) ?? 0
        check(
            issue, kind: .invalidValue, keyPath: "view[3].alpha", line: alphaLine, location: #"view "b" (view[3]).alpha"#,
            mentions: ["1.5 is out of range: expected a finite number from 0 to 1"])
        #expect(
            issue?.description
                == "layout.toml:\(alphaLine):1: view \"b\" (view[3]).alpha: 1.5 is out of range: expected a finite number from 0 to 1")
    }

    @Test func negativeHitExpansion() {
        let single = baseLayout.replacingOccurrences(of: "frame = [5, 5, 20, 20]", with: "frame = [5, 5, 20, 20]\nhit_expansion = -10")
        check(
            singleIssue(single), kind: .invalidValue, keyPath: "view[2].hit_expansion", line: line(of: "hit_expansion", in: single),
            mentions: ["-10 is out of range", "expected \(Limits.length)"])
        let sides = baseLayout.replacingOccurrences(
            of: "frame = [5, 5, 20, 20]", with: "frame = [5, 5, 20, 20]\nhit_expansion = [0, 4, -1, 0]")
        check(
            singleIssue(sides), kind: .invalidValue, keyPath: "view[2].hit_expansion[2]",
            line: line(of: "hit_expansion", in: sides), mentions: ["bottom -1 is out of range: expected \(Limits.length)"])
    }

    @Test func tapAndQueueRanges() {
        let text = """
            [tap]
            interval = 0
            slop_mm = -1
            [queue]
            capacity = 8
            """ + "\n" + baseLayout
        let found = issues(text)
        #expect(found.map(\.keyPath) == ["tap.interval", "tap.slop_mm", "queue.capacity"], "\(found)")
        #expect(found.map(\.line) == [2, 3, 5])
        #expect(found[0].description.contains("0 is out of range: expected a finite number above 0 to 3600 (seconds)"))
        #expect(found[2].description.contains("8 is out of range: expected \(Limits.queueCapacity), written as an integer"))
    }

    @Test func integersAreRequiredWhereDocumented() {
        let text = baseLayout + """
            [[handler]]
            responder = "a"
            on = "touches_ended"
            action = "x"
            tap_count = 2.0
            """
        check(
            singleIssue(text), kind: .wrongType, keyPath: "handler[0].tap_count", line: line(of: "tap_count", in: text),
            mentions: ["expected \(Limits.tapCount), written as an integer, found a floating-point number 2.0"])
    }

    @Test func emptyActions() {
        let text = baseLayout + """
            [[handler]]
            responder = "a"
            on = "touches_ended"
            action = ""
            """
        check(
            singleIssue(text), kind: .invalidValue, keyPath: "handler[0].action", line: line(of: "action", in: text),
            mentions: ["the string is empty: expected a non-empty action name"])
    }

    @Test func badRotation() {
        let text = baseLayout + """
            [[device]]
            window = "main"
            rotation = 45
            """
        check(
            singleIssue(text), kind: .invalidValue, keyPath: "device[0].rotation", line: line(of: "rotation", in: text),
            mentions: ["45 is not a rotation: expected 0, 90, 180 or 270"])
    }

    @Test func rotationMayBeAFloat() throws {
        let text = baseLayout + "[[device]]\nwindow = \"main\"\nrotation = 270.0\n"
        #expect(try load(text).devices.first?.rotation == .clockwise270)
    }

    @Test func calibrationNeedsSixFiniteNumbers() {
        let short = baseLayout + """
            [[device]]
            window = "main"
            calibration = [1, 0, 0, 0, 1]
            """
        check(
            singleIssue(short), kind: .invalidValue, keyPath: "device[0].calibration", line: line(of: "calibration", in: short),
            mentions: ["has 5 elements: expected [a, b, c, d, e, f]"])
        let infinite = baseLayout + """
            [[device]]
            window = "main"
            calibration = [1, 0, 0, 0, 1, -inf]
            """
        check(
            singleIssue(infinite), kind: .invalidValue, keyPath: "device[0].calibration[5]",
            line: line(of: "calibration", in: infinite), mentions: ["f -inf is not a finite number", "expected \(Limits.plainNumber)"])
    }

    @Test func aCalibrationThatFlattensTheScreenIsRefused() {
        let text = baseLayout + """
            [[device]]
            window = "main"
            calibration = [1, 0, 0, 2, 0, 0]
            """
        check(
            singleIssue(text), kind: .invalidValue, keyPath: "device[0].calibration", line: line(of: "calibration", in: text),
            mentions: ["maps the whole screen onto one line", "expected a matrix that keeps the plane"])
    }

    @Test func calibrationAndPointercalExcludeEachOther() {
        let text = baseLayout + """
            [[device]]
            window = "main"
            calibration = [1, 0, 0, 0, 1, 0]
            pointercal = "/etc/pointercal"
            """
        check(
            singleIssue(text), kind: .conflict, keyPath: "device[0].pointercal", line: line(of: "pointercal", in: text),
            mentions: ["pointercal and calibration are both set: expected at most one of them"])
    }

    @Test func aCalibrationFileExcludesTheOtherCalibrations() {
        for other in ["calibration = [1, 0, 0, 0, 1, 0]", "pointercal = \"/etc/pointercal\""] {
            let text = baseLayout + """
                [[device]]
                window = "main"
                calibration_file = "/var/lib/touchd/screen.calibration"
                \(other)
                """
            let key = other.hasPrefix("calibration") ? "calibration" : "pointercal"
            check(
                singleIssue(text), kind: .conflict, keyPath: "device[0].calibration_file", line: line(of: "calibration_file", in: text),
                mentions: ["calibration_file and \(key) are both set: expected at most one of them"])
        }
    }

    @Test func badUSBIDs() {
        let text = baseLayout + """
            [[device]]
            window = "main"
            match = { usb = "3eb:8c1f" }
            """
        check(
            singleIssue(text), kind: .invalidValue, keyPath: "device[0].match.usb", line: line(of: "usb", in: text),
            mentions: [#""3eb:8c1f" is not a USB id: expected "vvvv:pppp""#])
    }

    @Test func badGlobs() {
        let text = baseLayout + """
            [[device]]
            window = "main"
            [device.match]
            name = "Atmel[*"
            """
        check(
            singleIssue(text), kind: .invalidValue, keyPath: "device[0].match.name", line: line(of: "name = ", in: text),
            mentions: ["is not a valid glob", "never closed"])
    }

    @Test func nonFinitePayloads() {
        let text = baseLayout + """
            [[handler]]
            responder = "a"
            on = "touches_ended"
            action = "x"
            payload = { level = nan }
            """
        check(
            singleIssue(text), kind: .invalidValue, keyPath: "handler[0].payload.level", line: line(of: "payload", in: text),
            mentions: ["nan is not a finite number: expected \(Limits.payloadNumber)"])
    }

    // MARK: files and reporting

    @Test func unreadableFilesNameThePathAndTheReason() {
        #expect(throws: LayoutErrors.self) { try LayoutLoader.load(path: "/nonexistent/touchd/layout.toml") }
        do {
            _ = try LayoutLoader.load(path: "/nonexistent/touchd/layout.toml")
        } catch {
            #expect(error.issues.count == 1)
            #expect(error.issues.first?.kind == .unreadableFile)
            #expect(
                error.description
                    == "/nonexistent/touchd/layout.toml: cannot read the layout file: No such file or directory (ENOENT)")
        }
        do {
            _ = try LayoutLoader.load(path: "/")
        } catch {
            #expect(error.description == "/: cannot read the layout file: it is a directory, not a regular file", "\(error)")
        }
        // A FIFO would block the daemon until a writer came; it is refused at once.
        let fifo = "/tmp/touchlayout-fifo-\(UInt64.random(in: 0...UInt64.max)).toml"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        do {
            _ = try LayoutLoader.load(path: fifo)
        } catch {
            #expect(error.description == "\(fifo): cannot read the layout file: it is a FIFO, not a regular file", "\(error)")
        }
    }

    @Test func textThatIsNotUTF8OrHasNULs() throws {
        let path = "/tmp/touchlayout-test-\(UInt64.random(in: 0...UInt64.max)).toml"
        try writeFile(path, Array("[[window]]\nid = \"caf".utf8) + [0xE9] + Array("\"\n".utf8))
        defer { removeFile(path) }
        do {
            _ = try LayoutLoader.load(path: path)
            Issue.record("loaded text that is not UTF-8")
        } catch {
            #expect(error.issues.first?.kind == .unreadableFile)
            #expect(error.issues.first?.line == 2)
            #expect(error.description.contains("not UTF-8"))
        }
        let nul = issues("[[window]]\nid = \"a\0b\"\n")
        #expect(nul.first?.kind == .syntax && nul.first?.line == 2 && nul.first?.column == 8, "\(nul)")
    }

    @Test(arguments: [
        (#"id = """w\u0000evil""""#, "a NUL character"),
        (#"id = "w\U00000000""#, "a NUL character"),
        (#"id = """x\x00""""#, "a NUL character"),
        (#"id = "C:\users""#, #"an escape \u with 0 hexadecimal digits: expected 4"#),
        (#"id = """w\u00zz""""#, #"an escape \u with 2 hexadecimal digits: expected 4"#),
    ])
    func escapesThatNameNoCharacterOrANULAreRefused(line: String, message: String) {
        // In a multi-line string as in a single-line one: a NUL would cut the value short.
        let found = issues("[[window]]\n\(line)\nsize = [100, 100]\n")
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.line == 2)
        #expect(found.first?.message.contains(message) == true, "\(found)")
    }

    @Test func anEscapedBackslashBeforeDigitsIsText() throws {
        let found = issues("[[window]]\nid = \"\"\"w \\\\u0000\"\"\"\nsize = [100, 100]\n")
        #expect(found.isEmpty, "\(found)")
    }

    @Test func aControlTargetsProblemIsPlacedOnItsOwnEntry() {
        let text = """
            [[window]]
            id = "w"
            size = [100, 100]
            [[view]]
            id = "a"
            parent = "w"
            frame = [0, 0, 50, 50]
            [[control]]
            view = "a"
            kind = "button"
            [[control.target]]
            event = "bogus"
            action = "x"
            [[control.target]]
            event = "touch_down"
            action = "y"
            target = "nope"
            """
        let found = issues(text)
        #expect(found.contains { $0.keyPath == "control[0].target[0].event" && $0.line == 12 }, "\(found)")
        // The unknown target is the second entry's, or not reported until the first is mended:
        // never put on the first.
        #expect(!found.contains { $0.keyPath == "control[0].target[0].target" }, "\(found)")
        let mended = issues(text.replacingOccurrences(of: "bogus", with: "touch_up_inside"))
        #expect(mended.count == 1 && mended.first?.keyPath == "control[0].target[1].target" && mended.first?.line == 17, "\(mended)")
    }

    @Test func aSocketPathLongerThanAnAddressHoldsIsRefused() throws {
        let base = "[[window]]\nid = \"w\"\nsize = [100, 100]\n[daemon]\nsocket = "
        let longest = "/" + String(repeating: "s", count: 106)
        #expect(issues(base + "\"\(longest)\"\n").isEmpty, "107 bytes fit")
        let found = issues(base + "\"\(longest)x\"\n")
        #expect(found.count == 1 && found.first?.keyPath == "daemon.socket" && found.first?.line == 5, "\(found)")
        #expect(found.first?.message.contains("108 bytes long: expected at most 107") == true, "\(found)")
    }

    @Test func keysOfOneTableThatAreOneUnicodeTextAreRefused() {
        // "café" composed, and with a combining accent: one key to the layout, two to the parser.
        let text = "[[window]]\nid = \"w\"\nsize = [100, 100]\n[application]\n\"caf\u{E9}\" = 1\n\"cafe\u{301}\" = 2\n"
        let found = issues(text)
        #expect(found.count == 1 && found.first?.line == 6 && found.first?.kind == .syntax, "\(found)")
        #expect(found.first?.message.contains("written with other Unicode characters") == true, "\(found)")
        // As ids they are one: a reference in either spelling finds the view.
        let ids = "[[window]]\nid = \"w\"\nsize = [100, 100]\n[[view]]\nid = \"caf\u{E9}\"\nparent = \"w\"\nframe = [0, 0, 50, 50]\n"
            + "[[view]]\nid = \"x\"\nparent = \"cafe\u{301}\"\nframe = [0, 0, 5, 5]\n"
        #expect(issues(ids).isEmpty)
    }

    @Test func aLayoutWithoutAWindowThatMayBeKeyIsRefused() throws {
        let two = "[[window]]\nid = \"a\"\nsize = [100, 100]\nkey = false\n[[window]]\nid = \"b\"\nsize = [100, 100]\n"
        #expect(try LayoutLoader.parse(two, file: "layout.toml").keyWindow?.id == "b", "the first window not marked key = false")
        let none = two + "key = false\n"
        let found = issues(none)
        #expect(found.count == 1 && found.first?.keyPath == "window[1].key" && found.first?.line == 8, "\(found)")
        #expect(found.first?.message.contains("every window has key = false") == true)
    }

    @Test func everyProblemIsReportedAtOnceInLineOrder() {
        let text = """
            version = 2
            [[window]]
            id = "main"
            size = [800, -1]
            key = "yes"

            [[view]]
            id = "v"
            parent = "nowhere"
            frame = [0, 0, 10, 10]
            alpha = 2
            colour = "red"

            [[handler]]
            responder = "v"
            on = "touches_begun"
            action = ""
            """
        let found = issues(text)
        #expect(
            found.map(\.keyPath) == [
                "version", "window[0].size[1]", "window[0].key", "view[0].parent", "view[0].alpha", "view[0].colour",
                "handler[0].on", "handler[0].action",
            ], "\(found)")
        #expect(found.map(\.line) == [1, 4, 5, 9, 11, 12, 16, 17])
        #expect(found.allSatisfy { $0.file == "layout.toml" && $0.description.contains("expected") }, "\(found)")
        let thrown = LayoutErrors(found)
        #expect(thrown.description.split(separator: "\n").count == found.count)
    }

    @Test func aBrokenEntryDoesNotHideOthersOrCauseFollowOnErrors() {
        // "a" has a bad frame, but its id still counts: "child" is not reported as orphaned.
        let text = """
            [[window]]
            id = "w"
            size = [1, 1]
            [[view]]
            id = "a"
            parent = "w"
            frame = "wide"
            [[view]]
            id = "child"
            parent = "a"
            frame = [0, 0, 1, 1]
            """
        check(
            singleIssue(text), kind: .wrongType, keyPath: "view[0].frame", line: 7,
            mentions: ["expected [x, y, width, height]", #"found a string "wide""#])
    }
}
