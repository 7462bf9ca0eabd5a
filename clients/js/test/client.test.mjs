// The JavaScript client against the real daemon, over its Unix socket:
//   TOUCHD_BIN=$(swift build --show-bin-path) node --test clients/js/test/
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { TouchdClient, TouchdError, ConnectionLost } from "../touchd.mjs";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const bin = process.env.TOUCHD_BIN;
const layout = join(repo, "config", "kiosk.toml");
const taps = join(repo, "config", "demo-taps.evemu");
const skip = bin ? false : "TOUCHD_BIN is not set: the tests against the daemon were skipped";
const view = { frame: [10, 700, 120, 60] };

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function startDaemon(socket, replay, exitAfterReplay = false) {
  const args = ["--config", layout, "--socket", socket, "--log-level", "error", "--no-devices"];
  if (replay) args.push("--replay", taps, "--replay-waits-for-client");
  if (exitAfterReplay) args.push("--exit-after-replay");
  const daemon = spawn(join(bin, "touchd"), args, { stdio: ["ignore", "inherit", "inherit"] });
  for (let i = 0; i < 400 && !existsSync(socket); i++) await sleep(25);
  assert.ok(existsSync(socket), "touchd's socket appeared");
  daemon.stopped = new Promise((resolve) => daemon.once("exit", resolve));
  return daemon;
}

async function stop(daemon) {
  if (daemon.exitCode === null) daemon.kill("SIGTERM");
  await daemon.stopped;
}

async function next(client, type, timeout = 20000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const remaining = deadline - Date.now();
    assert.ok(remaining > 0, `a ${type} message within ${timeout} ms`);
    const message = await Promise.race([client.nextMessage(), sleep(remaining).then(() => undefined)]);
    assert.notEqual(message, null, `the client ended before a ${type}`);
    if (message && message.type === type) return message;
  }
}

