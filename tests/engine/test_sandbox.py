"""User code attacks the platform from the sandbox: script parsers and detections try to read the host's
credentials and files, run programs, reach the network, reach the key-value table's client, change the
engine for later runs, and bring a whole run down. Each attack is performed; each must fail, alone."""

import importlib.util
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import unittest

from caracal_engine import kv, lockdown
from caracal_engine.host import Host, SandboxError
from tests.engine import ENGINE_DIR

SECRET = "caracal-test-secret-5d2e"


def detection(detection_id: str, body: str, **spec) -> dict:
    return {"id": detection_id, "analysisType": "rule", "severity": "Low", "logTypes": ["T"], "body": body, **spec}


class Listener:
    """A TCP server on loopback that records whether anything connected."""

    def __init__(self) -> None:
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen()
        self.server.settimeout(0.2)
        self.port = self.server.getsockname()[1]
        self.connected = False

    def close(self) -> bool:
        try:
            self.server.accept()[0].close()
            self.connected = True
        except OSError:
            pass
        self.server.close()
        return self.connected


class SandboxTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.saved = os.environ.get("AWS_SECRET_ACCESS_KEY")
        os.environ["AWS_SECRET_ACCESS_KEY"] = SECRET
        cls.store = kv.MemoryStore()
        cls.host = Host(cls.store)
        cls.tmp = tempfile.TemporaryDirectory()
        # A world-readable file in a world-readable folder: only the sandbox itself keeps user code out.
        os.chmod(cls.tmp.name, 0o755)
        cls.mailbox = os.path.join(cls.tmp.name, "mailbox.json")
        with open(cls.mailbox, "w", encoding="utf-8") as handle:
            handle.write(json.dumps({"password": SECRET}))
        os.chmod(cls.mailbox, 0o644)

    @classmethod
    def tearDownClass(cls):
        cls.host.close()
        cls.tmp.cleanup()
        if cls.saved is None:
            os.environ.pop("AWS_SECRET_ACCESS_KEY", None)
        else:
            os.environ["AWS_SECRET_ACCESS_KEY"] = cls.saved

    def parse(self, body: str, logs=("x",)) -> dict:
        return self.host.parse(body, list(logs))

    def run_detections(self, version: str, detections: list, events: list, deadline=None) -> dict:
        return self.host.run({"version": version, "detections": detections}, events, deadline=deadline)


