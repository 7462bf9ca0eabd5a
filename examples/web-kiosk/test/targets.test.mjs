// The web kiosk page's decisions, without a browser: node --test examples/web-kiosk/test/
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULTS, connectionSettings, scaleFor, targetProperties, changedProperties, TapTracker } from "../targets.mjs";

test("settings come from the fragment, over those kept in the session, over the defaults", () => {
  assert.deepEqual(connectionSettings("", null), { settings: { ...DEFAULTS }, fromAddress: false });
  const given = connectionSettings("#ws=ws%3A%2F%2F127.0.0.1%3A9000%2F&token=abcdefghijklmnop", null);
  assert.equal(given.fromAddress, true);
  assert.equal(given.settings.ws, "ws://127.0.0.1:9000/");
  assert.equal(given.settings.token, "abcdefghijklmnop");
  assert.equal(given.settings.window, "kiosk");
  // After the fragment is gone, a reload finds the kept settings; a new fragment wins key by key.
  const kept = connectionSettings("", given.settings);
  assert.deepEqual(kept, { settings: given.settings, fromAddress: false });
  const newer = connectionSettings("token=qrstuvwxyz0123456", given.settings);
  assert.equal(newer.settings.ws, "ws://127.0.0.1:9000/");
  assert.equal(newer.settings.token, "qrstuvwxyz0123456");
  // Unknown keys and empty values change nothing.
  assert.deepEqual(connectionSettings("#other=1&token=", null), { settings: { ...DEFAULTS }, fromAddress: false });
});

test("CSS pixels scale to the window's points only when the sizes differ", () => {
  assert.deepEqual(scaleFor([1280, 800], { width: 1280, height: 800 }), { x: 1, y: 1 });
  assert.deepEqual(scaleFor([1920, 1200], { width: 1280, height: 800 }), { x: 1.5, y: 1.5 });
  assert.deepEqual(scaleFor(undefined, { width: 1280, height: 800 }), { x: 1, y: 1 });
  assert.deepEqual(scaleFor([1280, 800], { width: 0, height: 800 }), { x: 1, y: 1 });
});

test("a target's properties: its frame in points, hidden when not shown, not interactive when disabled", () => {
  const rect = { left: 40.25, top: 100.0004, width: 580, height: 250.5 };
  assert.deepEqual(targetProperties(rect, { shown: true, enabled: true }), { frame: [40.25, 100, 580, 250.5], hidden: false, interactive: true });
  assert.deepEqual(targetProperties(rect, { shown: true, enabled: false }, { x: 2, y: 1 }), { frame: [80.5, 100, 1160, 250.5], hidden: false, interactive: false });
  assert.equal(targetProperties({ left: 0, top: 0, width: 0, height: 0 }, { shown: true, enabled: true }).hidden, true);
  assert.equal(targetProperties(rect, { shown: false, enabled: true }).hidden, true);
});

test("only what changed is set again", () => {
  const before = { frame: [0, 0, 10, 10], hidden: false, interactive: true };
  assert.equal(changedProperties(before, { ...before }), null);
  assert.deepEqual(changedProperties(before, { ...before, frame: [0, 0, 12, 10] }), { frame: [0, 0, 12, 10] });
  assert.deepEqual(changedProperties(undefined, before), before);
});

test("a tap is on the target its touch landed on", () => {
  const taps = new TapTracker(2);
  const isTarget = (view) => view === "door" || view === "lights";
  taps.hit({ type: "hit", touch: 1, view: "kiosk.root", delivered: true });
  taps.hit({ type: "hit", touch: 2, view: "door", delivered: true });
  assert.deepEqual(taps.tapped({ type: "action", name: "tap", touches: [2] }, "tap", isTarget), ["door"]);
  assert.deepEqual(taps.tapped({ type: "action", name: "tap", touches: [1] }, "tap", isTarget), []);
  assert.deepEqual(taps.tapped({ type: "action", name: "other", touches: [2] }, "tap", isTarget), []);
  // A touch the view did not get is on no target; only the newest touches are remembered.
  taps.hit({ type: "hit", touch: 3, view: "lights", delivered: false, reason: "multiple_touch_disabled" });
  assert.deepEqual(taps.tapped({ type: "action", name: "tap", touches: [3] }, "tap", isTarget), []);
  assert.deepEqual(taps.tapped({ type: "action", name: "tap", touches: [2] }, "tap", isTarget), ["door"]);
  taps.hit({ type: "hit", touch: 4, view: "lights", delivered: true });
  assert.deepEqual(taps.tapped({ type: "action", name: "tap", touches: [2, 4] }, "tap", isTarget), ["lights"]);
});
