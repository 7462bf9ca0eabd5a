// touchd.mjs: a client for touchd's socket protocol (docs/protocol.md), for Node and browsers.
//
//   import { TouchdClient } from "./touchd.mjs";
//   const touchd = new TouchdClient("/run/touchd/touchd.sock");      // Node: the Unix socket
//   // const touchd = new TouchdClient("ws://127.0.0.1:8765", { token });   // a WebSocket listener
//   await touchd.connect();
//   await touchd.subscribe({ topics: ["hits", "actions"] });
//   await touchd.addView("promo", "home.root", { frame: [0, 600, 400, 120] });
//   for await (const message of touchd.messages()) {
//     if (message.type === "action") console.log(message.name, message.payload);
//   }
//
// What it does for the application, as the Python client does:
// - requests are awaitable: `await touchd.request("views")` resolves to the reply's `result`, or
//   rejects with a TouchdError carrying touchd's `code`; a connection lost first rejects with
//   ConnectionLost;
// - after the daemon restarts it connects again with exponential backoff (also between connections
//   that end within a second of their hello), subscribes again with the
//   same arguments and adds again the views it added; after a layout `reload` it adds again the
//   views the reload dropped; it says so with `disconnected` and `reconnected` messages of its own;
// - it checks `seq`: a `gap` message of its own reports messages missed without a `dropped` notice.
// - it keeps at most `queueSize` (10000) of touchd's messages unread: beyond, a `gap` says which
//   it dropped; its own messages are always kept.

const DEFAULT_SOCKET = "/run/touchd/touchd.sock";

// A connection that lasted this long (milliseconds) was a working one: after it ends, the client
// connects again at once; after a shorter one, it waits the backoff first.
const STEADY_CONNECTION = 1000;

/** touchd refused a request: `code` is the protocol's error code. */
export class TouchdError extends Error {
  constructor(code, message) {
    super(`${code}: ${message}`);
    this.name = "TouchdError";
    this.code = code;
    this.detail = message;
  }
}

/** The connection ended before the request's reply came. */
export class ConnectionLost extends Error {
  constructor(reason) {
    super(reason);
    this.name = "ConnectionLost";
  }
}

/** A line-per-message connection: a Unix socket (Node) or a WebSocket (browsers, Node 22+). */
async function openTransport(target, { token, origin }) {
  if (/^wss?:\/\//.test(target)) return openWebSocket(target, token);
  const net = await import("node:net");
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(target);
    socket.setEncoding("utf8");
    let buffer = "";
    const transport = {
      onLine: () => {},
      onClose: () => {},
      send: (text) => socket.write(text + "\n"),
      close: () => socket.destroy(),
    };
    socket.once("connect", () => resolve(transport));
    socket.once("error", (error) => reject(error));
    socket.on("data", (chunk) => {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line) transport.onLine(line);
      }
    });
    socket.on("close", () => transport.onClose("touchd closed the connection"));
    socket.on("error", () => {});
  });
}

function openWebSocket(url, token) {
  const Socket = globalThis.WebSocket;
  if (!Socket) return Promise.reject(new Error("no WebSocket in this runtime (Node 20 needs --experimental-websocket)"));
  // A browser cannot set headers: the token travels as a subprotocol beside touchd.v2, never in the URL.
  const protocols = token ? ["touchd.v2", `touchd.bearer.${token}`] : ["touchd.v2"];
  return new Promise((resolve, reject) => {
    const socket = new Socket(url, protocols);
    const transport = {
      onLine: () => {},
      onClose: () => {},
      send: (text) => socket.send(text),
      close: () => socket.close(1000),
    };
    socket.onopen = () => resolve(transport);
    socket.onerror = () => reject(new Error(`cannot connect to ${url}`));
    socket.onmessage = (event) => transport.onLine(String(event.data));
    socket.onclose = (event) => transport.onClose(`closed (${event.code}${event.reason ? ": " + event.reason : ""})`);
  });
}

export class TouchdClient {
  /**
   * @param {string} target the Unix socket's path (Node) or a ws:// URL
   * @param {{reconnect?: boolean, initialBackoff?: number, maxBackoff?: number, token?: string, queueSize?: number}} options
   *   backoffs in milliseconds; `reconnect: false` makes a lost connection final; `queueSize`
   *   bounds touchd's messages left unread: beyond it they are dropped, and a `gap` says which
   *   before the next message kept (the client's own messages are always kept)
   */
  constructor(target = DEFAULT_SOCKET, options = {}) {
    this.target = target;
    this.reconnect = options.reconnect ?? true;
    this.initialBackoff = options.initialBackoff ?? 100;
    this.maxBackoff = options.maxBackoff ?? 5000;
    this.queueSize = options.queueSize ?? 10000;
    this.token = options.token;
    this.origin = options.origin;
    this.hello = null;
    this.transport = null;
    this.lastSeq = 0;
    this.nextId = 1;
    this.pending = new Map();
    this.subscriptions = [];
    this.views = new Map();
    this.queue = [];
    // The first and last seq of touchd's messages dropped since the last one queued, or null.
    this.overflow = null;
    this.waiters = [];
    this.closed = false;
    this.connectedWaiters = [];
    this.connectedAt = 0;
    this.retryDelay = this.initialBackoff;
  }