class ScriptParserAttackTest(SandboxTest):
    def test_the_environment_holds_no_credentials(self):
        result = self.parse("import os\ndef parse(log):\n    return {'env': dict(os.environ)}\n")
        environment = result["results"][0]["events"][0]["env"]
        self.assertFalse([name for name in environment if name.startswith("AWS_")], environment)
        self.assertNotIn(SECRET, json.dumps(environment))

    def test_files_cannot_be_read(self):
        for path in ("/etc/passwd", "/proc/self/environ", f"/proc/{os.getpid()}/environ", self.mailbox):
            with self.subTest(path=path):
                result = self.parse(f"def parse(log):\n    return {{'text': open({path!r}).read()}}\n")
                self.assertEqual(result["results"][0], {"error": "PermissionError: [Errno 1] Operation not permitted: " + repr(path)})

    def test_programs_cannot_run(self):
        marker = os.path.join(self.tmp.name, "ran")
        result = self.parse(
            "import os, subprocess\n"
            "def parse(log):\n"
            f"    code = os.system('id > {marker}')\n"
            "    try:\n"
            "        out = subprocess.run(['id'], capture_output=True).stdout.decode()\n"
            "    except OSError as error:\n"
            "        out = str(error)\n"
            "    return {'code': code, 'out': out}\n"
        )
        event = result["results"][0]["events"][0]
        self.assertNotEqual(event["code"], 0)
        self.assertIn("Operation not permitted", event["out"])
        self.assertFalse(os.path.exists(marker))

    def test_the_network_is_out_of_reach(self):
        listener = Listener()
        result = self.parse(
            "import socket\n"
            "def parse(log):\n"
            f"    socket.create_connection(('127.0.0.1', {listener.port}), timeout=1)\n"
            "    return {}\n"
        )
        self.assertFalse(listener.close())
        self.assertIn("Operation not permitted", result["results"][0]["error"])

    def test_boto3_imports_as_on_aws_but_reaches_nothing(self):
        # The public content's AWS helpers import boto3 at their top (the Lambda runtime ships it), so it is
        # preloaded where installed; a client still needs files and the network, which the sandbox refuses.
        result = self.parse(
            "import boto3\n"
            "def parse(log):\n"
            "    boto3.client('sts', region_name='us-east-1').get_caller_identity()\n"
            "    return {}\n"
        )
        if importlib.util.find_spec("boto3") is None:
            self.assertIn("No module named 'boto3'", result["error"])
            self.assertIn("pip install boto3", result["error"])
            return
        error = result["results"][0]["error"]
        self.assertNotIn("No module named", error)
        # botocore reads its endpoint data from files first (refused: it reports the data missing).
        self.assertRegex(error, "DataNotFoundError|Operation not permitted")

    def test_preloaded_modules_import_late_and_others_are_refused(self):
        result = self.parse(
            "def parse(log):\n"
            "    import json, datetime, ipaddress\n"
            "    try:\n"
            "        import sqlite3\n"
            "        refused = ''\n"
            "    except ImportError as error:\n"
            "        refused = str(error)\n"
            "    return {'when': datetime.datetime.strptime('2024-01-02', '%Y-%m-%d').isoformat(), 'refused': refused}\n"
        )
        event = result["results"][0]["events"][0]
        self.assertEqual(event["when"], "2024-01-02T00:00:00")
        self.assertIn("No module named 'sqlite3' in the detection sandbox", event["refused"])

    def test_a_parser_changing_the_engine_changes_no_later_run(self):
        content = [detection("Alerts", "def rule(event):\n    return True\n")]
        self.assertTrue(self.run_detections("wrap", content, [{"p_log_type": "T"}])["results"][0])
        result = self.parse(
            "import caracal_engine.engine as engine\n"
            "engine.Engine.run = lambda self, *a, **k: {'results': [[] for _ in a[0]]}\n"
            "def parse(log):\n    return None\n"
        )
        self.assertEqual(result, {"results": [{"events": []}]})
        after = self.run_detections("wrap", content, [{"p_log_type": "T"}])
        self.assertEqual(after["results"], [[{"id": "Alerts", "matched": True, "dedup": "defaultDedupString:Alerts"}]])

    def test_a_module_body_ending_the_process_makes_the_function_unusable(self):
        result = self.parse("import os\nos._exit(4)\ndef parse(log):\n    return {}\n")
        self.assertEqual(result, {"error": "ProcessExit: the parse function's module body ended its process (exit code 4)"})

    def test_a_line_ending_the_process_fails_alone(self):
        result = self.parse("import os\ndef parse(log):\n    if log == 'die':\n        os._exit(5)\n    return {'l': log}\n",
                            ["a", "die", "b"])
        self.assertEqual(result["results"], [
            {"events": [{"l": "a"}]},
            {"error": "ProcessExit: the parse function ended its process (exit code 5)"},
            {"events": [{"l": "b"}]},
        ])


