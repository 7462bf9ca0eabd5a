import TouchCore

extension SVGRenderer {
    /// What each view of this window answered in a traced hit-test, in the order they were entered.
    struct Visit {
        var view: ResponderID
        var order: Int
        var outcome: HitTestOutcome
        var result: ResponderID?
    }

    /// The visits of a traced hit-test: each view's last answer, in the order the views were
    /// entered (views answering without being entered first, in the order of their answers).
    func visits(_ result: HitTestResult) -> [Visit] {
        var order: [ResponderID: Int] = [:]
        var answers: [ResponderID: (position: Int, visit: Visit)] = [:]
        for (position, step) in result.trace.enumerated()
        where (step.view == window || figureIndex[step.view] != nil) && tree.window(of: step.view) == window {
            switch step.kind {
            case .enter:
                if order[step.view] == nil { order[step.view] = order.count + 1 }
            case .result(let hit, let outcome):
                answers[step.view] = (position, Visit(view: step.view, order: order[step.view] ?? 0, outcome: outcome, result: hit))
            }
        }
        return answers.values.sorted { ($0.visit.order, $0.position) < ($1.visit.order, $1.position) }.map(\.visit)
    }

    static func outcomeName(_ outcome: HitTestOutcome) -> String {
        switch outcome {
        case .hidden: "hidden"
        case .notInteractive: "not-interactive"
        case .transparent: "transparent"
        case .outside: "outside"
        case .hitSelf: "hit-self"
        case .hitSubview: "hit-subview"
        case .passedThrough: "passed-through"
        case .captured: "captured"
        case .redirected: "redirected"
        case .refused: "refused"
        }
    }

    static func role(_ visit: Visit, hit: ResponderID?) -> String {
        if visit.view == hit { return "hit" }
        switch visit.outcome {
        case .hitSubview, .redirected, .hitSelf, .captured: return visit.result == nil ? "rejected" : "path"
        case .hidden, .notInteractive, .transparent, .outside, .passedThrough, .refused: return "rejected"
        }
    }

    /// The mark written before a visit's answer.
    static func mark(ofRole role: String) -> String {
        role == "rejected" ? "✗" : (role == "hit" ? "✓" : "↓")
    }

    static let pathColour = "#12a150"
    static let rejectedColour = "#d62828"

    func rect(of view: ResponderID) -> Rect? {
        view == window ? Rect(origin: .zero, size: windowSize) : figureIndex[view].map { figures[$0].frame }
    }

    func drawHitTest(_ svg: inout SVGBuilder, _ result: HitTestResult) {
        svg.begin(
            "g",
            [("id", "hit-test"), ("data-point", "\(svgNumber(result.pointInWindow.x)) \(svgNumber(result.pointInWindow.y))"),
             ("data-hit", result.view?.rawValue ?? "")])
        let visits = visits(result)
        for visit in visits {
            if svg.isFull { break }
            guard let r = rect(of: visit.view) else { continue }
            let role = Self.role(visit, hit: result.view)
            svg.begin(
                "g",
                [("class", "hit-step"), ("data-view", visit.view.rawValue), ("data-order", String(visit.order)),
                 ("data-outcome", Self.outcomeName(visit.outcome)), ("data-role", role),
                 ("data-reason", visit.outcome.description), ("data-result", visit.result?.rawValue ?? "")])
            svg.text("title", [], "\(visit.order). \(visit.view): \(visit.outcome)")
            switch role {
            case "hit":
                svg.empty(
                    "rect",
                    SVGBuilder.rect(r) + [("fill", Self.pathColour), ("fill-opacity", "0.25"), ("stroke", Self.pathColour),
                                          ("stroke-width", "5")])
            case "path":
                svg.empty("rect", SVGBuilder.rect(r) + [("fill", "none"), ("stroke", Self.pathColour), ("stroke-width", "3.5")])
            default:
                svg.empty(
                    "rect",
                    SVGBuilder.rect(r) + [("fill", "none"), ("stroke", Self.rejectedColour), ("stroke-width", "2.5"),
                                          ("stroke-dasharray", "7 4")])
            }
            svg.end()
        }
        // The redirect target is the hit view without being entered: show it too.
        if let hit = result.view, !visits.contains(where: { $0.view == hit }), let r = rect(of: hit) {
            svg.begin("g", [("class", "hit-step"), ("data-view", hit.rawValue), ("data-order", "0"), ("data-outcome", "redirect-target"),
                            ("data-role", "hit"), ("data-reason", "redirected to"), ("data-result", hit.rawValue)])
            svg.empty(
                "rect",
                SVGBuilder.rect(r) + [("fill", Self.pathColour), ("fill-opacity", "0.25"), ("stroke", Self.pathColour), ("stroke-width", "5")])
            svg.end()
        }
        svg.end()
    }

