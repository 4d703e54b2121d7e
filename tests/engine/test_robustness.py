"""A detection that raises, returns the wrong type, prints, imports something missing, exits or
loops forever gives an error result for itself; every other detection still runs. Also the worker
protocol, which detection output must never corrupt, and the key-value requests its sandbox sends."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from caracal_engine import kv
from caracal_engine.engine import Engine
from caracal_engine.guard import DetectionTimeout, Watchdog
from caracal_engine.host import Host, with_sources
from tests.engine import ENGINE_DIR

SOURCES = {
    "Good": "def rule(event):\n    return event.get('user') == 'zed'\ndef title(event):\n    return 'good ' + event.get('user')\n",
    "Raises": "def rule(event):\n    return event['missing']\n",
    "WrongType": "def rule(event):\n    return 'yes'\n",
    "Prints": "import os\ndef rule(event):\n    print('noise')\n    os.write(1, b'not json\\n')\n    return True\n",
    "ReadsStdin": "import sys\ndef rule(event):\n    return sys.stdin.read() == ''\n",
    "MissingImport": "import definitely_not_installed\ndef rule(event):\n    return True\n",
    "Exits": "import sys\ndef rule(event):\n    sys.exit(1)\n",
    "Loops": "def rule(event):\n    while True:\n        try:\n            pass\n        except Exception:\n            pass\n",
    "LoopsOnImport": "while True:\n    pass\n",
    "Recursion": "def rule(event):\n    return rule(event)\n",
}


@contextlib.contextmanager
def raw_stdout_discarded():
    """In-process, a detection's os.write(1, ...) reaches the real stdout; keep test output clean."""
    saved, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    try:
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)


def write_content(directory: str, time_limit: float = 1.0, worker: bool = False) -> dict:
    """Content with every source; in-process runs leave out the one reading the real stdin."""
    detections = []
    for name, source in SOURCES.items():
        if name == "ReadsStdin" and not worker:
            continue
        path = os.path.join(directory, f"{name}.py")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(source)
        detections.append({"id": name, "analysisType": "rule", "severity": "Low", "logTypes": ["T"], "path": path})
    return with_sources({"detections": detections, "timeLimitSeconds": time_limit})


class EngineRobustnessTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.engine = Engine()
        cls.load = cls.engine.load(write_content(cls.tmp.name))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_load_errors_are_per_detection(self):
        errors = {e["id"]: e["error"] for e in self.load["errors"]}
        self.assertEqual(set(errors), {"MissingImport", "LoopsOnImport"})
        self.assertIn("ModuleNotFoundError", errors["MissingImport"])
        self.assertIn("time limit", errors["LoopsOnImport"])
        self.assertEqual(self.load["loaded"], len(SOURCES) - 1)

    def test_every_other_detection_still_runs(self):
        with raw_stdout_discarded():
            out = self.engine.run([{"p_log_type": "T", "user": "zed"}, {"p_log_type": "T", "user": "amy"}])
        first = {r["id"]: r for r in out["results"][0]}
        self.assertEqual(first["Good"], {"id": "Good", "matched": True, "title": "good zed", "dedup": "good zed"})
        self.assertTrue(first["Prints"]["matched"])
        for name, fragment in [
            ("Raises", "KeyError"),
            ("WrongType", "returned [str], expected [bool]"),
            ("MissingImport", "ModuleNotFoundError"),
            ("Exits", "SystemExit"),
            ("Loops", "time limit"),
            ("LoopsOnImport", "time limit"),
            ("Recursion", "RecursionError"),
        ]:
            with self.subTest(detection=name):
                self.assertFalse(first[name]["matched"])
                self.assertIn(fragment, first[name]["error"])
        self.assertNotIn("Good", {r["id"] for r in out["results"][1]})
        self.assertIn("noise", out["stdout"])

    def test_unit_tests_of_a_looping_detection_fail_with_the_time_limit(self):
        results = self.engine.test("Loops", [{"Name": "loop", "ExpectedResult": True, "Log": {}}])
        self.assertFalse(results[0]["passed"])
        self.assertIn("time limit", results[0]["error"])

    def test_non_object_events_are_reported(self):
        out = self.engine.run(["not an object"])
        self.assertIn("JSON object", out["results"][0][0]["error"])


class WatchdogTest(unittest.TestCase):
    def test_nested_arming_keeps_the_limit_until_the_outermost_ends(self):
        watchdog = Watchdog(0.2)
        with watchdog:
            with watchdog:
                pass
            with self.assertRaises(DetectionTimeout):
                watchdog.call(lambda _: time.sleep(5), None)
        self.assertIs(signal.getsignal(signal.SIGALRM), signal.SIG_DFL)