  get connected() {
    return this.transport !== null && this.hello !== null;
  }

  /** Connects (retrying with backoff while `reconnect` is on); resolves to touchd's hello. */
  async connect() {
    await this.open(true);
    return this.hello;
  }

  /** Closes for good: pending requests reject with ConnectionLost, messages() ends. */
  close() {
    this.closed = true;
    if (this.transport) this.transport.close();
    this.transport = null;
    this.failPending("the client closed the connection");
    this.push(null);
  }

  /** Every message in order, with the client's own `gap`, `disconnected` and `reconnected`. */
  async *messages() {
    while (true) {
      const message = await this.nextMessage();
      if (message === null) return;
      yield message;
    }
  }

  /** The next message, or null when the client has ended. */
  nextMessage() {
    // Read up to the messages dropped: their gap comes now.
    if (this.queue.length === 0) this.queueGap();
    if (this.queue.length > 0) {
      const message = this.queue.shift();
      if (message === null) this.queue.unshift(null);
      return Promise.resolve(message);
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Sends a request; resolves to its reply's result. */
  async request(cmd, args = {}) {
    await this.whenConnected();
    return this.requestNow(cmd, args);
  }

  /** Subscribes; the subscription is made again after every reconnection. */
  async subscribe(args = {}) {
    const result = await this.request("subscribe", args);
    const subscription = { args, serverId: result.subscription };
    this.subscriptions.push(subscription);
    return subscription;
  }

  async unsubscribe(subscription) {
    this.subscriptions = this.subscriptions.filter((s) => s !== subscription);
    if (this.connected) await this.request("unsubscribe", { subscription: subscription.serverId });
  }

  /** Adds a view this client owns: added again after a reconnection or a reload. */
  async addView(view, parent, properties, keep = false) {
    await this.request("add_view", { view, parent, properties, keep });
    this.views.set(view, { parent, properties: { ...properties }, keep });
  }

  async removeView(view) {
    const gone = new Set([view]);
    for (const [name, owned] of this.views) if (gone.has(owned.parent)) gone.add(name);
    for (const name of gone) this.views.delete(name);
    await this.request("remove_view", { view });
  }

  /** Sets properties of a view; for a view this client owns they are kept for re-adding. */
  async set(view, properties) {
    await this.request("set", { view, properties });
    const owned = this.views.get(view);
    if (owned) Object.assign(owned.properties, properties);
  }

  get ownedViews() {
    return [...this.views.keys()];
  }

  // Inside

  /**
   * Hands a message to the application: one of touchd's beyond `queueSize` unread ones is
   * dropped, and a `gap` before the next message queued says which were.
   */
  push(message) {
    const waiter = this.waiters.shift();
    if (waiter) return void waiter(message);
    if (message !== null && message.seq > 0 && this.queue.length >= this.queueSize) {
      this.overflow = { first: this.overflow?.first ?? message.seq, last: message.seq };
      return;
    }
    this.queueGap();
    this.queue.push(message);
  }

  /** Queues the `gap` of touchd's messages dropped since the last one queued, if any were. */
  queueGap() {
    if (this.overflow === null) return;
    this.queue.push({ type: "gap", seq: 0, first_seq: this.overflow.first, last_seq: this.overflow.last });
    this.overflow = null;
  }

  whenConnected() {
    if (this.connected) return Promise.resolve();
    if (this.closed) return Promise.reject(new ConnectionLost("the client is closed"));
    return new Promise((resolve) => this.connectedWaiters.push(resolve));
  }

  requestNow(cmd, args) {
    if (!this.transport) return Promise.reject(new ConnectionLost("not connected"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.transport.send(JSON.stringify({ id, cmd, ...args }));
    });
  }

  failPending(reason) {
    const pending = this.pending;
    this.pending = new Map();
    for (const { reject } of pending.values()) reject(new ConnectionLost(reason));
  }

  /**
   * Whether touchd's goodbye means it will not serve this client again, so connecting again changes
   * nothing: its replay is over (`input ended`), or the connection is not let in (`not allowed`).
   */
  static isFinalGoodbye(reason) {
    return reason === "input ended" || String(reason).startsWith("not allowed");
  }

  async open(first) {
    let delay = this.initialBackoff;
    let attempts = 0;
    for (;;) {
      attempts += 1;
      try {
        const transport = await openTransport(this.target, { token: this.token, origin: this.origin });
        // What comes after the hello before the connection is attached (in the same read, say) is
        // kept for it: lines and the end of the connection.
        const early = { lines: [], closed: null };
        const hello = await new Promise((resolve, reject) => {
          let greeted = false;
          transport.onLine = (line) => {
            if (greeted) return void early.lines.push(line);
            let message;
            try {
              message = JSON.parse(line);
            } catch {
              return void reject(new Error("touchd's first line is not JSON"));
            }
            if (message?.type === "hello") {
              greeted = true;
              resolve(message);
            } else if (message?.type === "goodbye") reject(Object.assign(new Error(`refused: ${message.reason}`), { final: TouchdClient.isFinalGoodbye(message.reason) }));
            else reject(new Error(`first message ${message?.type}`));
          };
          transport.onClose = (reason) => {
            if (greeted) early.closed = reason;
            else reject(new Error(reason));
          };
        });
        this.attach(transport, hello, early);
        break;
      } catch (error) {
        if (this.closed || !this.reconnect || error.final) throw new ConnectionLost(`cannot connect to ${this.target}: ${error.message}`);
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, this.maxBackoff);
      }
    }
    if (!first) {
      const restoredViews = await this.restore();
      this.push({ type: "reconnected", seq: 0, attempts, restoredViews });
    }
  }

  attach(transport, hello, early = { lines: [], closed: null }) {
    this.connectedAt = Date.now();
    this.transport = transport;
    this.hello = hello;
    this.lastSeq = hello.seq;
    this.push(hello);
    transport.onLine = (line) => {
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        return;
      }
      this.receive(message);
    };
    this.goodbye = null;
    transport.onClose = (reason) => this.lost(transport, reason, TouchdClient.isFinalGoodbye(this.goodbye ?? ""));
    for (const resolve of this.connectedWaiters.splice(0)) resolve();
    for (const line of early.lines) transport.onLine(line);
    if (early.closed !== null) transport.onClose(early.closed);
  }

