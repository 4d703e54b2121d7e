"""Detection semantics: return types, auxiliary fallbacks and caps, severity DEFAULT, and the
reference tool's pass/fail rule for unit tests."""

import unittest
from types import ModuleType

from caracal_engine.detection import (
    MAX_ALERT_CONTEXT_SIZE,
    MAX_DEDUP_STRING_SIZE,
    MAX_GENERATED_FIELD_SIZE,
    TRUNCATED_STRING_SUFFIX,
    Detection,
    DetectionResult,
)
from caracal_engine.event import PantherEvent
from caracal_engine.testing import passed, run_test


def module(source: str) -> ModuleType:
    mod = ModuleType("detection_under_test")
    exec(compile(source, "<detection>", "exec"), mod.__dict__)  # pylint: disable=exec-used
    return mod


def detection(source: str, **spec) -> Detection:
    return Detection({"id": "Test.Rule", "analysisType": "rule", "severity": "Medium", **spec}, module(source))


EVENT = PantherEvent({"user": "alice", "p_log_type": "Test.Log"})


class MatcherTest(unittest.TestCase):
    def test_rule_must_return_exactly_a_bool(self):
        for body, error in [("return True", None), ("return 1", "returned [int], expected [bool]"), ("return None", "NoneType")]:
            result = detection(f"def rule(event):\n    {body}\n").run(EVENT)
            if error is None:
                self.assertTrue(result.trigger_alert)
                self.assertIsNone(result.detection_exception)
            else:
                self.assertFalse(result.trigger_alert)
                self.assertIn(error, str(result.detection_exception))

    def test_policy_alerts_on_false(self):
        policy = Detection({"id": "P", "analysisType": "policy", "severity": "High"}, module("def policy(resource):\n    return resource['ok']\n"))
        self.assertTrue(policy.run({"ok": False}).trigger_alert)
        self.assertFalse(policy.run({"ok": True}).trigger_alert)

    def test_missing_rule_function_is_a_setup_error(self):
        result = detection("def title(event):\n    return 'x'\n").run(EVENT)
        self.assertIn("needs to have a method named 'rule'", str(result.setup_exception))

    def test_scheduled_rule_without_rule_function_passes_events_through(self):
        scheduled = Detection({"id": "S", "analysisType": "scheduled_rule", "severity": "Low"}, module("X = 1\n"))
        self.assertTrue(scheduled.run(EVENT).trigger_alert)

    def test_batch_mode_skips_auxiliary_functions_without_an_alert(self):
        rule = detection("def rule(event):\n    return False\ndef title(event):\n    raise ValueError('never')\n")
        self.assertEqual(rule.run(EVENT, batch_mode=True).outputs, {})
        self.assertIn("title", rule.run(EVENT, batch_mode=False).exceptions)


class AuxiliaryFunctionTest(unittest.TestCase):
    def run_rule(self, source: str, batch_mode: bool = False, **spec) -> DetectionResult:
        return detection("def rule(event):\n    return True\n" + source, **spec).run(EVENT, batch_mode=batch_mode)

    def test_dedup_falls_back_to_title_then_default(self):
        self.assertEqual(self.run_rule("def title(event):\n    return 'T'\n").outputs["dedup"], "T")
        self.assertEqual(self.run_rule("").outputs["dedup"], "defaultDedupString:Test.Rule")
        self.assertEqual(self.run_rule("def title(event):\n    return 'T'\ndef dedup(event):\n    return ''\n").outputs["dedup"], "T")
        self.assertEqual(self.run_rule("def dedup(event):\n    return ''\n").outputs["dedup"], "defaultDedupString:Test.Rule")

    def test_length_caps(self):
        result = self.run_rule("def title(event):\n    return 'x' * 5000\ndef dedup(event):\n    return 'y' * 5000\n")
        self.assertEqual(len(result.outputs["title"]), MAX_GENERATED_FIELD_SIZE)
        self.assertTrue(result.outputs["title"].endswith(TRUNCATED_STRING_SUFFIX))
        self.assertEqual(len(result.outputs["dedup"]), MAX_DEDUP_STRING_SIZE)

    def test_severity_default_and_validation(self):
        self.assertEqual(self.run_rule("def severity(event):\n    return 'DEFAULT'\n").outputs["severity"], "MEDIUM")
        self.assertEqual(self.run_rule("def severity(event):\n    return 'critical'\n").outputs["severity"], "CRITICAL")
        bad = self.run_rule("def severity(event):\n    return 'urgent'\n")
        self.assertIn("Expected severity", str(bad.exceptions["severity"]))
        self.assertEqual(bad.outputs["severity"], "MEDIUM")

    def test_return_types_are_checked_per_function(self):
        result = self.run_rule(
            "def title(event):\n    return 1\ndef alert_context(event):\n    return ['a']\n"
            "def destinations(event):\n    return 'slack'\ndef runbook(event):\n    return None\n"
        )
        self.assertEqual(set(result.exceptions), {"title", "alert_context", "destinations", "runbook"})
        self.assertEqual(result.outputs["title"], "Test.Rule")
        self.assertIn("_error", result.outputs["alert_context"])

    def test_batch_mode_keeps_the_alert_when_functions_fail(self):
        result = self.run_rule("def title(event):\n    raise KeyError('t')\n", batch_mode=True, displayName="Nice Name")
        self.assertTrue(result.trigger_alert)
        self.assertEqual(result.exceptions, {})
        self.assertEqual(result.outputs["title"], "Nice Name")

    def test_alert_context_size_cap(self):
        result = self.run_rule(f"def alert_context(event):\n    return {{'big': 'x' * {MAX_ALERT_CONTEXT_SIZE + 10}}}\n")
        self.assertIn("bigger than maximum", result.outputs["alert_context"]["_error"])

    def test_alert_context_serialises_event_values(self):
        result = self.run_rule("def alert_context(event):\n    return {'event': event, 'user': event.get('user')}\n")
        self.assertEqual(result.outputs["alert_context"]["event"]["user"], "alice")

    def test_destinations(self):
        self.assertEqual(self.run_rule("def destinations(event):\n    return []\n").outputs["destinations"], ["SKIP"])
        self.assertIsNone(self.run_rule("def destinations(event):\n    return None\n").outputs["destinations"])
        many = self.run_rule("def destinations(event):\n    return [str(i) for i in range(20)]\n")
        self.assertEqual(len(many.outputs["destinations"]), 10)

    def test_signals_only_run_alert_context(self):
        result = self.run_rule("def title(event):\n    raise ValueError('x')\ndef alert_context(event):\n    return {'a': 1}\n", createAlert=False)
        self.assertEqual(set(result.outputs), {"alert_context"})
        self.assertEqual(result.exceptions, {})

    def test_unique_is_a_string_function(self):
        self.assertEqual(self.run_rule("def unique(event):\n    return event.get('user')\n").outputs["unique"], "alice")
        self.assertIn("unique", self.run_rule("def unique(event):\n    return 3\n").exceptions)