class WorkerProtocolTest(unittest.TestCase):
    def start(self, *args):
        worker = subprocess.Popen(  # pylint: disable=consider-using-with - closed by the cleanups below
            [sys.executable, os.path.join(ENGINE_DIR, "worker.py"), *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        self.addCleanup(worker.wait)
        self.addCleanup(worker.stderr.close)
        self.addCleanup(worker.stdout.close)
        self.addCleanup(worker.stdin.close)
        return worker

    @staticmethod
    def send(worker, message):
        worker.stdin.write(json.dumps(message) + "\n")
        worker.stdin.flush()
        return json.loads(worker.stdout.readline())

    def test_printing_detections_cannot_corrupt_the_channel(self):
        with tempfile.TemporaryDirectory() as directory:
            worker = self.start()
            loaded = self.send(worker, {"id": 1, "op": "load", "content": write_content(directory, worker=True)})
            self.assertTrue(loaded["ok"])
            ran = self.send(worker, {"id": 2, "op": "run", "events": [{"p_log_type": "T", "user": "zed"}]})
            self.assertEqual(ran["id"], 2)
            matched = {r["id"] for r in ran["result"]["results"][0] if r["matched"]}
            self.assertEqual(matched, {"Good", "Prints", "ReadsStdin"})
            bad = self.send(worker, {"id": 3, "op": "nope"})
            self.assertFalse(bad["ok"])
            self.assertEqual(self.send(worker, {"id": 4, "op": "ping"})["result"], "pong")

    def test_many_detections_in_one_request_share_one_child_and_fail_alone(self):
        # testMany: one round trip and one sandbox child for all the detections, one after another (as a live
        # run's): a module's state set by one detection's test is seen by the next (as in panther_analysis_tool),
        # a dying child fails only the test it was on, malformed entries fail alone.
        helper = "STATE = {}\n"
        sets = "import shared\ndef rule(event):\n    shared.STATE['seen'] = True\n    return True\n"
        reads = "import shared\ndef rule(event):\n    return 'seen' in shared.STATE\n"
        exits = "import os\ndef rule(event):\n    os._exit(3)\n"
        rule = {"analysisType": "rule", "severity": "Low", "logTypes": ["T"]}
        content = {"globals": [{"id": "shared", "body": helper}],
                   "detections": [{**rule, "id": "Sets", "body": sets}, {**rule, "id": "Reads", "body": reads},
                                  {**rule, "id": "Exits", "body": exits}]}
        test = {"Name": "t", "ExpectedResult": True, "Log": {"p_log_type": "T"}}
        worker = self.start()
        self.assertTrue(self.send(worker, {"id": 1, "op": "load", "content": content})["ok"])
        false = {"Name": "f", "ExpectedResult": False, "Log": {"p_log_type": "T"}}
        answer = self.send(worker, {"id": 2, "op": "testMany", "detections": [
            {"detectionId": "Sets", "tests": [test, test]}, {"detectionId": "Reads", "tests": [test]},
            {"detectionId": "Exits", "tests": [test]}, {"detectionId": "Reads", "tests": [false]},
            {"detectionId": "Missing", "tests": [test]}, "bad", {"detectionId": "Reads", "tests": "not a list"}]})
        sets_verdicts, reads_verdicts, exits_verdicts, fresh, missing, bad, not_a_list = answer["result"]["detections"]
        self.assertEqual(answer["result"]["loadErrors"], [])
        self.assertEqual([v["passed"] for v in sets_verdicts], [True, True])
        self.assertEqual([v["passed"] for v in reads_verdicts], [True])
        self.assertEqual(exits_verdicts, [{"name": "t", "passed": False,
                                           "error": "ProcessExit: the test ended its process (exit code 3)"}])
        # The child after a crash is forked afresh from the sandbox: the state of the one that died is gone.
        self.assertEqual([v["passed"] for v in fresh], [True])
        self.assertEqual(missing, [{"name": "t", "passed": False, "error": "unknown detection Missing"}])
        self.assertIn("detectionId", bad["error"])
        self.assertIn("list", not_a_list["error"])

    def test_key_value_requests_go_to_the_host(self):
        class Recording(kv.MemoryStore):
            def __init__(self):
                super().__init__()
                self.ops = []

            def increment(self, key, amount):
                self.ops.append("increment")
                return super().increment(key, amount)

            def set_expiry(self, key, epoch_seconds):
                self.ops.append("setExpiry")
                super().set_expiry(key, epoch_seconds)

        store = Recording()
        host = Host(store)
        self.addCleanup(host.close)
        body = ("from panther_detection_helpers.caching import increment_counter\n"
                "def rule(event):\n    return increment_counter('k', epoch_seconds=60) >= 2\n")
        content = {"detections": [{"id": "Count", "analysisType": "rule", "severity": "Low", "logTypes": ["T"], "body": body}]}
        out = host.run(content, [{"p_log_type": "T"}, {"p_log_type": "T"}])
        self.assertEqual([bool(r) for r in out["results"]], [False, True])
        self.assertEqual(store.ops, ["increment", "setExpiry", "increment", "setExpiry"])
        self.assertEqual(store.get("k")["intCount"], 2)


if __name__ == "__main__":
    unittest.main()
