// kiosk.mjs: the web kiosk page's script. Every element marked `data-touchd-view="ID"` is a touch
// target: the page adds a view ID under the layout's root with the element's rectangle (add_view),
// moves it when the page lays out again (set), and removes it when the element goes. touchd
// hit-tests the panel's touches against those views; the page shows where they landed, and a tap on
// a target clicks the element, so the page's own click handlers run.
import { TouchdClient, TouchdError, ConnectionLost } from "../../clients/js/touchd.mjs";
import { connectionSettings, scaleFor, targetProperties, changedProperties, TapTracker } from "./targets.mjs";

const TAP_ACTION = "tap"; // the layout's tap recognizer on the root (layout.toml)
const SESSION_KEY = "touchd-web-kiosk";

const status = document.getElementById("status");
const taps = new TapTracker();
let scale = { x: 1, y: 1 };
let syncing = false;
let again = false;

function say(state, text) {
  document.body.dataset.state = state;
  status.textContent = text;
}

/** The settings from `#ws=...&token=...`, kept for this session and taken out of the address. */
function takeSettings() {
  let kept = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? "null");
  } catch {
    kept = null;
  }
  const { settings, fromAddress } = connectionSettings(location.hash, kept);
  if (fromAddress) {
    try {
      sessionStorage.setItem(SESSION_KEY, JSON.stringify(settings));
    } catch {
      // no session storage (a private window): the settings last as long as the page
    }
    history.replaceState(null, "", location.pathname + location.search);
  }
  return settings;
}

const settings = takeSettings();
const touchd = new TouchdClient(settings.ws, { token: settings.token ?? undefined, maxBackoff: 2000 });

function targets() {
  return [...document.querySelectorAll("[data-touchd-view]")].filter((element) => element.dataset.touchdView);
}

function targetNamed(view) {
  return targets().find((element) => element.dataset.touchdView === view) ?? null;
}

function measure(element) {
  const shown = element.checkVisibility ? element.checkVisibility({ visibilityProperty: true }) : element.offsetParent !== null;
  return targetProperties(element.getBoundingClientRect(), { shown, enabled: !element.disabled }, scale);
}

/** The window's size in points, from the running tree: CSS pixels are scaled to it. */
async function readScale() {
  try {
    const views = await touchd.request("views");
    const window = views.find((entry) => entry.kind === "window" && entry.id === settings.window);
    scale = scaleFor(window?.size, { width: document.documentElement.clientWidth, height: document.documentElement.clientHeight });
  } catch (error) {
    if (!(error instanceof ConnectionLost)) console.warn("touchd: cannot read the window's size", error);
  }
}

/** Brings touchd's views up to the page: adds, moves, removes. One pass at a time; a change meanwhile runs another. */
async function sync() {
  if (syncing) {
    again = true;
    return;
  }
  syncing = true;
  try {
    do {
      again = false;
      if (!touchd.connected) return; // the `reconnected` message syncs again
      await syncOnce();
    } while (again);
    document.body.dataset.synced = String(Number(document.body.dataset.synced ?? 0) + 1);
  } catch (error) {
    if (!(error instanceof ConnectionLost)) say("error", `touchd refused the page's views: ${error.message}`);
  } finally {
    syncing = false;
  }
}

async function syncOnce() {
  const wanted = new Map(targets().map((element) => [element.dataset.touchdView, measure(element)]));
  for (const [view, properties] of wanted) {
    const owned = touchd.views.get(view);
    try {
      if (!owned) await touchd.addView(view, settings.root, properties);
      else {
        const changes = changedProperties(owned.properties, properties);
        if (changes) await touchd.set(view, changes);
      }
    } catch (error) {
      // Removed by someone else (a reload the client could not undo, another client): add it again next pass.
      if (!(error instanceof TouchdError && error.code === "unknown_view" && owned)) throw error;
      touchd.views.delete(view);
      again = true;
    }
  }
  for (const view of touchd.ownedViews) if (!wanted.has(view)) await touchd.removeView(view);
}

function later() {
  setTimeout(sync, 0);
}

function watchLayout() {
  const resizes = new ResizeObserver(later);
  resizes.observe(document.documentElement);
  for (const element of targets()) resizes.observe(element);
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) if (node instanceof Element) {
      for (const element of [node, ...node.querySelectorAll("[data-touchd-view]")]) if (element.dataset.touchdView) resizes.observe(element);
    }
    later();
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-touchd-view", "hidden", "disabled", "class", "style"] });
  addEventListener("resize", later);
  addEventListener("scroll", later, { passive: true });
}

function touched(message) {
  taps.hit(message);
  const element = message.view ? targetNamed(message.view) : null;
  for (const other of document.querySelectorAll(".touchd-touched")) if (other !== element) other.classList.remove("touchd-touched");
  if (element) element.classList.add("touchd-touched");
}

function tapped(message) {
  for (const view of taps.tapped(message, TAP_ACTION, (name) => touchd.views.has(name))) {
    const element = targetNamed(view);
    if (!element) continue;
    element.classList.remove("touchd-touched");
    element.classList.add("touchd-tapped");
    setTimeout(() => element.classList.remove("touchd-tapped"), 600);
    element.dataset.touchdTaps = String(Number(element.dataset.touchdTaps ?? 0) + 1);
    element.dispatchEvent(new CustomEvent("touchd-tap", { bubbles: true, detail: message }));
    element.click();
  }
}

async function main() {
  say("connecting", `connecting to ${settings.ws}`);
  const hello = await touchd.connect();
  document.body.dataset.role = hello.role;
  await touchd.subscribe({ topics: ["hits", "actions"] });
  await readScale();
  watchLayout();
  await sync();
  say("live", `connected (${hello.role}): tap a button`);
  for await (const message of touchd.messages()) {
    if (message.type === "hit") touched(message);
    else if (message.type === "action") tapped(message);
    else if (message.type === "disconnected") say("connecting", `touchd went away (${message.reason}): connecting again`);
    else if (message.type === "reconnected" || message.type === "reload") {
      if (message.type === "reconnected") say("live", `connected again: ${message.restoredViews.length} views added again`);
      await readScale();
      later();
    }
  }
  say("closed", "the connection to touchd has ended");
}

// The page's own behaviour: plain click handlers, run by touchd's taps (and by a mouse, on a desk).
document.addEventListener("click", (event) => {
  const element = event.target instanceof Element ? event.target.closest("[data-touchd-view]") : null;
  if (element) document.getElementById("last").textContent = `${element.dataset.touchdView} tapped`;
});

main().catch((error) => say("error", `touchd: ${error.message}`));