  receive(message) {
    const expected = this.lastSeq + 1;
    if (message.seq > expected && !(message.type === "dropped" && message.first_seq <= expected)) {
      this.push({ type: "gap", seq: 0, first_seq: expected, last_seq: message.seq - 1 });
    }
    this.lastSeq = Math.max(this.lastSeq, message.seq);
    if (message.type === "reply") {
      const pending = this.pending.get(message.id);
      if (pending) {
        this.pending.delete(message.id);
        if (message.ok) pending.resolve(message.result);
        else pending.reject(new TouchdError(message.error?.code ?? "unknown", message.error?.message ?? ""));
      }
      return;
    }
    if (message.type === "goodbye") this.goodbye = message.reason;
    if (message.type === "reload") {
      const dropped = new Set(message.dropped?.added ?? []);
      const mine = this.ownedViews.filter((name) => dropped.has(name));
      if (mine.length > 0) this.addViewsAgain(mine);
    }
    this.push(message);
  }

  async restore() {
    for (const subscription of this.subscriptions) {
      try {
        subscription.serverId = (await this.requestNow("subscribe", subscription.args)).subscription;
      } catch {
        subscription.serverId = null;
      }
    }
    return this.addViewsAgain(this.ownedViews);
  }

  async addViewsAgain(names) {
    const restored = [];
    for (const name of names) {
      const owned = this.views.get(name);
      if (!owned) continue;
      try {
        await this.requestNow("add_view", { view: name, parent: owned.parent, properties: owned.properties, keep: owned.keep });
        restored.push(name);
      } catch (error) {
        if (error instanceof ConnectionLost) break;
        this.views.delete(name); // its parent is gone, say: it can no longer be owned
      }
    }
    return restored;
  }

  async lost(transport, reason, final = false) {
    if (this.transport !== transport) return;
    this.transport = null;
    this.hello = null;
    this.failPending(reason);
    if (this.closed) return;
    this.push({ type: "disconnected", seq: 0, reason });
    // A final goodbye ends the client as `reconnect: false` would: connecting again changes nothing.
    if (!this.reconnect || final) {
      this.closed = true;
      this.push(null);
      return;
    }
    // A daemon that greets and closes at once (one starting and stopping over and over) is connected
    // to again with backoff, not in a busy loop.
    if (Date.now() - this.connectedAt < STEADY_CONNECTION) {
      await new Promise((resolve) => setTimeout(resolve, this.retryDelay));
      this.retryDelay = Math.min(this.retryDelay * 2, this.maxBackoff);
    } else {
      this.retryDelay = this.initialBackoff;
    }
    if (this.closed) return;
    try {
      await this.open(false);
    } catch (error) {
      this.push({ type: "disconnected", seq: 0, reason: error.message });
      this.push(null);
    }
  }
}