class DetectionAttackTest(SandboxTest):
    EVENTS = [{"p_log_type": "T", "n": n} for n in range(3)]
    GOOD = detection("Good", "def rule(event):\n    return event.get('n') == 1\n")

    def good_results_intact(self, results):
        """Good alerts on event 1 and nowhere else."""
        for index, per_event in enumerate(results):
            good = [r for r in per_event if r["id"] == "Good"]
            self.assertEqual(good, [{"id": "Good", "matched": True, "dedup": "defaultDedupString:Good"}] if index == 1 else [])

    def errors_of(self, results, detection_id):
        return [(index, r["error"]) for index, per_event in enumerate(results) for r in per_event if r["id"] == detection_id]

    def test_reading_the_shadow_file_and_the_mailbox(self):
        body = (
            "def rule(event):\n"
            f"    for path in ('/etc/shadow', {self.mailbox!r}):\n"
            "        try:\n"
            "            open(path).read()\n"
            "            return True\n"
            "        except OSError:\n"
            "            pass\n"
            "    return False\n"
        )
        out = self.run_detections("files", [detection("Reader", body), self.GOOD], self.EVENTS)
        self.assertEqual(self.errors_of(out["results"], "Reader"), [])
        self.assertFalse([r for per_event in out["results"] for r in per_event if r["id"] == "Reader"])
        self.good_results_intact(out["results"])

    def test_forking_and_processes_that_outlive_the_call(self):
        body = (
            "import os, subprocess\n"
            "def rule(event):\n"
            "    if event.get('n') == 0:\n"
            "        subprocess.Popen(['sleep', '30'])\n"
            "    return os.fork() >= 0\n"
        )
        out = self.run_detections("fork", [detection("Forks", body), self.GOOD], self.EVENTS)
        errors = self.errors_of(out["results"], "Forks")
        self.assertEqual([index for index, _ in errors], [0, 1, 2])
        self.assertTrue(all("PermissionError: [Errno 1] Operation not permitted" in error for _, error in errors), errors)
        self.good_results_intact(out["results"])

    def test_the_network(self):
        listener = Listener()
        body = f"import socket\ndef rule(event):\n    socket.create_connection(('127.0.0.1', {listener.port}), timeout=1)\n    return True\n"
        out = self.run_detections("network", [detection("Net", body), self.GOOD], self.EVENTS)
        self.assertFalse(listener.close())
        self.assertTrue(all("Operation not permitted" in e for _, e in self.errors_of(out["results"], "Net")))
        self.good_results_intact(out["results"])

    def test_no_credentials_behind_the_key_value_store_or_in_memory(self):
        body = (
            "import gc, os\n"
            "from caracal_engine import kv\n"
            "def rule(event):\n"
            "    store = kv.store()\n"
            "    found = hasattr(store, 'table') or any(name.startswith('AWS_') for name in os.environ)\n"
            f"    found = found or any(isinstance(o, str) and {SECRET!r} in o for o in gc.get_objects())\n"
            f"    found = found or any(isinstance(o, (bytes, bytearray)) and {SECRET.encode()!r} in o for o in gc.get_objects())\n"
            "    return found\n"
        )
        out = self.run_detections("creds", [detection("Dig", body), self.GOOD], self.EVENTS)
        self.assertFalse([r for per_event in out["results"] for r in per_event if r["id"] == "Dig"])
        self.good_results_intact(out["results"])

    def test_the_key_value_table_is_reached_through_the_host_which_checks_requests(self):
        body = (
            "from panther_detection_helpers.caching import increment_counter\n"
            "def rule(event):\n"
            "    if event.get('n') == 2:\n"
            "        increment_counter('x' * 5000)\n"
            "    return increment_counter('seen') == 2\n"
        )
        out = self.run_detections("kv", [detection("Counts", body), self.GOOD], self.EVENTS)
        results = {index: [r for r in per_event if r["id"] == "Counts"] for index, per_event in enumerate(out["results"])}
        self.assertEqual(results[0], [])
        self.assertEqual(results[1][0]["matched"], True, results)
        self.assertIn("KeyValueError: a key must be text of 1 to 1024 bytes", results[2][0]["error"])
        self.assertEqual(self.store.get("seen")["intCount"], 2)
        self.good_results_intact(out["results"])

    def test_flooding_or_forging_the_channel(self):
        # 20 MiB with no line end, all of it: one os.write may write less (the watchdog's SIGALRM ticks every 50 ms
        # and interrupts a long write), and a flood cut short at a varying size made this test depend on timing.
        flood = detection("Flood", (
            "import os, sys\n"
            "def rule(event):\n"
            "    rest = memoryview(b'x' * (20 * 1024 * 1024))\n"
            "    while rest:\n"
            "        rest = rest[os.write(int(sys.argv[3]), rest):]\n"
            "    return True\n"
        ))
        forge = detection("Forge", (
            "import json, os, sys\n"
            "def rule(event):\n"
            "    lines = [{'done': [7, '']}, {'result': [9, 0, {'matched': True}]}, {'result': [1, 99, {'matched': True}]}]\n"
            "    os.write(int(sys.argv[3]), ''.join(json.dumps(line) + '\\n' for line in lines).encode())\n"
            "    return False\n"
        ))
        out = self.run_detections("flood", [flood, forge, self.GOOD], self.EVENTS)
        # Its one result is the error: nothing it wrote around the flood gets through.
        self.assertEqual([(index, r) for index, per_event in enumerate(out["results"]) for r in per_event if r["id"] == "Flood"],
                         [(0, {"id": "Flood", "matched": False, "error": "ProcessKilled: the detection sent more output than allowed"})])
        self.assertFalse([r for per_event in out["results"] for r in per_event if r["id"] == "Forge"])
        self.good_results_intact(out["results"])

    def test_a_run_cannot_change_the_engine_for_later_runs(self):
        patcher = detection("Patcher", (
            "from caracal_engine.detection import Detection\n"
            "Detection.complete = lambda *a, **k: None\n"
            "def rule(event):\n    return False\n"
        ), logTypes=["P"])
        content = [patcher, self.GOOD]
        self.run_detections("patch", content, [{"p_log_type": "P"}])
        out = self.run_detections("patch", content, self.EVENTS)
        self.good_results_intact(out["results"])

    def test_exiting_crashing_and_eating_memory_fail_alone(self):
        cases = {
            "Exits": ("import os\ndef rule(event):\n    if event.get('n') == 1:\n        os._exit(3)\n    return False\n",
                      (1, "ProcessExit: the detection ended its process (exit code 3)")),
            "Segfaults": ("import ctypes\ndef rule(event):\n    ctypes.string_at(0)\n    return False\n",
                          (0, "ProcessCrash: the detection crashed its process (SIGSEGV)")),
            "Eats": ("def rule(event):\n    hog = bytearray(8 * 1024 ** 3)\n    return bool(hog)\n",
                     (0, "MemoryError")),
            "ExitsOnLoad": ("import os\nos._exit(9)\ndef rule(event):\n    return True\n",
                            (0, "ProcessExit: the detection ended its process (exit code 9)")),
        }
        detections = [detection(name, body) for name, (body, _) in cases.items()]
        out = self.run_detections("crash", detections + [self.GOOD], self.EVENTS)
        for name, (_, (index, error)) in cases.items():
            with self.subTest(detection=name):
                errors = self.errors_of(out["results"], name)
                self.assertEqual(errors[0][0], index)
                self.assertTrue(errors[0][1].startswith(error), errors)
        self.good_results_intact(out["results"])

    def test_a_slow_detection_stops_at_its_share_of_the_time_and_the_rest_still_run(self):
        events = [{"p_log_type": "T", "n": n % 3} for n in range(300)]
        slow = detection("Slow", "import time\ndef rule(event):\n    time.sleep(0.5)\n    return False\n")
        busy = detection("Busy", "def rule(event):\n    while True:\n        pass\n")
        after = detection("After", "def rule(event):\n    return event.get('n') == 2\n")
        deadline = time.monotonic() + 6
        out = self.host.run({"version": "slow", "detections": [slow, busy, after], "timeLimitSeconds": 30}, events, deadline=deadline)
        for name in ("Slow", "Busy"):
            errors = self.errors_of(out["results"], name)
            self.assertEqual(len(errors), 1, errors)
            self.assertEqual(errors[0][1], "DetectionTimeout: the detection ran past its share of the time left")
        self.assertEqual(sum(1 for per_event in out["results"] for r in per_event if r["id"] == "After" and r["matched"]), 100)


