// targets.mjs: what the web kiosk page decides, without the DOM (so Node's test runner checks it):
// its connection settings, the rectangles it pushes into touchd's tree, and which target a tap was on.

/** The settings a page runs with when its address and its session say nothing else. */
export const DEFAULTS = Object.freeze({
  ws: "ws://127.0.0.1:8765/",
  token: null,
  window: "kiosk",
  root: "kiosk.root",
});

const KEYS = Object.keys(DEFAULTS);

/**
 * The connection settings, from the address's fragment (`#ws=...&token=...&window=...&root=...`)
 * over the ones kept in the session (a reload of the page after the fragment was taken out of the
 * address). Never from the query string: a fragment is not sent to the web server, nor logged by it.
 *
 * @param {string} hash `location.hash`, with or without its `#`
 * @param {object | null} kept the settings kept earlier in this session, or null
 * @returns {{settings: object, fromAddress: boolean}} `fromAddress`: the fragment gave settings, and
 *   the page must take them out of its address
 */
export function connectionSettings(hash, kept = null) {
  const given = new URLSearchParams(hash.startsWith("#") ? hash.slice(1) : hash);
  const settings = { ...DEFAULTS };
  for (const key of KEYS) if (kept && typeof kept[key] === "string" && kept[key] !== "") settings[key] = kept[key];
  let fromAddress = false;
  for (const key of KEYS) {
    const value = given.get(key);
    if (value !== null && value !== "") {
      settings[key] = value;
      fromAddress = true;
    }
  }
  return { settings, fromAddress };
}

/**
 * CSS pixels to the window's points: the window's size over the viewport's, per axis (1 and 1 when
 * the layout's window is the viewport's size, as it should be; the viewport fills the screen the
 * window stands for).
 */
export function scaleFor(windowSize, viewport) {
  const ratio = (points, pixels) => (Number.isFinite(points) && points > 0 && Number.isFinite(pixels) && pixels > 0 ? points / pixels : 1);
  if (!Array.isArray(windowSize)) return { x: 1, y: 1 };
  return { x: ratio(windowSize[0], viewport.width), y: ratio(windowSize[1], viewport.height) };
}

/** A number as the page sends it: to a thousandth of a point, so that sub-pixel noise sends nothing. */
function rounded(n) {
  return Math.round(n * 1000) / 1000;
}

/**
 * The properties of a target's view in touchd's tree (`add_view`'s and `set`'s `properties`): its
 * frame in window points (from `getBoundingClientRect()`, whose origin is the viewport's, the
 * window's), hidden when the browser does not show it, not interactive when it is disabled.
 *
 * @param {{left: number, top: number, width: number, height: number}} rect the element's box, CSS pixels
 * @param {{shown: boolean, enabled: boolean}} state
 * @param {{x: number, y: number}} scale from `scaleFor`
 */
export function targetProperties(rect, state, scale = { x: 1, y: 1 }) {
  const width = Math.max(0, rect.width);
  const height = Math.max(0, rect.height);
  return {
    frame: [rounded(rect.left * scale.x), rounded(rect.top * scale.y), rounded(width * scale.x), rounded(height * scale.y)],
    hidden: !state.shown || width === 0 || height === 0,
    interactive: state.enabled,
  };
}

/** The properties of `wanted` that differ from `current` (the ones a `set` sends), or null when none do. */
export function changedProperties(current, wanted) {
  const changes = {};
  for (const [key, value] of Object.entries(wanted)) {
    if (JSON.stringify(current?.[key]) !== JSON.stringify(value)) changes[key] = value;
  }
  return Object.keys(changes).length > 0 ? changes : null;
}

/**
 * Which target each tap was on. A tap is the root's tap recognizer's action (`touches` names its
 * touch); the view the touch landed on came earlier, in the touch's `hit`.
 */
export class TapTracker {
  /** @param {number} remembered how many touches' views are kept (the newest) */
  constructor(remembered = 64) {
    this.remembered = remembered;
    this.views = new Map();
  }

  /** Notes where a touch landed (a `hit` message). */
  hit(message) {
    if (typeof message.touch !== "number") return;
    this.views.delete(message.touch);
    this.views.set(message.touch, message.delivered === false ? null : message.view);
    while (this.views.size > this.remembered) this.views.delete(this.views.keys().next().value);
  }

  /**
   * The targets a tap action was on: the views its touches landed on that are among `targets`
   * (the page's own), each once.
   *
   * @param {object} message an `action` message
   * @param {string} tapAction the tap recognizer's action name
   * @param {(view: string) => boolean} isTarget
   */
  tapped(message, tapAction, isTarget) {
    if (message.type !== "action" || message.name !== tapAction || !Array.isArray(message.touches)) return [];
    const found = [];
    for (const touch of message.touches) {
      const view = this.views.get(touch);
      if (view && isTarget(view) && !found.includes(view)) found.push(view);
    }
    return found;
  }
}
