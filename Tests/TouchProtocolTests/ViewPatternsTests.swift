import Testing
import TouchCore
import TouchProtocol

/// The compiled views patterns answer as matching every pattern against every view one by one did.
@Suite(.timeLimit(.minutes(10))) struct ViewPatternsTests {
    /// The matching they replace: each pattern against the view, a `*` suffix a prefix.
    static func scanned(_ patterns: [String], _ view: ResponderID) -> Bool {
        patterns.contains { pattern in
            pattern.hasSuffix("*") ? view.rawValue.hasPrefix(String(pattern.dropLast())) : view.rawValue == pattern
        }
    }

    /// A seeded sequence (a linear congruential generator), so that a failure repeats.
    struct Seeded {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// Characters of one, two, three and four UTF-8 bytes, none combining with its neighbours (where
    /// Unicode-aware and byte comparison agree), few so that prefixes often collide.
    static let alphabet: [String] = ["a", "b", "_", "é", "ü", "日", "本", "😀"]

    static func randomID(_ random: inout Seeded, maximumLength: Int) -> String {
        (0..<random.next(maximumLength + 1)).map { _ in alphabet[random.next(alphabet.count)] }.joined()
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomPatternsMatchAsTheScanDid(seed: UInt64) {
        var random = Seeded(state: seed)
        for _ in 0..<60 {
            let patterns = (0..<random.next(12)).map { _ in
                let id = Self.randomID(&random, maximumLength: 4)
                return random.next(2) == 0 ? id + "*" : id
            }
            let compiled = ViewPatterns(patterns)
            for _ in 0..<60 {
                let view = ResponderID(Self.randomID(&random, maximumLength: 6))
                #expect(compiled.matches(view) == Self.scanned(patterns, view), "patterns \(patterns), view \(view)")
            }
            for pattern in patterns {
                // Every pattern's own text, and every text one of its prefixes begins.
                let text = pattern.hasSuffix("*") ? String(pattern.dropLast()) : pattern
                for view in [ResponderID(text), ResponderID(text + "a"), ResponderID(text + "日")] {
                    #expect(compiled.matches(view) == Self.scanned(patterns, view), "patterns \(patterns), view \(view)")
                }
            }
        }
    }

    @Test func eachSubscriptionsMaskIsTheUnionOfItsMatchingPatterns() {
        let compiled = ViewPatterns(masked: [(["a*", "abc"], 1), (["ab*"], 2), (["b"], 4), (["*"], 8), (["abd*", "x"], 16)])
        #expect(compiled.mask(of: "abc") == 1 | 2 | 8)
        #expect(compiled.mask(of: "abd") == 1 | 2 | 8 | 16)
        #expect(compiled.mask(of: "a") == 1 | 8)
        #expect(compiled.mask(of: "b") == 4 | 8)
        #expect(compiled.mask(of: "x") == 8 | 16)
        #expect(compiled.mask(of: "") == 8)
    }

    @Test func aPrefixBetweenOthersInOrderIsFoundThroughItsParents() {
        // "ab" sorts between "a" and "abz": the last prefix not after "abc" is "ab", not "abz".
        let compiled = ViewPatterns(["a*", "ab*", "abz*", "b*"])
        #expect(compiled.matches("abc"))
        #expect(compiled.mask(of: "ac") == 1)
        #expect(!compiled.matches("c"))
        let chained = ViewPatterns(["k*", "kaa*", "kab*"])
        // The last prefix before "kac" is "kab", which does not begin it; its parent "k" does.
        #expect(chained.matches("kac"))
        #expect(!chained.matches("j"))
    }

    @Test func noPatternsMatchNothingAndAStarMatchesEverything() {
        #expect(!ViewPatterns([]).matches("a"))
        #expect(ViewPatterns([]).isEmpty)
        #expect(ViewPatterns(["*"]).matches(""))
        #expect(ViewPatterns(["*"]).matches("anything"))
    }

    @Test func prefixesCompareTheBytesOfTheUTF8() {
        // "e" and a combining acute accent: byte for byte it begins with "e" (as documented),
        // which character by character it does not.
        #expect(ViewPatterns(["e*"]).matches(ResponderID("e\u{301}x")))
        #expect(!ViewPatterns(["é*"]).matches("ex"))
    }

    @Test func aSubscriptionSetMatchesAsItsSubscriptionsDoOneByOne() {
        var random = Seeded(state: 99)
        for _ in 0..<40 {
            let subscriptions = (0..<(1 + random.next(5))).map { n in
                Subscription(
                    id: n + 1, topics: [.hits, .touches],
                    views: random.next(3) == 0 ? nil : (0..<random.next(4)).map { _ in Self.randomID(&random, maximumLength: 3) + "*" },
                    actions: random.next(2) == 0 ? nil : ["go"])
            }
            let set = SubscriptionSet(subscriptions)
            for _ in 0..<30 {
                let views = (0..<random.next(4)).map { _ in ResponderID(Self.randomID(&random, maximumLength: 4)) }
                let message = OutboundMessage(
                    topic: random.next(2) == 0 ? .hits : .gestures, views: views, action: random.next(2) == 0 ? "go" : "stop",
                    droppable: false, body: "\"type\":\"hit\"")
                let oneByOne = subscriptions.contains { s in
                    s.topics.contains(message.topic ?? .hits) && (s.actions.map { $0.contains(message.action ?? "") } ?? true)
                        && (s.views.map { patterns in views.contains { Self.scanned(patterns, $0) } } ?? true)
                }
                #expect(set.wants(message) == oneByOne)
                #expect(set.wants(message) == subscriptions.contains { $0.matches(message) })
            }
        }
    }

    @Test func moreThanSixtyFourSubscriptionsAreMatchedGroupByGroup() {
        let subscriptions = (0..<130).map { n in Subscription(id: n + 1, topics: [.hits], views: ["v\(n)"]) }
        let set = SubscriptionSet(subscriptions)
        for n in [0, 63, 64, 127, 129] {
            #expect(set.wants(OutboundMessage(topic: .hits, views: [ResponderID("v\(n)")], droppable: false, body: "\"type\":\"hit\"")))
        }
        #expect(!set.wants(OutboundMessage(topic: .hits, views: ["v130"], droppable: false, body: "\"type\":\"hit\"")))
    }
}
