"""The Lambda entry: content in, results out; content is compiled once per version; user code runs in
sandboxes that get nothing of the function's environment, and one bad detection costs only itself."""

import importlib.util
import os
import tempfile
import time
import unittest
import unittest.mock

from tests.engine import ENGINE_DIR


def load_handler(test: unittest.TestCase):
    spec = importlib.util.spec_from_file_location("detection_engine_handler", os.path.join(ENGINE_DIR, "handler.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    test.addCleanup(module.HOST.close)
    return module


class Context:
    """What the Lambda runtime passes: the time left."""

    def __init__(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds

    def get_remaining_time_in_millis(self) -> int:
        return int((self.deadline - time.monotonic()) * 1000)


def rule(detection_id: str, body: str) -> dict:
    return {"id": detection_id, "analysisType": "rule", "severity": "Low", "logTypes": ["T"], "body": body}


class HandlerTest(unittest.TestCase):
    def test_user_code_sees_none_of_the_functions_environment(self):
        with unittest.mock.patch.dict(os.environ, {"AWS_SECRET_ACCESS_KEY": "secret-7a1b", "AWS_SESSION_TOKEN": "token-7a1b", "AWS_REGION": "eu-west-1"}):
            handler = load_handler(self)
            parsed = handler.handler({"parse": {"function": "import os\ndef parse(log):\n    return dict(os.environ)\n", "logs": ["x"]}})
            content = {"version": "env", "detections": [rule("Env", "import os\ndef rule(event):\n    return 'AWS_SESSION_TOKEN' in os.environ\n")]}
            ran = handler.handler({"content": content, "events": [{"p_log_type": "T"}]})
            self.assertEqual(os.environ["AWS_SECRET_ACCESS_KEY"], "secret-7a1b")
        environment = parsed["results"][0]["events"][0]
        self.assertFalse([name for name in environment if name.startswith("AWS_")], environment)
        self.assertEqual(ran["results"], [[]])

    def test_content_without_files(self):
        handler = load_handler(self)
        content = {
            "version": "bodies",
            "globals": [{"id": "body_helpers", "body": "def shout(text):\n    return text.upper()\n"}],
            "dataModels": [{"id": "M", "logTypes": ["T"], "mappings": [{"Name": "who", "Method": "who"}],
                            "body": "def who(event):\n    return event.get('user')\n"}],
            "detections": [rule("B", "from body_helpers import shout\ndef rule(event):\n    return True\ndef title(event):\n    return shout(event.udm('who'))\n")],
        }
        out = handler.handler({"content": content, "events": [{"p_log_type": "T", "user": "amy"}]})
        self.assertEqual(out["load"]["errors"], [])
        self.assertEqual(out["results"][0][0]["title"], "AMY")

    def test_runs_events_and_compiles_content_once_per_version(self):
        handler = load_handler(self)
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "r.py")
            with open(path, "w", encoding="utf-8") as out:
                out.write("def rule(event):\n    return event.get('x') == 1\n")
            content = {"version": "v1", "detections": [{"id": "R", "analysisType": "rule", "severity": "Low", "logTypes": ["T"], "path": path}]}
            first = handler.handler({"content": content, "events": [{"p_log_type": "T", "x": 1}, {"p_log_type": "T", "x": 2}]})
            self.assertEqual(first["results"], [[{"id": "R", "matched": True, "dedup": "defaultDedupString:R"}], []])
            self.assertEqual(first["load"], {"loaded": 1, "errors": []})
            with open(path, "w", encoding="utf-8") as out:
                out.write("def rule(event):\n    return False\n")
            same_version = handler.handler({"content": content, "events": [{"p_log_type": "T", "x": 1}]})
            self.assertTrue(same_version["results"][0][0]["matched"])
            new_version = handler.handler({"content": {**content, "version": "v2"}, "events": [{"p_log_type": "T", "x": 1}]})
            self.assertEqual(new_version["results"], [[]])

    def test_runs_unit_tests(self):
        handler = load_handler(self)
        content = {"version": "tests", "detections": [rule("U", "def rule(event):\n    return event.get('x') == 1\n")]}
        tests = [{"Name": "hit", "ExpectedResult": True, "Log": {"x": 1}}, {"Name": "miss", "ExpectedResult": True, "Log": {"x": 2}}]
        out = handler.handler({"content": content, "test": {"detectionId": "U", "tests": tests}})
        self.assertEqual([(t["name"], t["passed"]) for t in out["tests"]], [("hit", True), ("miss", False)])

    def test_unit_tests_share_the_warm_sandbox_but_no_state(self):
        # Run All calls the handler once per detection: the calls share one sandbox process (no start per
        # call), yet each call's tests run in a child of their own that holds only the content they came with
        # (one compiled content, an Engine, where the sandbox's zygote keeps one per version).
        handler = load_handler(self)
        helper = {"id": "shared_state", "body": "SEEN = []\n"}
        writer = {"version": "draft-1", "globals": [helper], "detections": [rule("Writer", (
            "import builtins\nimport shared_state\n"
            "def rule(event):\n    shared_state.SEEN.append(1)\n    builtins.LEAK = 'draft-1 secret'\n    return True\n"))]}
        reader = {"version": "draft-2", "globals": [helper], "detections": [rule("Reader", (
            "import builtins\nimport gc\nimport shared_state\n"
            "def rule(event):\n"
            "    other = sum(1 for o in gc.get_objects() if type(o).__name__ == 'Engine') != 1\n"
            "    return not shared_state.SEEN and not hasattr(builtins, 'LEAK') and not other\n"))]}
        test = [{"Name": "t", "ExpectedResult": True, "Log": {"x": 1}}]
        first = handler.handler({"content": writer, "test": {"detectionId": "Writer", "tests": test}})
        sandbox = handler.HOST.warm.process.pid
        second = handler.handler({"content": reader, "test": {"detectionId": "Reader", "tests": test}})
        self.assertEqual([t["passed"] for t in first["tests"] + second["tests"]], [True, True], second)
        self.assertEqual(handler.HOST.warm.process.pid, sandbox)
        again = handler.handler({"content": writer, "test": {"detectionId": "Writer", "tests": test * 2}})
        self.assertEqual([t["passed"] for t in again["tests"]], [True, True])

    def test_a_detection_ending_the_process_or_sleeping_costs_only_itself(self):
        handler = load_handler(self)
        content = {"version": "bad", "timeLimitSeconds": 30, "detections": [
            rule("Exits", "import os\ndef rule(event):\n    os._exit(3)\n"),
            rule("Sleeps", "import time\ndef rule(event):\n    time.sleep(0.5)\n    return False\n"),
            rule("Alerts", "def rule(event):\n    return True\n"),
        ]}
        events = [{"p_log_type": "T", "n": n} for n in range(300)]
        out = handler.handler({"content": content, "events": events}, Context(4))
        errors = [(i, r["id"], r["error"].split(":")[0]) for i, per_event in enumerate(out["results"]) for r in per_event if "error" in r]
        self.assertEqual([(i, detection_id) for i, detection_id, _ in errors][:1], [(0, "Exits")])
        self.assertEqual([kind for _, _, kind in errors], ["ProcessExit", "DetectionTimeout"])
        self.assertTrue(all(any(r["id"] == "Alerts" and r["matched"] for r in per_event) for per_event in out["results"]))

    def test_save_time_checks(self):
        handler = load_handler(self)
        out = handler.handler({"check": {"items": [
            {"id": "Bad", "kind": "detection", "analysisType": "rule", "body": "def rule(event)\n    return True\n"},
            {"id": "Good", "kind": "detection", "analysisType": "rule", "body": "def rule(event):\n    return True\n"},
        ]}})
        self.assertEqual(out, {"results": [
            {"id": "Bad", "errors": [{"message": "SyntaxError: expected ':'", "line": 1}]},
            {"id": "Good", "errors": []},
        ]})

    def test_without_boto3_the_state_stays_in_the_host(self):
        with unittest.mock.patch.dict(os.environ, {"CARACAL_KV_TABLE": "kv"}):
            with unittest.mock.patch.dict("sys.modules", {"boto3": None}):
                handler = load_handler(self)
        self.assertIsInstance(handler.HOST.key_value.store, handler.kv.MemoryStore)


if __name__ == "__main__":
    unittest.main()
