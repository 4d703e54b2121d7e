"""Inline filters: the rule runs only on events matching every InlineFilters expression, for Python rules and
simple detections, in batch runs and unit tests; and the match-expression parity fixture the TypeScript
evaluator (core/detections/simple/evaluate.ts) answers alike."""

import json
import os
import unittest

from caracal_engine.engine import Engine
from caracal_engine.match import compile_expressions

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "match-parity.json")

FILTERS = [{"KeyPath": "user.name", "Condition": "DoesNotEqual", "Value": "svc-deploy"},
           {"Key": "sourceIP", "Condition": "IsIPAddressNotInCIDR", "Value": "10.0.0.0/8"}]


def events():
    return [
        {"p_log_type": "Test.Log", "user": {"name": "alice"}, "sourceIP": "203.0.113.5"},
        {"p_log_type": "Test.Log", "user": {"name": "svc-deploy"}, "sourceIP": "203.0.113.5"},
        {"p_log_type": "Test.Log", "user": {"name": "bob"}, "sourceIP": "10.2.3.4"},
    ]


def engine(**extra):
    content = {"detections": [
        {"id": "Python.Rule", "analysisType": "rule", "severity": "High", "logTypes": ["Test.Log"],
         "body": "def rule(event):\n    return True\n", **extra},
        {"id": "Simple.Rule", "analysisType": "rule", "severity": "High", "logTypes": ["Test.Log"],
         "detection": [{"Key": "user", "Condition": "IsNotNullOrEmpty"}], **extra},
    ]}
    prepared = Engine()
    report = prepared.load(content)
    assert not report["errors"], report
    return prepared


def alerted(run):
    return [sorted(r["id"] for r in results if r.get("matched")) for results in run["results"]]


class InlineFiltersTest(unittest.TestCase):
    def test_without_filters_every_event_alerts(self):
        self.assertEqual(alerted(engine().run(events())), [["Python.Rule", "Simple.Rule"]] * 3)

    def test_filters_drop_events_before_the_rule_runs(self):
        run = engine(inlineFilters=FILTERS).run(events())
        self.assertEqual(alerted(run), [["Python.Rule", "Simple.Rule"], [], []])

    def test_a_filtered_event_does_not_reach_the_rule_code(self):
        prepared = Engine()
        prepared.load({"detections": [{
            "id": "Raises", "analysisType": "rule", "severity": "High", "logTypes": ["Test.Log"],
            "inlineFilters": [{"Key": "user", "Condition": "Exists"}],
            "body": "def rule(event):\n    raise RuntimeError('rule ran')\n"}]})
        run = prepared.run([{"p_log_type": "Test.Log", "other": 1}])
        self.assertEqual(run["results"], [[]])

    def test_unit_tests_see_the_filters(self):
        prepared = engine(inlineFilters=FILTERS)
        verdicts = prepared.test("Python.Rule", [
            {"Name": "Alert Test - 2026-11-24T05:00:00.000Z", "ExpectedResult": False, "Log": events()[1]},
            {"Name": "kept", "ExpectedResult": True, "Log": events()[0]},
        ])
        self.assertEqual([v["passed"] for v in verdicts], [True, True])

    def test_a_broken_filter_is_a_load_error(self):
        prepared = Engine()
        report = prepared.load({"detections": [{
            "id": "Broken", "analysisType": "rule", "severity": "High", "logTypes": ["Test.Log"],
            "inlineFilters": [{"Key": "a", "Condition": "Nope"}], "body": "def rule(event):\n    return True\n"}]})
        run = prepared.run([{"p_log_type": "Test.Log", "a": 1}])
        self.assertEqual(report["errors"], [{"id": "Broken", "error": "MatchExpressionError: unknown Condition [Nope]"}])
        self.assertEqual(run["results"], [[{"id": "Broken", "matched": False,
                                            "error": "MatchExpressionError: unknown Condition [Nope]"}]])


class ParityFixtureTest(unittest.TestCase):
    def test_every_case_answers_as_the_fixture_says(self):
        with open(FIXTURE, encoding="utf-8") as handle:
            cases = json.load(handle)["cases"]
        for index, case in enumerate(cases):
            with self.subTest(index=index, expressions=case["expressions"]):
                self.assertIs(compile_expressions(case["expressions"])(case["event"]), case["expected"])


if __name__ == "__main__":
    unittest.main()
