"""The script parser of custom schemas: `def parse(log):` over a batch of raw lines."""

import importlib.util
import json
import os
import subprocess
import sys
import unittest

from tests.engine import ENGINE_DIR

sys.path.insert(0, ENGINE_DIR)

from caracal_engine.script_parser import SIGNATURE_MESSAGE, ScriptParsers  # noqa: E402 - needs the path above


def run(source, logs, **kwargs):
    return ScriptParsers(**kwargs).parse(source, logs)


class ScriptParserTest(unittest.TestCase):
    def test_a_dict_is_one_event(self):
        source = "def parse(log):\n    user, action = log.split(' ', 1)\n    return {'user': user, 'action': action}\n"
        self.assertEqual(run(source, ["alice login", "bob logout"]), {
            "results": [{"events": [{"user": "alice", "action": "login"}]}, {"events": [{"user": "bob", "action": "logout"}]}],
        })

    def test_a_list_of_dicts_is_several_events(self):
        source = "def parse(log):\n    return [{'part': p} for p in log.split(',')]\n"
        self.assertEqual(run(source, ["a,b"]), {"results": [{"events": [{"part": "a"}, {"part": "b"}]}]})

    def test_none_drops_the_line(self):
        source = "def parse(log):\n    if log.startswith('#'):\n        return None\n    return {'line': log}\n"
        self.assertEqual(run(source, ["# header", "x"]), {"results": [{"events": []}, {"events": [{"line": "x"}]}]})

    def test_raising_fails_that_line_only(self):
        source = "import json\n\ndef parse(log):\n    return json.loads(log)\n"
        result = run(source, ['{"a": 1}', "not json", '{"b": 2}'])["results"]
        self.assertEqual(result[0], {"events": [{"a": 1}]})
        self.assertTrue(result[1]["error"].startswith("JSONDecodeError: Expecting value"), result[1])
        self.assertEqual(result[2], {"events": [{"b": 2}]})

    def test_wrong_return_values(self):
        self.assertEqual(run("def parse(log):\n    return log\n", ["x"])["results"][0],
                         {"error": "parse must return a dict, a list of dicts or None, not str"})
        self.assertEqual(run("def parse(log):\n    return [1]\n", ["x"])["results"][0],
                         {"error": "parse must return a dict, a list of dicts or None; the list holds a int"})
        self.assertIn("not JSON", run("def parse(log):\n    return {'a': object()}\n", ["x"])["results"][0]["error"])
        self.assertIn("not JSON", run("def parse(log):\n    return {'a': float('nan')}\n", ["x"])["results"][0]["error"])

    def test_the_signature_is_checked(self):
        for source in ["def parse(line):\n    return {}\n", "def handle(log):\n    return {}\n", "parse = 1\n",
                       "def parse(log, other):\n    return {}\n", "def parse():\n    return {}\n", "", None, 42]:
            self.assertEqual(run(source, ["x"]), {"error": SIGNATURE_MESSAGE}, source)

    def test_syntax_errors_and_failing_module_bodies(self):
        self.assertEqual(run("def parse(log)\n    return {}\n", ["x"]), {"error": "SyntaxError: expected ':' (line 1)"})
        self.assertEqual(run("raise RuntimeError('boom')\ndef parse(log):\n    return {}\n", ["x"]), {"error": "RuntimeError: boom"})

    def test_a_call_past_the_time_limit_fails_and_the_batch_goes_on(self):
        source = "def parse(log):\n    if log == 'spin':\n        while True:\n            pass\n    return {'line': log}\n"
        result = run(source, ["spin", "ok"], time_limit_seconds=0.2)["results"]
        self.assertEqual(result[0], {"error": "parse exceeded its time limit of 0.2s"})
        self.assertEqual(result[1], {"events": [{"line": "ok"}]})

    def test_swallowing_the_timeout_does_not_help(self):
        source = "def parse(log):\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass\n    while True:\n        pass\n"
        self.assertEqual(run(source, ["x"], time_limit_seconds=0.2)["results"][0], {"error": "parse exceeded its time limit of 0.2s"})

    def test_huge_output_of_one_line_fails_that_line(self):
        source = "def parse(log):\n    return {'big': 'x' * (2 * 1024 * 1024)}\n"
        self.assertIn("more than the limit", run(source, ["x"])["results"][0]["error"])
        source = "def parse(log):\n    return [{}] * 20000\n"
        self.assertIn("more than the limit of 10000", run(source, ["x"])["results"][0]["error"])

    def test_a_batch_past_its_output_budget_defers_the_rest(self):
        source = "def parse(log):\n    return {'big': 'x' * (900 * 1024)}\n"
        results = run(source, ["a"] * 8)["results"]
        self.assertEqual(len(results), 8)
        parsed = [r for r in results if "events" in r]
        self.assertTrue(4 <= len(parsed) < 8, len(parsed))
        self.assertTrue(all(r == {"deferred": True} for r in results[len(parsed):]))

    def test_a_batch_past_its_time_budget_defers_the_rest(self):
        source = "def parse(log):\n    while True:\n        pass\n"
        results = run(source, ["a", "b", "c", "d"], time_limit_seconds=0.1, batch_seconds=0.15)["results"]
        self.assertEqual(results[0], {"error": "parse exceeded its time limit of 0.1s"})
        self.assertIn({"deferred": True}, results)
        self.assertEqual(len(results), 4)

    def test_printing_and_bad_input(self):
        self.assertEqual(run("def parse(log):\n    print('noise')\n    return {'a': 1}\n", ["x"]), {"results": [{"events": [{"a": 1}]}]})
        self.assertEqual(run("def parse(log):\n    return {}\n", "x"), {"error": "logs must be a list of strings"})
        self.assertEqual(run("def parse(log):\n    return {}\n", [1])["results"][0], {"error": "a log must be text"})


class ParseThroughTheWorkerAndLambdaTest(unittest.TestCase):
    def test_worker_parse_op(self):
        worker = os.path.join(ENGINE_DIR, "worker.py")
        requests = [
            {"id": 1, "op": "parse", "function": "def parse(log):\n    return {'n': int(log)}\n", "logs": ["1", "x"]},
            {"id": 2, "op": "ping"},
        ]
        out = subprocess.run([sys.executable, worker], input="\n".join(json.dumps(r) for r in requests) + "\n",
                             capture_output=True, text=True, timeout=60, check=True)
        replies = [json.loads(line) for line in out.stdout.splitlines()]
        self.assertEqual(replies[0]["result"]["results"][0], {"events": [{"n": 1}]})
        self.assertTrue(replies[0]["result"]["results"][1]["error"].startswith("ValueError"))
        self.assertEqual(replies[1], {"id": 2, "ok": True, "result": "pong"})

    def test_lambda_parse_event(self):
        spec = importlib.util.spec_from_file_location("detection_engine_handler_parse", os.path.join(ENGINE_DIR, "handler.py"))
        handler = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(handler)
        self.addCleanup(handler.HOST.close)
        result = handler.handler({"parse": {"function": "def parse(log):\n    return {'line': log}\n", "logs": ["a"]}})
        self.assertEqual(result, {"results": [{"events": [{"line": "a"}]}]})
        self.assertEqual(handler.handler({"parse": {"function": "def nope(log): pass", "logs": ["a"]}}), {"error": SIGNATURE_MESSAGE})


if __name__ == "__main__":
    unittest.main()
