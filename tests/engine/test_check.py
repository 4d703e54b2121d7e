"""Save-time checks: Python is compiled and read, never run; syntax errors come with their line."""

import unittest

from caracal_engine.check import check_items


def problems(body, kind="detection", analysis_type="rule", **extra):
    item = {"id": "X", "kind": kind, "analysisType": analysis_type, "body": body, **extra}
    return check_items([item])["results"][0]["errors"]


class CheckTest(unittest.TestCase):
    def test_syntax_errors_with_their_line(self):
        self.assertEqual(problems("import os\n\ndef rule(event)\n    return True\n"), [{"message": "SyntaxError: expected ':'", "line": 3}])
        self.assertEqual(problems("def rule(event):\nreturn True\n"),
                         [{"message": "IndentationError: expected an indented block after function definition on line 1", "line": 2}])
        self.assertIn("cannot contain null bytes", problems("x = '\0'\n")[0]["message"])
        self.assertEqual(problems("return 1\n", kind="global"), [{"message": "SyntaxError: 'return' outside function", "line": 1}])

    def test_nothing_runs(self):
        self.assertEqual(problems("raise SystemExit(1)\nimport os\nos._exit(1)\ndef rule(event):\n    return True\n"), [])

    def test_matchers(self):
        self.assertEqual(problems("def title(event):\n    return 'x'\n"),
                         [{"message": "the detection needs a top-level function `def rule(event):`"}])
        self.assertEqual(problems("def helper():\n    def rule(event):\n        return True\n"),
                         [{"message": "the detection needs a top-level function `def rule(event):`"}])
        self.assertEqual(problems("X = 1\n", analysis_type="scheduled_rule"),
                         [{"message": "the detection needs a top-level function `def rule(event):`"}])
        self.assertEqual(problems("def rule(event):\n    return True\n", analysis_type="policy"),
                         [{"message": "the detection needs a top-level function `def policy(resource):`"}])
        self.assertEqual(problems("def rule(a, b):\n    return True\n"),
                         [{"message": "`rule` must take one argument, `def rule(event):`", "line": 1}])
        for body in ("def rule(event, extra=None):\n    return True\n", "def rule(*args):\n    return True\n",
                     "from helpers import rule\n", "rule = lambda event: True\n"):
            self.assertEqual(problems(body), [], body)
        self.assertEqual(problems("def policy(resource):\n    return True\n", analysis_type="policy"), [])

    def test_data_models_define_the_methods_their_mappings_name(self):
        body = "def get_user(event):\n    return event.get('user')\n"
        self.assertEqual(problems(body, kind="dataModel", analysis_type="datamodel", methods=["get_user"]), [])
        self.assertEqual(problems(body, kind="dataModel", analysis_type="datamodel", methods=["get_user", "get_ip"]),
                         [{"message": "the data model's mappings name the method `get_ip`, which it does not define"}])

    def test_bad_input(self):
        self.assertEqual(problems(None), [{"message": "the Python source is missing"}])
        with self.assertRaises(ValueError):
            check_items("nope")


if __name__ == "__main__":
    unittest.main()