class PassFailRuleTest(unittest.TestCase):
    """An alerting expectation passes only when every auxiliary function also ran cleanly."""

    def verdict(self, source: str, expected: bool, log=None, mocks=None):
        test = {"Name": "t", "ExpectedResult": expected, "Log": log or {"user": "alice"}}
        if mocks:
            test["Mocks"] = mocks
        return run_test(detection(source), test, lambda _log_type: None)

    def test_matrix(self):
        clean_true = "def rule(event):\n    return True\n"
        clean_false = "def rule(event):\n    return False\n"
        broken_title = "def rule(event):\n    return {result}\ndef title(event):\n    raise ValueError('bad title')\n"
        raises = "def rule(event):\n    raise ValueError('boom')\n"
        cases = [
            (clean_true, True, True),
            (clean_true, False, False),
            (clean_false, False, True),
            (clean_false, True, False),
            (broken_title.format(result=True), True, False),
            (broken_title.format(result=False), False, True),
            (raises, False, False),
            (raises, True, False),
        ]
        for source, expected, outcome in cases:
            with self.subTest(source=source, expected=expected):
                self.assertIs(self.verdict(source, expected)["passed"], outcome)

    def test_failed_function_is_named(self):
        verdict = self.verdict("def rule(event):\n    return True\ndef title(event):\n    raise ValueError('bad title')\n", True)
        self.assertIn("ValueError: bad title", verdict["functions"]["title"]["error"])

    def test_policy_expectations(self):
        policy = Detection({"id": "P", "analysisType": "policy", "severity": "High"}, module("def policy(resource):\n    return resource['ok']\n"))
        self.assertTrue(run_test(policy, {"Name": "a", "ExpectedResult": False, "Resource": {"ok": False}}, lambda _: None)["passed"])
        self.assertTrue(run_test(policy, {"Name": "b", "ExpectedResult": True, "Resource": {"ok": True}}, lambda _: None)["passed"])

    def test_mocks_are_magicmocks_patched_into_the_module(self):
        source = "def helper():\n    return 'real'\ndef rule(event):\n    return helper() == 'mocked' and helper.call_count == 1\n"
        self.assertTrue(self.verdict(source, True, mocks=[{"objectName": "helper", "returnValue": "mocked"}])["passed"])
        rule = detection(source)
        run_test(rule, {"Name": "t", "ExpectedResult": True, "Log": {}, "Mocks": [{"objectName": "helper", "returnValue": "x"}]}, lambda _: None)
        self.assertEqual(rule.module.helper(), "real")

    def test_mock_of_a_missing_name_fails_the_test(self):
        verdict = self.verdict("def rule(event):\n    return True\n", True, mocks=[{"objectName": "nope", "returnValue": "x"}])
        self.assertFalse(verdict["passed"])
        self.assertIn("does not have the attribute 'nope'", verdict["error"])

    def test_unknown_destinations_fail_only_when_destinations_are_given(self):
        source = "def rule(event):\n    return True\ndef destinations(event):\n    return ['slack-sec']\n"
        test = {"Name": "t", "ExpectedResult": True, "Log": {}}
        self.assertTrue(run_test(detection(source), test, lambda _: None)["passed"])
        self.assertTrue(run_test(detection(source), test, lambda _: None, destinations=["slack-sec"])["passed"])
        verdict = run_test(detection(source), test, lambda _: None, destinations=["pagerduty"])
        self.assertFalse(verdict["passed"])
        self.assertIn("UnknownDestinationError", verdict["functions"]["destinations"]["error"])

    def test_printed_output_is_captured(self):
        verdict = self.verdict("def rule(event):\n    print('hello')\n    return True\n", True)
        self.assertTrue(verdict["passed"])
        self.assertEqual(verdict["stdout"], "hello\n")

    def test_passed_helper(self):
        result = DetectionResult("x")
        result.trigger_alert, result.detection_output = True, True
        self.assertTrue(passed(True, result, True))
        result.exceptions["dedup"] = ValueError("x")
        self.assertFalse(passed(True, result, True))


if __name__ == "__main__":
    unittest.main()