function withDaemon(name, body) {
  test(name, { skip, timeout: 60000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "touchd-js-"));
    const daemons = [];
    const start = async (replay, exitAfterReplay) => {
      const daemon = await startDaemon(join(dir, "touchd.sock"), replay, exitAfterReplay);
      daemons.push(daemon);
      return daemon;
    };
    try {
      await body(join(dir, "touchd.sock"), start);
    } finally {
      for (const daemon of daemons) await stop(daemon);
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

withDaemon("hits and actions of a replay arrive, and requests are awaitable", async (socket, start) => {
  await start(true);
  const touchd = new TouchdClient(socket);
  const hello = await touchd.connect();
  assert.equal(hello.protocol, 2);
  await touchd.subscribe({ topics: ["hits", "actions"] });
  const hit = await next(touchd, "hit");
  assert.equal(hit.view, "tile.doors");
  const action = await next(touchd, "action");
  assert.deepEqual([action.name, action.payload], ["open-tile", { tile: "doors" }]);
  assert.deepEqual(await touchd.request("ping"), { pong: true });
  await assert.rejects(touchd.set("no.such.view", { hidden: true }), (error) => error instanceof TouchdError && error.code === "unknown_view");
  touchd.close();
});

withDaemon("a final goodbye (input ended) ends the client instead of reconnecting", async (socket, start) => {
  await start(true, true);
  const touchd = new TouchdClient(socket, { initialBackoff: 50, maxBackoff: 200 });
  await touchd.connect();
  await touchd.subscribe({ topics: ["hits"] });
  const seen = [];
  for (;;) {
    const message = await Promise.race([touchd.nextMessage(), sleep(30000).then(() => "timeout")]);
    assert.notEqual(message, "timeout", "the client ended");
    if (message === null) break;
    seen.push(message);
  }
  assert.equal(seen.find((m) => m.type === "goodbye")?.reason, "input ended");
  assert.ok(seen.some((m) => m.type === "disconnected"), "told that the connection ended");
  assert.ok(!seen.some((m) => m.type === "reconnected"), "no reconnection");
});

withDaemon("a restart is survived: subscriptions and owned views come back", async (socket, start) => {
  const first = await start(false);
  const touchd = new TouchdClient(socket, { initialBackoff: 50, maxBackoff: 200 });
  await touchd.connect();
  const subscription = await touchd.subscribe({ topics: ["hits"] });
  await touchd.addView("client.badge", "home.root", view);
  await stop(first);
  await next(touchd, "disconnected");
  await start(true);
  const seen = [];
  for (;;) {
    const message = await touchd.nextMessage();
    seen.push(message);
    if (message.type === "reconnected") break;
  }
  assert.deepEqual(seen.at(-1).restoredViews, ["client.badge"]);
  assert.ok(subscription.serverId >= 1);
  assert.match(JSON.stringify(await touchd.request("views")), /client\.badge/);
  const hit = seen.find((m) => m.type === "hit") ?? (await next(touchd, "hit"));
  assert.equal(hit.view, "tile.doors");
  touchd.close();
});

withDaemon("views a reload dropped are added again", async (socket, start) => {
  await start(false);
  const touchd = new TouchdClient(socket);
  await touchd.connect();
  await touchd.subscribe({ topics: ["hits"] });
  await touchd.addView("client.badge", "home.root", view);
  await touchd.request("reload");
  const reload = await next(touchd, "reload");
  assert.deepEqual(reload.dropped.added, ["client.badge"]);
  for (let i = 0; ; i++) {
    if (JSON.stringify(await touchd.request("views")).includes("client.badge")) break;
    assert.ok(i < 100, "the view was added again");
    await sleep(50);
  }
  touchd.close();
});

withDaemon("without reconnect the messages end and requests reject", async (socket, start) => {
  const daemon = await start(false);
  const touchd = new TouchdClient(socket, { reconnect: false });
  await touchd.connect();
  await stop(daemon);
  const seen = [];
  for await (const message of touchd.messages()) seen.push(message.type);
  assert.equal(seen.at(-1), "disconnected");
  await assert.rejects(touchd.requestNow("ping", {}), ConnectionLost);
});

test("a gap in seq without a dropped notice is reported; a dropped notice covers its own", async () => {
  const touchd = new TouchdClient("/nonexistent", { reconnect: false });
  touchd.lastSeq = 4;
  touchd.receive({ seq: 5, type: "hit" });
  touchd.receive({ seq: 9, type: "hit" });
  touchd.receive({ seq: 20, type: "dropped", count: 10, first_seq: 10, last_seq: 19 });
  const types = [];
  for (let i = 0; i < 4; i++) types.push(await touchd.nextMessage());
  assert.deepEqual(types.map((m) => m.type), ["hit", "gap", "hit", "dropped"]);
  assert.deepEqual([types[1].first_seq, types[1].last_seq], [6, 8]);
});

test("past queueSize unread messages the client drops touchd's, says which in a gap, keeps its own", async () => {
  const touchd = new TouchdClient("/nonexistent", { reconnect: false, queueSize: 3 });
  assert.equal(new TouchdClient("/nonexistent").queueSize, 10000);
  for (let seq = 1; seq <= 6; seq++) touchd.receive({ seq, type: "hit" });
  touchd.push({ type: "disconnected", seq: 0, reason: "gone" });
  touchd.push(null);
  const seen = [];
  for await (const message of touchd.messages()) seen.push(message);
  assert.deepEqual(seen.map((m) => m.type), ["hit", "hit", "hit", "gap", "disconnected"]);
  assert.deepEqual(seen.slice(0, 3).map((m) => m.seq), [1, 2, 3]);
  assert.deepEqual([seen[3].first_seq, seen[3].last_seq], [4, 6]);
  // The gap comes once what was kept is read, before touchd's next message.
  const reader = new TouchdClient("/nonexistent", { reconnect: false, queueSize: 2 });
  for (let seq = 1; seq <= 4; seq++) reader.receive({ seq, type: "hit" });
  const read = [];
  for (let i = 0; i < 3; i++) read.push(await reader.nextMessage());
  reader.receive({ seq: 5, type: "hit" });
  read.push(await reader.nextMessage());
  assert.deepEqual(read.map((m) => [m.type, m.seq, m.first_seq, m.last_seq]),
    [["hit", 1, undefined, undefined], ["hit", 2, undefined, undefined], ["gap", 0, 3, 4], ["hit", 5, undefined, undefined]]);
  // Read, the queue takes touchd's messages again.
  touchd.closed = false;
  touchd.queue = [];
  touchd.receive({ seq: 7, type: "hit" });
  assert.equal((await touchd.nextMessage()).seq, 7);
});

// A stand-in for touchd on a Unix socket: `serve(socket)` runs for each connection.
async function fakeDaemon(serve) {
  const { createServer } = await import("node:net");
  const folder = mkdtempSync(join(tmpdir(), "touchd-js-fake-"));
  const path = join(folder, "fake.sock");
  const server = createServer((socket) => {
    server.connections += 1;
    socket.on("error", () => {});
    serve(socket);
  });
  server.connections = 0;
  await new Promise((resolve) => server.listen(path, resolve));
  server.path = path;
  server.stop = () => new Promise((resolve) => server.close(() => {
    rmSync(folder, { recursive: true, force: true });
    resolve();
  }));
  return server;
}

const helloLine = JSON.stringify({ seq: 1, type: "hello", protocol: 2, role: "control", topics: [] }) + "\n";

test("what comes in the same read as the hello is kept, and a line that is not JSON is no crash", async () => {
  const daemon = await fakeDaemon((socket) => socket.end(helloLine + JSON.stringify({ seq: 2, type: "action", name: "x" }) +
    "\nnot json\n" + JSON.stringify({ seq: 4, type: "goodbye", reason: "input ended" }) + "\n"));
  const garbage = await fakeDaemon((socket) => socket.end("not json\n"));
  try {
    const touchd = new TouchdClient(daemon.path, { reconnect: false });
    await touchd.connect();
    const seen = [];
    for await (const message of touchd.messages()) seen.push(message);
    assert.deepEqual(seen.map((m) => m.type), ["hello", "action", "gap", "goodbye", "disconnected"]);
    const refused = new TouchdClient(garbage.path, { reconnect: false });
    await assert.rejects(refused.connect(), /not JSON/);
  } finally {
    await daemon.stop();
    await garbage.stop();
  }
});

test("a daemon that greets and closes is connected to again with backoff", async () => {
  const daemon = await fakeDaemon((socket) => socket.end(helloLine));
  try {
    const touchd = new TouchdClient(daemon.path, { initialBackoff: 50, maxBackoff: 200 });
    await touchd.connect();
    await sleep(1000);
    touchd.close();
    // 50 + 100 + 200 + 200 ... ms apart: a handful of connections, not one per round trip.
    assert.ok(daemon.connections <= 10 && daemon.connections >= 3, `${daemon.connections} connections`);
  } finally {
    await daemon.stop();
  }
});

test("the module loads on its own and exports the client and its two errors", () => {
  const run = spawnSync(process.execPath, ["--input-type=module", "-e",
    `import(${JSON.stringify(join(repo, "clients", "js", "touchd.mjs"))}).then((m) => console.log(Object.keys(m).sort().join(",")))`]);
  assert.equal(run.status, 0, String(run.stderr));
  assert.equal(String(run.stdout).trim(), "ConnectionLost,TouchdClient,TouchdError");
});
