"""The MQTT bridge against Debian's mosquitto and the real daemon.

    TOUCHD_BIN=$(swift build --show-bin-path) /usr/bin/python3 -m unittest discover -s clients/python/tests -v

Needs mosquitto and paho-mqtt (python3-paho-mqtt); without them these tests are skipped, saying so.
"""
import getpass
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
sys.path.insert(0, str(HERE.parent))

BIN = os.environ.get("TOUCHD_BIN")
MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if os.path.exists("/usr/sbin/mosquitto") else None)
try:
    import paho.mqtt.client as mqtt
except ImportError:
    mqtt = None

LAYOUT = REPO / "config" / "kiosk.toml"
TAPS = REPO / "config" / "demo-taps.evemu"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


class Broker:
    """mosquitto on a loopback port, persisting sessions in `folder` across restarts."""

    def __init__(self, folder, port, extra=""):
        self.folder, self.port = folder, port
        self.config = os.path.join(folder, "mosquitto.conf")
        with open(self.config, "w") as file:
            # `user`: mosquitto started as root would switch to its own user, who cannot read this folder.
            file.write(f"user {getpass.getuser()}\nlistener {port} 127.0.0.1\npersistence true\n"
                       f"persistence_location {folder}/\n"
                       f"autosave_interval 1\n{extra or 'allow_anonymous true'}\n")
        self.process = None
        self.start()

    def start(self):
        self.process = subprocess.Popen([MOSQUITTO, "-c", self.config], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)

        def listening():
            with socket.socket() as probe:
                return probe.connect_ex(("127.0.0.1", self.port)) == 0
        wait_for(listening, 10, "mosquitto to listen")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


class Subscriber:
    """A test client of the broker that keeps its session (QoS 1) and records what it receives."""

    def __init__(self, port, topics, client_id="touchd-test-subscriber", **connect):
        self.received = []
        self.lock = threading.Lock()
        if hasattr(mqtt, "CallbackAPIVersion"):
            self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION1, client_id=client_id, clean_session=False)
        else:
            self.client = mqtt.Client(client_id=client_id, clean_session=False)
        self.client.reconnect_delay_set(min_delay=1, max_delay=1)
        self.client.on_connect = lambda client, *_: [client.subscribe(topic, qos=1) for topic in topics]
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port, keepalive=5)
        self.client.loop_start()

    def _on_message(self, client, userdata, message):
        with self.lock:
            self.received.append((message.topic, message.payload.decode(), message.retain))

    def of(self, topic):
        with self.lock:
            return [payload for received_topic, payload, _ in self.received if received_topic == topic]

    def stop(self):
        self.client.loop_stop()
        self.client.disconnect()


