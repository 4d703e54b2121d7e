"""The Lambda entry: content in, results out; content reloads only when its version changes."""

import importlib.util
import os
import tempfile
import unittest
import unittest.mock

from tests.engine import ENGINE_DIR


def load_handler():
    spec = importlib.util.spec_from_file_location("detection_engine_handler", os.path.join(ENGINE_DIR, "handler.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class HandlerTest(unittest.TestCase):
    def test_credentials_leave_the_environment(self):
        saved = {name: os.environ.get(name) for name in ("AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN")}
        os.environ["AWS_SECRET_ACCESS_KEY"] = "secret"
        os.environ["AWS_SESSION_TOKEN"] = "token"
        try:
            handler = load_handler()
            self.assertIn("AWS_SECRET_ACCESS_KEY", handler.CREDENTIAL_VARIABLES)
            self.assertNotIn("AWS_SECRET_ACCESS_KEY", os.environ)
            self.assertNotIn("AWS_SESSION_TOKEN", os.environ)
        finally:
            for name, value in saved.items():
                if value is not None:
                    os.environ[name] = value

    def test_content_without_files(self):
        handler = load_handler()
        content = {
            "version": "bodies",
            "globals": [{"id": "body_helpers", "body": "def shout(text):\n    return text.upper()\n"}],
            "dataModels": [{"id": "M", "logTypes": ["T"], "mappings": [{"Name": "who", "Method": "who"}],
                            "body": "def who(event):\n    return event.get('user')\n"}],
            "detections": [{"id": "B", "analysisType": "rule", "severity": "Low", "logTypes": ["T"],
                            "body": "from body_helpers import shout\ndef rule(event):\n    return True\ndef title(event):\n    return shout(event.udm('who'))\n"}],
        }
        out = handler.handler({"content": content, "events": [{"p_log_type": "T", "user": "amy"}]})
        self.assertEqual(out["load"]["errors"], [])
        self.assertEqual(out["results"][0][0]["title"], "AMY")

    def test_runs_events_and_caches_content_by_version(self):
        handler = load_handler()
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
        handler = load_handler()
        content = {"version": "tests", "detections": [{"id": "U", "analysisType": "rule", "severity": "Low", "logTypes": ["T"],
                                                      "body": "def rule(event):\n    return event.get('x') == 1\n"}]}
        tests = [{"Name": "hit", "ExpectedResult": True, "Log": {"x": 1}}, {"Name": "miss", "ExpectedResult": True, "Log": {"x": 2}}]
        out = handler.handler({"content": content, "test": {"detectionId": "U", "tests": tests}})
        self.assertEqual([(t["name"], t["passed"]) for t in out["tests"]], [("hit", True), ("miss", False)])

    def test_without_boto3_the_state_stays_in_the_process(self):
        saved = os.environ.get("CARACAL_KV_TABLE")
        os.environ["CARACAL_KV_TABLE"] = "kv"
        try:
            with unittest.mock.patch.dict("sys.modules", {"boto3": None}):
                handler = load_handler()
            self.assertIsInstance(handler.kv.store(), handler.kv.MemoryStore)
        finally:
            if saved is None:
                os.environ.pop("CARACAL_KV_TABLE", None)
            else:
                os.environ["CARACAL_KV_TABLE"] = saved


if __name__ == "__main__":
    unittest.main()
