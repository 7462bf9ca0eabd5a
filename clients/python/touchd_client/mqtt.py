"""touchd to MQTT: actions and device changes published to a broker, for wall panels and fleets.

    python3 -m touchd_client.mqtt --config /etc/touchd/mqtt.toml

What it publishes, under `base_topic` (default `touchd/<node_id>`):
- `<base>/availability`: `online` while the bridge is connected to both touchd and the broker,
  `offline` otherwise; retained, and the broker's last will, so that a bridge that dies is seen.
- `<base>/action/<name>`: each action touchd emits, as its JSON message (QoS 1, not retained);
  `+`, `#`, `/` and `%` in a name are percent-encoded (`topic_level`).
- `<base>/device`: each input device that comes or goes (QoS 1).
- Home Assistant MQTT discovery: a device trigger per action the layout can emit (and per action
  seen since; after a layout reload, the triggers of actions the new layout lacks are removed), under
  `<discovery_prefix>/device_automation/<node_id>/<object id>/config` (retained), all on one device
  (`object_id`: the action's name, or when it has other characters than letters, digits, `_` and
  `-`, a form of it with a hash).
- `<base>/command`: requests (`{"cmd":"set",...}`) are taken only when the configuration's
  `[commands] allow` lists their `cmd`; each answer goes to `<base>/command/reply`.

QoS 1 messages are kept by the MQTT client until the broker acknowledges them, and sent again after
a reconnection, so a broker restart loses no action. TLS (`[mqtt] tls = true`, `ca_file`,
`cert_file`, `key_file`) and credentials (`username`, `password_file`) are supported.
Needs paho-mqtt (Debian's python3-paho-mqtt, or `pip install paho-mqtt`), 1.6 or 2.x.
"""
from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import re
import socket
import ssl
import sys
import threading
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from .aio import DEFAULT_SOCKET, Client, TouchdError
from .messages import Action, Device, Disconnected, Reconnected, Reload

try:
    import tomllib
except ImportError:  # Python before 3.11
    tomllib = None

__all__ = ["BridgeConfig", "Bridge", "main", "action_names_of_layout", "slug", "topic_level", "object_id"]