@unittest.skipUnless(BIN, "TOUCHD_BIN is not set: the MQTT bridge tests were skipped")
@unittest.skipUnless(MOSQUITTO and mqtt, "mosquitto or paho-mqtt is not installed: the MQTT bridge tests were skipped")
class BridgeAgainstMosquitto(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="touchd-mqtt-")
        self.socket = os.path.join(self.dir, "touchd.sock")
        self.port = free_port()
        self.stoppers = []

    def tearDown(self):
        for stop in reversed(self.stoppers):
            try:
                stop()
            except Exception:
                pass
        shutil.rmtree(self.dir, ignore_errors=True)

    def process(self, arguments, **options):
        process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, **options)

        def stop():
            if process.poll() is None:
                process.terminate()
                process.wait(10)
        self.stoppers.append(stop)
        return process

    def expected_actions(self):
        run = subprocess.run([os.path.join(BIN, "touchd"), "replay", "--config", str(LAYOUT), "--topics", "actions",
                              str(TAPS)], capture_output=True, text=True, check=True)
        return [json.loads(line)["name"] for line in run.stdout.splitlines() if line.strip()]

    def start_daemon(self):
        self.process([os.path.join(BIN, "touchd"), "--config", str(LAYOUT), "--socket", self.socket, "--log-level",
                      "error", "--no-devices", "--replay", str(TAPS), "--replay-waits-for-client"])
        wait_for(lambda: os.path.exists(self.socket), 20, "touchd's socket")

    def start_bridge(self, config_text):
        config = os.path.join(self.dir, "bridge.toml")
        with open(config, "w") as file:
            file.write(config_text)
        return self.process([sys.executable, "-m", "touchd_client.mqtt", "--config", config],
                            env={**os.environ, "PYTHONPATH": str(HERE.parent)})

    def bridge_config(self, extra_mqtt="", port=None):
        return (f'[mqtt]\nhost = "127.0.0.1"\nport = {port or self.port}\nnode_id = "lobby"\n{extra_mqtt}\n'
                f'[touchd]\nsocket = "{self.socket}"\nlayout = "{LAYOUT}"\n'
                f'[commands]\nallow = ["set", "views"]\n')

    def test_actions_discovery_availability_commands_and_a_broker_restart(self):
        expected = self.expected_actions()
        self.assertGreaterEqual(len(expected), 4)
        broker = Broker(self.dir, self.port)
        self.stoppers.append(broker.stop)
        subscriber = Subscriber(self.port, ["touchd/#"])
        self.stoppers.append(subscriber.stop)
        self.start_daemon()
        bridge = self.start_bridge(self.bridge_config())

        # The first action arrives; then the broker goes away while the replay goes on tapping.
        wait_for(lambda: subscriber.of("touchd/lobby/action/open-tile"), 30, "the first action")
        broker.stop()
        time.sleep(2.5)
        broker.start()
        # Every action of the replay arrives (QoS 1: at least once), none lost to the restart.
        def all_arrived():
            got = Counter(topic.rsplit("/", 1)[1] for topic, _, _ in subscriber.received if "/action/" in topic)
            return all(got[name] >= count for name, count in Counter(expected).items())
        wait_for(all_arrived, 40, f"every action of the replay: {expected} (received: {subscriber.received})")
        first = json.loads(subscriber.of("touchd/lobby/action/open-tile")[0])
        self.assertEqual((first["responder"], first["payload"]), ("tile.doors.tap", {"tile": "doors"}))
        self.assertEqual(json.loads(subscriber.of("touchd/lobby/device")[0])["event"], "added")

        # Home Assistant discovery: retained, a device trigger per action of the layout.
        retained = Subscriber(self.port, ["homeassistant/#", "touchd/lobby/availability"], client_id="late-reader")
        self.stoppers.append(retained.stop)
        wait_for(lambda: retained.of("homeassistant/device_automation/lobby/lights-all-off/config"), 10,
                 "the retained discovery config")
        trigger = json.loads(retained.of("homeassistant/device_automation/lobby/lights-all-off/config")[0])
        self.assertEqual(trigger["automation_type"], "trigger")
        self.assertEqual(trigger["topic"], "touchd/lobby/action/lights-all-off")
        self.assertEqual(trigger["subtype"], "lights-all-off")
        self.assertEqual(trigger["device"]["identifiers"], ["touchd_lobby"])
        wait_for(lambda: retained.of("touchd/lobby/availability")[-1:] == ["online"], 10, "availability online")

        # Commands: an allowed one is served, one outside the allow list is refused.
        retained.client.subscribe("touchd/lobby/command/reply", qos=1)
        time.sleep(0.3)
        retained.client.publish("touchd/lobby/command", json.dumps(
            {"id": 1, "cmd": "set", "view": "dialog.root", "properties": {"hidden": False}}), qos=1)
        retained.client.publish("touchd/lobby/command", json.dumps({"id": 2, "cmd": "reload"}), qos=1)
        wait_for(lambda: len(retained.of("touchd/lobby/command/reply")) >= 2, 10, "two command replies")
        replies = {r["id"]: r for r in map(json.loads, retained.of("touchd/lobby/command/reply"))}
        self.assertTrue(replies[1]["ok"], replies[1])
        self.assertEqual(replies[2]["error"]["code"], "forbidden")

        # The bridge dies: the broker publishes its last will, retained.
        bridge.send_signal(signal.SIGKILL)
        bridge.wait(10)
        wait_for(lambda: retained.of("touchd/lobby/availability")[-1:] == ["offline"], 20, "the last will")

    def test_tls_and_credentials(self):
        if not shutil.which("openssl") or not shutil.which("mosquitto_passwd"):
            self.skipTest("openssl or mosquitto_passwd is missing")
        key, cert = os.path.join(self.dir, "key.pem"), os.path.join(self.dir, "cert.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                        "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                       check=True, capture_output=True)
        passwords = os.path.join(self.dir, "passwords")
        subprocess.run(["mosquitto_passwd", "-c", "-b", passwords, "kiosk", "s3cret"], check=True, capture_output=True)
        os.chmod(passwords, 0o600)
        password_file = os.path.join(self.dir, "bridge-password")
        with open(password_file, "w") as file:
            file.write("s3cret\n")
        plain_port = free_port()
        broker = Broker(self.dir, self.port, extra=(
            f"allow_anonymous false\npassword_file {passwords}\ncertfile {cert}\nkeyfile {key}\n"
            f"listener {plain_port} 127.0.0.1\nallow_anonymous false\n"))
        self.stoppers.append(broker.stop)
        self.start_daemon()
        self.start_bridge(self.bridge_config(
            f'tls = true\nca_file = "{cert}"\nusername = "kiosk"\npassword_file = "{password_file}"'))
        # A reader on the plain listener with the same credentials sees what the bridge sent over TLS.
        if hasattr(mqtt, "CallbackAPIVersion"):
            reader = mqtt.Client(mqtt.CallbackAPIVersion.VERSION1, client_id="tls-reader")
        else:
            reader = mqtt.Client(client_id="tls-reader")
        reader.username_pw_set("kiosk", "s3cret")
        got = []
        reader.on_connect = lambda client, *_: client.subscribe("touchd/lobby/#", qos=1)
        reader.on_message = lambda client, userdata, message: got.append(message.topic)
        reader.connect("127.0.0.1", plain_port)
        reader.loop_start()
        self.stoppers.append(reader.loop_stop)
        wait_for(lambda: "touchd/lobby/action/open-tile" in got, 30, "an action through TLS with credentials")


