/// The watch page: static HTML and its script, served by `touchctl watch`; nothing is fetched from
/// anywhere else.
///
/// The page loads `/layout` (each window as touchd draws it, `touchd render`'s picture without
/// touches), then follows `/events` (Server-Sent Events: touchd's messages, the recent ones first).
/// On each window's picture it draws, in window points (the picture's own coordinates): a circle
/// at each touch-down (`circle.hit`, with `data-touch`, `data-view`, `data-window`), each touch's
/// path (`polyline.path`), both in the colour of the view that received the touch, and lists the
/// actions. A `layout` event (the daemon reloaded) loads the pictures again. The body's
/// `data-state` is `loading`, then `live` once the layout is shown and the stream open, or
/// `unauthorized` when the page has no token.
///
/// The token comes in the address's fragment (`#token=…`) on the first load: the script keeps it
/// in the port's cookie (`touchctl_watch_PORT`, `SameSite=Strict`, for this session), which
/// `/layout` and `/events` requests carry, and takes it out of the address bar.
enum WatchPage {
    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>touchd watch</title>
        <style>
        body { font: 14px system-ui, sans-serif; margin: 0; color: #222; background: #f4f4f0; }
        header { padding: 8px 16px; background: #222; color: #eee; }
        #status { font-weight: bold; }
        #page { display: flex; gap: 16px; padding: 16px; align-items: flex-start; }
        #windows { flex: 3; }
        aside { flex: 1; min-width: 16em; }
        .window h2, aside h2 { font-size: 15px; margin: 4px 0; }
        .picture svg { width: 100%; height: auto; background: #fff; border: 1px solid #ccc; }
        circle.hit { stroke: #fff; stroke-width: 2; fill-opacity: 0.85; }
        polyline.path { fill: none; stroke-width: 4; stroke-linecap: round; stroke-linejoin: round; stroke-opacity: 0.8; }
        polyline.cancelled { stroke-dasharray: 6 6; }
        #actions { list-style: none; padding: 0; margin: 0; max-height: 70vh; overflow: auto; }
        #actions li { border-left: 6px solid #888; padding: 2px 6px; margin: 2px 0; background: #fff; }
        #devices { padding-left: 1.2em; }
        .error { color: #a00; }
        </style>
        </head>
        <body data-state="loading">
        <header>touchd watch: <span id="status">loading</span> <span id="count"></span></header>
        <div id="page">
        <main id="windows"></main>
        <aside><h2>Devices</h2><ul id="devices"></ul><h2>Actions</h2><ol id="actions"></ol></aside>
        </div>
        <script src="/watch.js"></script>
        </body>
        </html>

        """

    static let script = #"""
        "use strict";
        const svgNS = "http://www.w3.org/2000/svg";
        const windows = new Map();
        const paths = new Map();
        const devices = new Map();
        let ready = false;
        let queued = [];
        let received = 0;
        let stream = null;

        function setState(state, text) {
          document.body.dataset.state = state;
          document.getElementById("status").textContent = text;
        }

        function keepToken() {
          const given = new URLSearchParams(location.hash.slice(1)).get("token");
          if (!given) return;
          document.cookie = "touchctl_watch_" + location.port + "=" + encodeURIComponent(given) + "; path=/; SameSite=Strict";
          history.replaceState(null, "", location.pathname);
        }

        async function loadLayout() {
          ready = false;
          const response = await fetch("/layout", { cache: "no-store" });
          if (response.status === 401) {
            setState("unauthorized", "no token: open the address touchctl watch printed (with its #token=)");
            throw "unauthorized";
          }
          const layout = await response.json();
          const main = document.getElementById("windows");
          main.textContent = "";
          windows.clear();
          paths.clear();
          for (const w of layout.windows) {
            const section = document.createElement("section");
            section.className = "window";
            section.dataset.window = w.id;
            const title = document.createElement("h2");
            title.textContent = w.id;
            section.append(title);
            if (w.error) {
              const problem = document.createElement("p");
              problem.className = "error";
              problem.textContent = w.error;
              section.append(problem);
            } else {
              const holder = document.createElement("div");
              holder.className = "picture";
              holder.innerHTML = w.svg;
              const svg = holder.querySelector("svg");
              const overlay = document.createElementNS(svgNS, "g");
              overlay.setAttribute("class", "live");
              svg.append(overlay);
              windows.set(w.id, { svg, overlay });
              section.append(holder);
            }
            main.append(section);
          }
          ready = true;
          const waiting = queued;
          queued = [];
          waiting.forEach(handle);
          if (stream && stream.readyState === EventSource.OPEN) setState("live", "live");
        }

        function colourOf(win, view) {
          if (view === null || view === undefined) return "#555555";
          for (const g of win.svg.querySelectorAll("g.view")) {
            if (g.getAttribute("data-view") === view) return g.getAttribute("data-colour") || "#555555";
          }
          return "#555555";
        }

        function hit(m) {
          const win = windows.get(m.window);
          if (!win || !m.point) return;
          const circle = document.createElementNS(svgNS, "circle");
          circle.setAttribute("class", "hit");
          circle.setAttribute("cx", m.point.x);
          circle.setAttribute("cy", m.point.y);
          circle.setAttribute("r", 10);
          circle.setAttribute("fill", colourOf(win, m.view));
          circle.dataset.touch = m.touch;
          circle.dataset.view = m.view === null ? "" : m.view;
          circle.dataset.window = m.window;
          const title = document.createElementNS(svgNS, "title");
          title.textContent = "touch " + m.touch + " on " + (m.view === null ? "no view" : m.view);
          circle.append(title);
          win.overlay.append(circle);
        }

        function touch(m) {
          const win = windows.get(m.window);
          if (!win || !m.location) return;
          let path = paths.get(m.touch);
          if (!path) {
            const line = document.createElementNS(svgNS, "polyline");
            line.setAttribute("class", "path");
            line.setAttribute("stroke", colourOf(win, m.view));
            line.dataset.touch = m.touch;
            line.dataset.view = m.view === null ? "" : m.view;
            win.overlay.prepend(line);
            path = { line, points: [] };
            paths.set(m.touch, path);
          }
          for (const sample of m.coalesced || []) if (sample.location) path.points.push(sample.location.x + "," + sample.location.y);
          path.points.push(m.location.x + "," + m.location.y);
          path.line.setAttribute("points", path.points.join(" "));
          if (m.phase === "ended" || m.phase === "cancelled") path.line.classList.add(m.phase);
        }

        function action(m) {
          const item = document.createElement("li");
          const win = [...windows.values()].find((w) => colourOf(w, m.view) !== "#555555");
          item.style.borderLeftColor = win ? colourOf(win, m.view) : "#888888";
          item.textContent = (typeof m.time === "number" ? m.time.toFixed(3) + " " : "") + m.name + " from " + (m.responder || "no responder") + " on " + m.view;
          item.dataset.action = m.name;
          const list = document.getElementById("actions");
          list.prepend(item);
          while (list.children.length > 200) list.lastChild.remove();
        }

        function device(m) {
          if (m.event === "added") devices.set(m.device, m.description && m.description.name ? m.description.name : m.device);
          else devices.delete(m.device);
          const list = document.getElementById("devices");
          list.textContent = "";
          for (const [id, name] of devices) {
            const item = document.createElement("li");
            item.textContent = name;
            item.title = id;
            list.append(item);
          }
        }

        function handle(m) {
          switch (m.type) {
            case "hit": hit(m); break;
            case "touch": touch(m); break;
            case "action": action(m); break;
            case "device": device(m); break;
          }
        }

        function start() {
          stream = new EventSource("/events");
          let opened = false;
          stream.onopen = () => {
            // After a reconnection the recent messages come again: draw them on a fresh layout.
            if (opened) { loadLayout(); } else if (ready) { setState("live", "live"); }
            opened = true;
          };
          stream.onerror = () => setState("reconnecting", "reconnecting to touchctl watch");
          stream.addEventListener("layout", () => { setState("loading", "reloading the layout"); loadLayout(); });
          stream.onmessage = (event) => {
            received += 1;
            document.getElementById("count").textContent = received + " messages";
            const message = JSON.parse(event.data);
            if (ready) handle(message); else queued.push(message);
          };
        }

        keepToken();
        loadLayout().then(start, (error) => { if (error !== "unauthorized") setState("error", "cannot load the layout: " + error); });

        """#
}