@dataclass
class BridgeConfig:
    """The bridge's settings (a TOML file; every key optional but `[mqtt] host`)."""
    host: str = "localhost"
    port: int = 1883
    username: Optional[str] = None
    password: Optional[str] = None
    tls: bool = False
    ca_file: Optional[str] = None
    cert_file: Optional[str] = None
    key_file: Optional[str] = None
    keepalive: int = 30
    node_id: str = field(default_factory=lambda: slug(socket.gethostname()))
    base_topic: Optional[str] = None
    discovery_prefix: Optional[str] = "homeassistant"
    touchd: str = DEFAULT_SOCKET
    token_file: Optional[str] = None
    layout: Optional[str] = None
    allowed_commands: List[str] = field(default_factory=list)

    @property
    def base(self) -> str:
        return self.base_topic or f"touchd/{self.node_id}"

    @staticmethod
    def load(path: str) -> "BridgeConfig":
        if tomllib is None:
            raise SystemExit("the bridge's configuration needs Python 3.11 (tomllib)")
        with open(path, "rb") as file:
            data = tomllib.load(file)
        return BridgeConfig.from_dict(data, path)

    @staticmethod
    def from_dict(data: Dict[str, Any], origin: str = "configuration") -> "BridgeConfig":
        known = {"mqtt": {"host", "port", "username", "password_file", "tls", "ca_file", "cert_file", "key_file",
                          "keepalive", "node_id", "base_topic", "discovery_prefix", "discovery"},
                 "touchd": {"socket", "url", "token_file", "layout"},
                 "commands": {"allow"}}
        for table, value in data.items():
            if table not in known or not isinstance(value, dict):
                raise ValueError(f"{origin}: unknown table [{table}] (expected {', '.join(sorted(known))})")
            for key in value:
                if key not in known[table]:
                    raise ValueError(f"{origin}: [{table}] has no key {key!r} "
                                     f"(expected one of {', '.join(sorted(known[table]))})")
        mqtt, touchd, commands = data.get("mqtt", {}), data.get("touchd", {}), data.get("commands", {})
        config = BridgeConfig()
        config.host = _typed(mqtt, "host", str, config.host, origin)
        config.port = _typed(mqtt, "port", int, config.port, origin)
        if not 1 <= config.port <= 65535:
            raise ValueError(f"{origin}: [mqtt] port must be from 1 to 65535, not {config.port}")
        config.username = _typed(mqtt, "username", str, None, origin)
        password_file = _typed(mqtt, "password_file", str, None, origin)
        if password_file:
            with open(password_file, encoding="utf-8") as file:
                config.password = file.read().strip()
        config.tls = _typed(mqtt, "tls", bool, False, origin)
        for key in ("ca_file", "cert_file", "key_file"):
            setattr(config, key, _typed(mqtt, key, str, None, origin))
        config.keepalive = _typed(mqtt, "keepalive", int, config.keepalive, origin)
        config.node_id = slug(_typed(mqtt, "node_id", str, config.node_id, origin))
        config.base_topic = _typed(mqtt, "base_topic", str, None, origin)
        if _typed(mqtt, "discovery", bool, True, origin):
            config.discovery_prefix = _typed(mqtt, "discovery_prefix", str, "homeassistant", origin)
        else:
            config.discovery_prefix = None
        config.touchd = _typed(touchd, "url", str, _typed(touchd, "socket", str, config.touchd, origin), origin)
        config.token_file = _typed(touchd, "token_file", str, None, origin)
        config.layout = _typed(touchd, "layout", str, None, origin)
        allow = commands.get("allow", [])
        if not isinstance(allow, list) or not all(isinstance(cmd, str) for cmd in allow):
            raise ValueError(f"{origin}: [commands] allow must be a list of request names")
        config.allowed_commands = list(allow)
        return config


def _typed(table: Dict[str, Any], key: str, kind: type, default: Any, origin: str) -> Any:
    value = table.get(key, default)
    if value is not None and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
        raise ValueError(f"{origin}: {key} must be a {kind.__name__}, not {value!r}")
    return value


def slug(text: str) -> str:
    """A topic- and id-safe form of a name: letters, digits, `_` and `-`."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", text).strip("_") or "touchd"


def topic_level(name: str) -> str:
    """`name` as one MQTT topic level: the characters MQTT forbids or reads as structure in a topic
    (`+`, `#`, `/`, U+0000) and `%` are written `%XX` (percent-encoding, as in URLs), so that every
    name has a topic of its own and a name without them is its own level. Other characters, non-ASCII
    ones too, are kept (topics are UTF-8)."""
    return re.sub(r"[%+#/\x00]", lambda match: f"%{ord(match.group()):02X}", name)


def object_id(name: str) -> str:
    """A Home Assistant object id for `name` (letters, digits, `_` and `-`): the name itself when
    it is one, else its `slug` and 8 hex digits of its SHA-256, so that names that only differ in
    other characters (`a.b` and `a b`, or names in another script) never share a discovery topic."""
    if re.fullmatch(r"[A-Za-z0-9_-]+", name):
        return name
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:8]
    base = re.sub(r"[^A-Za-z0-9_-]+", "_", name).strip("_")
    return f"{base}_{digest}" if base else digest


def action_names_of_layout(path: str) -> List[str]:
    """Every action name a layout's handlers, recognizers and controls can emit, sorted."""
    if tomllib is None:
        return []
    with open(path, "rb") as file:
        layout = tomllib.load(file)
    names = set()

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, dict):
            for inner_key, inner in value.items():
                walk(inner, inner_key)
        elif isinstance(value, list):
            for item in value:
                walk(item, key)
        elif key == "action" and isinstance(value, str):
            names.add(value)

    walk(layout)
    return sorted(names)