class Configuration(unittest.TestCase):
    def test_bad_configurations_are_refused_by_key(self):
        from touchd_client.mqtt import BridgeConfig
        for data, words in (({"mqtt": {"prot": 1}}, "[mqtt] has no key 'prot'"),
                            ({"mqtt": {"port": "1883"}}, "port must be a int"),
                            ({"mqtt": {"port": 70000}}, "from 1 to 65535"),
                            ({"other": {}}, "unknown table [other]"),
                            ({"commands": {"allow": "set"}}, "allow must be a list")):
            with self.assertRaises(ValueError) as refused:
                BridgeConfig.from_dict(data, "bridge.toml")
            self.assertIn(words, str(refused.exception))
            self.assertTrue(str(refused.exception).startswith("bridge.toml: "))

    def test_the_bundled_example_is_valid(self):
        from touchd_client.mqtt import BridgeConfig
        import tomllib
        with open(REPO / "config" / "mqtt-bridge.toml", "rb") as file:
            data = tomllib.load(file)
        data["mqtt"].pop("password_file")  # names a file of the kiosk's
        config = BridgeConfig.from_dict(data, "config/mqtt-bridge.toml")
        self.assertEqual((config.port, config.tls, config.base), (8883, True, "touchd/lobby"))
        self.assertEqual(config.allowed_commands, ["set", "set_control"])

    def test_the_layouts_action_names(self):
        from touchd_client.mqtt import action_names_of_layout
        names = action_names_of_layout(str(LAYOUT))
        self.assertIn("open-tile", names)
        self.assertIn("lights-all-off", names)
        self.assertEqual(names, sorted(set(names)))