class UnitTestAttackTest(SandboxTest):
    def test_each_call_gets_a_fresh_sandbox_and_a_dying_test_fails_alone(self):
        content = {"version": "tests", "detections": [detection("U", (
            "import os\n"
            "STATE = []\n"
            "def rule(event):\n"
            "    if event.get('die'):\n"
            "        os._exit(2)\n"
            "    STATE.append(1)\n"
            "    return len(STATE) == 1\n"
        ))]}
        tests = [{"Name": "first", "ExpectedResult": True, "Log": {}},
                 {"Name": "dies", "ExpectedResult": True, "Log": {"die": True}},
                 {"Name": "after", "ExpectedResult": True, "Log": {}}]
        for _ in range(2):
            verdicts = self.host.test(content, "U", tests)["tests"]
            self.assertEqual([(v["name"], v["passed"]) for v in verdicts], [("first", True), ("dies", False), ("after", True)])
            self.assertEqual(verdicts[1]["error"], "ProcessExit: the test ended its process (exit code 2)")


class LockdownTest(unittest.TestCase):
    def test_without_seccomp_the_sandbox_refuses_to_start(self):
        """A process whose own filter refuses prctl(PR_SET_SECCOMP) cannot lock a sandbox down."""
        prctl = lockdown.SYSCALLS["prctl"][0 if lockdown.MACHINE == "x86_64" else 1]
        script = (
            "import ctypes, struct, sys\n"
            f"sys.path.insert(0, {ENGINE_DIR!r})\n"
            "from caracal_engine import lockdown\n"
            "from caracal_engine.host import Host, SandboxError\n"
            "steps = [(0x20, 0, 0, 0), (0x15, 0, 3, %d), (0x20, 0, 0, 16), (0x15, 0, 1, 22),"
            " (0x06, 0, 0, 0x50001), (0x06, 0, 0, 0x7fff0000)]\n"
            "lockdown.install_filter(b''.join(struct.pack('HBBI', *s) for s in steps))\n"
            "try:\n"
            "    Host().run({'detections': []}, [])\n"
            "    print('ran')\n"
            "except SandboxError as error:\n"
            "    print(error)\n"
        ) % prctl
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
        self.assertIn("the seccomp filter could not be installed", out.stdout)
        self.assertIn("refusing to run user code", out.stdout)

    def test_the_filter_knows_both_lambda_architectures(self):
        for arch in ("x86_64", "aarch64"):
            program = lockdown.build_filter(arch, lockdown.RUNTIME_SYSCALLS)
            self.assertEqual(len(program) % 8, 0)
        with self.assertRaises(lockdown.LockdownError):
            lockdown.build_filter("riscv64", lockdown.RUNTIME_SYSCALLS)


if __name__ == "__main__":
    unittest.main()