class Bridge:
    """One bridge: a touchd client and an MQTT client, run on asyncio."""

    def __init__(self, config: BridgeConfig, mqtt_module=None):
        self.config = config
        self.mqtt = mqtt_module or _import_paho()
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self.touchd: Optional[Client] = None
        self.broker_connected = False
        self.touchd_connected = False
        self.published_actions: List[str] = []
        self.discovered: set = set()
        self._discovery_lock = threading.Lock()  # paho's thread and the loop's both announce
        self.client = self._make_mqtt_client()

    # MQTT

    def _make_mqtt_client(self):
        mqtt = self.mqtt
        client_id = f"touchd-bridge-{self.config.node_id}"
        if hasattr(mqtt, "CallbackAPIVersion"):  # paho-mqtt 2
            client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION1, client_id=client_id, clean_session=False)
        else:
            client = mqtt.Client(client_id=client_id, clean_session=False)
        if self.config.username:
            client.username_pw_set(self.config.username, self.config.password)
        if self.config.tls:
            client.tls_set(ca_certs=self.config.ca_file, certfile=self.config.cert_file,
                           keyfile=self.config.key_file, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        client.will_set(self.topic("availability"), "offline", qos=1, retain=True)
        client.reconnect_delay_set(min_delay=1, max_delay=30)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        return client

    def topic(self, *parts: str) -> str:
        return "/".join((self.config.base,) + parts)

    def _on_connect(self, client, userdata, flags, rc, *rest):
        if rc != 0:
            print(f"touchd-mqtt: the broker refused the connection ({rc})", file=sys.stderr)
            return
        self.broker_connected = True
        client.subscribe(self.topic("command"), qos=1)
        self._publish_availability()
        for name in self.action_names():
            self._discover(name, force=True)

    def _on_disconnect(self, client, userdata, rc, *rest):
        self.broker_connected = False

    def _on_message(self, client, userdata, message):
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._command, bytes(message.payload))

    def _publish_availability(self) -> None:
        state = "online" if self.touchd_connected else "offline"
        self.client.publish(self.topic("availability"), state, qos=1, retain=True)

    def publish(self, topic: str, payload: Any, retain: bool = False) -> None:
        self.client.publish(topic, json.dumps(payload, separators=(",", ":")), qos=1, retain=retain)

    # Discovery

    def action_names(self) -> List[str]:
        names = set(self.discovered)
        if self.config.layout:
            names.update(action_names_of_layout(self.config.layout))
        return sorted(names)

    def _forget_gone_actions(self) -> None:
        """After a layout reload: the discovery messages of the actions announced so far that the new
        layout no longer has are cleared (an empty retained message), so that Home Assistant drops
        their triggers; an action seen again is announced again."""
        if self.config.discovery_prefix is None:
            return
        current = set(action_names_of_layout(self.config.layout)) if self.config.layout else set()
        with self._discovery_lock:
            gone = sorted(self.discovered - current)
            self.discovered -= set(gone)
        for name in gone:
            self.client.publish(self._discovery_topic(name), b"", qos=1, retain=True)
        for name in sorted(current):
            self._discover(name)

    def _discovery_topic(self, name: str) -> str:
        return f"{self.config.discovery_prefix}/device_automation/{self.config.node_id}/{object_id(name)}/config"

    def _discover(self, name: str, force: bool = False) -> None:
        with self._discovery_lock:
            if self.config.discovery_prefix is None or (name in self.discovered and not force):
                return
            self.discovered.add(name)
        node = self.config.node_id
        config = {
            "automation_type": "trigger",
            "topic": self.topic("action", topic_level(name)),
            "type": "action",
            "subtype": name,
            "availability_topic": self.topic("availability"),
            "device": {"identifiers": [f"touchd_{node}"], "name": f"touchd {node}", "manufacturer": "touchd",
                       "model": "touchd"},
        }
        self.publish(self._discovery_topic(name), config, retain=True)

    # touchd

    def _command(self, payload: bytes) -> None:
        if self.loop is not None:
            self.loop.create_task(self._serve_command(payload))

    async def _serve_command(self, payload: bytes) -> None:
        reply: Dict[str, Any]
        try:
            request = json.loads(payload)
            if not isinstance(request, dict) or not isinstance(request.get("cmd"), str):
                raise ValueError("a command is a JSON object with \"cmd\"")
        except ValueError as error:
            self.publish(self.topic("command", "reply"), {"id": None, "ok": False,
                                                          "error": {"code": "malformed_request", "message": str(error)}})
            return
        request_id = request.pop("id", None)
        cmd = request.pop("cmd")
        if cmd not in self.config.allowed_commands:
            reply = {"id": request_id, "ok": False, "error": {
                "code": "forbidden", "message": f"{cmd!r} is not in the bridge's [commands] allow list"}}
        elif self.touchd is None or not self.touchd.connected:
            reply = {"id": request_id, "ok": False, "error": {"code": "unavailable", "message": "touchd is not connected"}}
        else:
            try:
                reply = {"id": request_id, "ok": True, "result": await self.touchd.request(cmd, **request)}
            except TouchdError as error:
                reply = {"id": request_id, "ok": False, "error": {"code": error.code, "message": error.message}}
            except Exception as error:  # the connection went away meanwhile
                reply = {"id": request_id, "ok": False, "error": {"code": "unavailable", "message": str(error)}}
        self.publish(self.topic("command", "reply"), reply)

    async def run(self) -> None:
        self.loop = asyncio.get_running_loop()
        token = None
        if self.config.token_file:
            with open(self.config.token_file, encoding="utf-8") as file:
                token = file.read().strip()
        self.client.connect_async(self.config.host, self.config.port, keepalive=self.config.keepalive)
        self.client.loop_start()
        self.touchd = Client(self.config.touchd, token=token)
        try:
            await self.touchd.connect()
            await self.touchd.subscribe(topics=["actions", "devices"])
            self._set_touchd_connected(True)
            async for message in self.touchd.messages():
                self._forward(message)
        finally:
            self._set_touchd_connected(False)
            await self.touchd.close()
            self.client.loop_stop()

    def _set_touchd_connected(self, connected: bool) -> None:
        self.touchd_connected = connected
        self._publish_availability()

    def _forward(self, message) -> None:
        if isinstance(message, Action):
            self._discover(message.name)
            payload = {key: value for key, value in message.raw.items() if key != "seq"}
            self.publish(self.topic("action", topic_level(message.name)), payload)
            self.published_actions.append(message.name)
        elif isinstance(message, Device):
            self.publish(self.topic("device"), {key: value for key, value in message.raw.items() if key != "seq"})
        elif isinstance(message, Reload):
            self._forget_gone_actions()
        elif isinstance(message, Disconnected):
            self._set_touchd_connected(False)
        elif isinstance(message, Reconnected):
            self._set_touchd_connected(True)


def _import_paho():
    try:
        import paho.mqtt.client as mqtt
    except ImportError as error:
        raise SystemExit("touchd-mqtt needs paho-mqtt: apt install python3-paho-mqtt, or pip install paho-mqtt") from error
    return mqtt


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="touchd-mqtt", description=__doc__.splitlines()[0])
    parser.add_argument("--config", help="the bridge's TOML file (see docs/operations.md, MQTT)")
    parser.add_argument("--host", help="the broker (overrides [mqtt] host)")
    parser.add_argument("--port", type=int, help="the broker's port (overrides [mqtt] port)")
    parser.add_argument("--touchd", help="touchd's socket path or ws:// URL (overrides [touchd])")
    parser.add_argument("--layout", help="the layout whose actions are announced to Home Assistant")
    args = parser.parse_args(argv)
    try:
        config = BridgeConfig.load(args.config) if args.config else BridgeConfig()
    except (OSError, ValueError) as error:
        print(f"touchd-mqtt: {error}", file=sys.stderr)
        return 1
    for key in ("host", "port", "touchd", "layout"):
        if getattr(args, key) is not None:
            setattr(config, key, getattr(args, key))
    try:
        asyncio.run(Bridge(config).run())
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