@unittest.skipUnless(mqtt, "paho-mqtt is not installed: the MQTT bridge tests were skipped")
class TopicsOfNames(unittest.TestCase):
    def test_any_action_name_has_a_topic_and_a_discovery_topic_of_its_own(self):
        from touchd_client.messages import Action
        from touchd_client.mqtt import Bridge, BridgeConfig
        bridge = Bridge(BridgeConfig(node_id="lobby"))
        published = []
        real_publish = bridge.client.publish

        def publish(topic, payload, **options):
            published.append((topic, json.loads(payload)))
            return real_publish(topic, payload, **options)  # paho refuses a topic MQTT forbids
        bridge.client.publish = publish
        names = ["open-tile", "lights+", "scene#2", "floor/3", "100%", "開く", "閉じる", "a.b", "a b", "x" * 256]
        for seq, name in enumerate(names, start=1):
            bridge._forward(Action("action", seq, {"seq": seq, "type": "action", "name": name}, name=name))
        actions = [(topic, payload) for topic, payload in published if "/action/" in topic]
        discovery = {topic: payload for topic, payload in published if topic.startswith("homeassistant/")}
        self.assertEqual([payload["name"] for _, payload in actions], names)
        self.assertEqual(len({topic for topic, _ in actions}), len(names))
        self.assertIn(("touchd/lobby/action/open-tile", {"type": "action", "name": "open-tile"}), actions)
        self.assertEqual(actions[3][0], "touchd/lobby/action/floor%2F3")
        self.assertEqual(len(discovery), len(names))
        self.assertIn("homeassistant/device_automation/lobby/open-tile/config", discovery)
        for topic, config in discovery.items():
            self.assertRegex(topic.split("/")[3], r"^[A-Za-z0-9_-]+$")
            self.assertIn(config["topic"], [topic for topic, _ in actions])

    def test_a_reload_clears_the_discovery_of_actions_gone(self):
        from touchd_client.messages import Action, Reload
        from touchd_client.mqtt import Bridge, BridgeConfig, object_id
        folder = tempfile.mkdtemp(prefix="touchd-mqtt-reload-")
        topic = "homeassistant/device_automation/lobby/{}/config".format
        self.addCleanup(shutil.rmtree, folder, True)
        layout = os.path.join(folder, "layout.toml")
        with open(layout, "w") as file:
            file.write('[[handler]]\naction = "open-door"\n[[handler]]\naction = "lights.off"\n')
        bridge = Bridge(BridgeConfig(node_id="lobby", layout=layout))
        published = []
        bridge.client.publish = lambda topic, payload, **options: published.append((topic, payload, options))
        for name in bridge.action_names():
            bridge._discover(name, force=True)
        bridge._forward(Action("action", 1, {"seq": 1, "type": "action", "name": "seen-once"}, name="seen-once"))
        with open(layout, "w") as file:
            file.write('[[handler]]\naction = "open-door"\n')
        published.clear()
        bridge._forward(Reload("reload", 2, {"seq": 2, "type": "reload"}))
        cleared = sorted(topic for topic, payload, options in published if payload == b"" and options["retain"])
        gone = ("lights.off", "seen-once")
        self.assertEqual(cleared, sorted(topic(object_id(name)) for name in gone))
        self.assertEqual(bridge.action_names(), ["open-door"])
        published.clear()
        bridge._forward(Action("action", 3, {"seq": 3, "type": "action", "name": "seen-once"}, name="seen-once"))
        self.assertIn(topic("seen-once"), [sent for sent, _, _ in published])


if __name__ == "__main__":
    unittest.main()