    /// The point hit-tested, on top of everything.
    func drawHitPoint(_ svg: inout SVGBuilder, _ result: HitTestResult) {
        let p = result.pointInWindow
        svg.begin("g", [("id", "hit-point"), ("stroke", "#000000"), ("stroke-width", "2")])
        svg.empty("circle", [("cx", svgNumber(p.x)), ("cy", svgNumber(p.y)), ("r", "9"), ("fill", "#ffffff"), ("fill-opacity", "0.6")])
        svg.empty(
            "path",
            [("d", "M\(svgNumber(p.x - 15)),\(svgNumber(p.y)) H\(svgNumber(p.x + 15)) M\(svgNumber(p.x)),\(svgNumber(p.y - 15)) V\(svgNumber(p.y + 15))")])
        svg.end()
    }

    /// Places each visited view's step number and answer (but those of the views on the path,
    /// which are outlined and listed in the legend) clear of everything placed, as labels are
    /// (``LabelPlacement/place(_:candidates:near:)``): beside the view's label, past the point,
    /// under the label or inside the view's bottom edge, else nearby; an answer with no free place
    /// is left out and counted. The point itself is kept clear first.
    func placeHitTestReasons(_ result: HitTestResult, _ labels: inout LabelPlacement) {
        let fs = fontSize
        let point = result.pointInWindow
        _ = labels.place(Size(width: 32, height: 32), candidates: [Point(x: point.x - 16, y: point.y - 16)], near: point)
        for (index, visit) in visits(result).enumerated() where Self.role(visit, hit: result.view) != "path" {
            guard let r = rect(of: visit.view) else { continue }
            let mark = Self.mark(ofRole: Self.role(visit, hit: result.view))
            var placements: [(origin: Point, text: String)] = []
            if let label = labels.boxes[visit.view] {
                let short = "\(visit.order) \(mark) \(visit.outcome)"
                let beside = label.minX + textWidth(visit.view.rawValue, fs) + fs * 0.6
                placements += [(Point(x: beside, y: label.minY), short), (Point(x: max(beside, point.x + 18), y: label.minY), short)]
            }
            let long = "\(visit.order) \(mark) \(visit.view): \(visit.outcome)"
            let x = labels.boxes[visit.view]?.minX ?? r.minX + 4
            let y = labels.boxes[visit.view].map { $0.maxY + 1 } ?? r.maxY - 6 - fs
            placements.append((Point(x: x, y: y), long))
            // Each text needs a box of its own width: try the short ones first, then the long one
            // there and around.
            var placed = false
            for (origin, text) in placements {
                let size = Size(width: textWidth(text, fs), height: fs * 1.2)
                if let (box, _) = labels.place(size, candidates: [origin], near: text == long ? origin : nil) {
                    labels.reasons.append(LabelPlacement.Reason(visit: index, box: box, text: text))
                    placed = true
                    break
                }
                if labels.placed.isExhausted { break }
            }
            if !placed { labels.reasonsLeftOut += 1 }
        }
    }

    /// Writes the answers placed by ``placeHitTestReasons(_:_:)``.
    func drawHitTestReasons(_ svg: inout SVGBuilder, _ result: HitTestResult, _ labels: LabelPlacement) {
        let fs = fontSize
        svg.begin(
            "g",
            [("id", "hit-test-reasons"), ("font-size", svgNumber(fs)), ("stroke", "#ffffff"), ("stroke-width", "3.5"),
             ("paint-order", "stroke"), ("font-weight", "bold")])
        let visits = visits(result)
        for reason in labels.reasons where reason.visit < visits.count {
            if svg.isFull { break }
            let visit = visits[reason.visit]
            let role = Self.role(visit, hit: result.view)
            svg.text(
                "text",
                [("class", "reason"), ("data-view", visit.view.rawValue), ("data-box", Self.boxText(reason.box)),
                 ("x", svgNumber(reason.box.minX)), ("y", svgNumber(reason.box.minY + fs)),
                 ("fill", role == "rejected" ? Self.rejectedColour : Self.pathColour)],
                reason.text)
        }
        svg.end()
    }
}
