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

    /// Each visited view's step number and answer, written on the picture clear of the labels
    /// (which `labels` holds, and takes the reasons placed).
    func drawHitTestReasons(_ svg: inout SVGBuilder, _ result: HitTestResult, avoiding labels: inout LabelPlacement, in contentBounds: Rect) {
        let fs = fontSize
        svg.begin(
            "g",
            [("id", "hit-test-reasons"), ("font-size", svgNumber(fs)), ("stroke", "#ffffff"), ("stroke-width", "3.5"),
             ("paint-order", "stroke"), ("font-weight", "bold")])
        labels.placed.insert(Rect(x: result.pointInWindow.x - 16, y: result.pointInWindow.y - 16, width: 32, height: 32))
        // Views on the path are outlined; the legend lists their answers.
        for visit in visits(result) where Self.role(visit, hit: result.view) != "path" {
            if svg.isFull { break }
            guard let r = rect(of: visit.view) else { continue }
            let role = Self.role(visit, hit: result.view)
            let box =
                reasonBesideLabel(visit, result, labels: &labels)
                ?? reasonBelow(visit, r, result, labels: &labels, in: contentBounds)
            labels.placed.insert(box.box)
            svg.text(
                "text",
                [("class", "reason"), ("data-view", visit.view.rawValue), ("x", svgNumber(box.box.minX)), ("y", svgNumber(box.box.minY + fs)),
                 ("fill", role == "rejected" ? Self.rejectedColour : Self.pathColour)],
                box.text)
        }
        svg.end()
    }

    /// Whether a reason may go at `box`: inside the picture's right edge and clear of everything
    /// placed (but `own`, the view's label, for a reason beside it).
    func isFree(_ box: Rect, except own: Rect? = nil, _ labels: inout LabelPlacement) -> Bool {
        box.maxX <= windowSize.width + margin - 2 && !labels.placed.overlaps(box, except: own)
    }

    /// The reason written beside the view's name, when it has a label and there is room.
    func reasonBesideLabel(_ visit: Visit, _ result: HitTestResult, labels: inout LabelPlacement) -> (box: Rect, text: String)? {
        guard let label = labels.boxes[visit.view] else { return nil }
        let fs = fontSize
        let text = "\(visit.order) \(Self.mark(ofRole: Self.role(visit, hit: result.view))) \(visit.outcome)"
        let near = Rect(
            x: label.minX + textWidth(visit.view.rawValue, fs) + fs * 0.6, y: label.minY, width: textWidth(text, fs), height: fs * 1.2)
        if isFree(near, except: label, &labels) { return (near, text) }
        var pastPoint = near
        pastPoint.origin.x = max(near.minX, result.pointInWindow.x + 18)
        if isFree(pastPoint, except: label, &labels) { return (pastPoint, text) }
        return nil
    }

    /// The reason under the view's label (or inside its bottom edge), or the nearest free place
    /// below or above; where it would start when there is none.
    func reasonBelow(
        _ visit: Visit, _ r: Rect, _ result: HitTestResult, labels: inout LabelPlacement, in contentBounds: Rect
    ) -> (box: Rect, text: String) {
        let fs = fontSize
        let label = labels.boxes[visit.view]
        let text = "\(visit.order) \(Self.mark(ofRole: Self.role(visit, hit: result.view))) \(visit.view): \(visit.outcome)"
        let width = textWidth(text, fs)
        let right = windowSize.width + margin - 2
        let x = max(-margin + 2, min(label?.minX ?? r.minX + 4, right - width))
        let y = label.map { $0.maxY + 1 } ?? r.maxY - 6 - fs
        var box = Rect(x: x, y: y, width: width, height: fs * 1.2)
        let top = contentBounds.minY - margin + 1
        let bottom = contentBounds.maxY + margin - box.height
        let start = box.minY
        var step = 1
        while step < 48, !isFree(box, &labels) {
            let offset = Double((step + 1) / 2) * fs * 0.6 * (step % 2 == 1 ? 1 : -1)
            box.origin.y = max(top, min(bottom, start + offset))
            step += 1
        }
        if !isFree(box, &labels) { box.origin.y = start }
        return (box, text)
    }
}
