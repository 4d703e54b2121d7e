"""A detection cannot switch off its own time limit (#27): whatever it does inside its process to the per-call
timer (ignores or blocks SIGALRM, cancels the timer, swallows the timeout in a loop, sits in C code the timer
cannot interrupt), the sandbox's zygote, outside that process, kills it once the call is past its limit plus a
grace period. The detection gets one error result naming the limit; every other detection's results are kept.
These runs have no deadline (the local worker's case) or a far one, so the host's share of the time left is not
what stops them."""

import json
import time
import unittest

from caracal_engine.guard import outside_grace
from tests.engine.host_case import HostTestCase
from tests.engine.test_handler import Context, load_handler

LIMIT = 0.3
# The zygote kills a call at its limit plus the grace; what a run may take beyond that, on a machine that may be
# busy: per detection killed, a new child for the detections after it, and for the run, its start (all well
# short of the 30 s each of these detections would take).
CHILD_SLACK = 0.5
SLACK = 3.0
TAMPERS = {
    "Ignores": "signal.signal(signal.SIGALRM, signal.SIG_IGN)\n    signal.alarm(0)\n    time.sleep(30)\n",
    "IgnoresAndSpins": ("signal.signal(signal.SIGALRM, signal.SIG_IGN)\n    signal.alarm(0)\n"
                        "    while True:\n        pass\n"),
    "Cancels": "signal.setitimer(signal.ITIMER_REAL, 0, 0)\n    while True:\n        pass\n",
    "Blocks": "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})\n    time.sleep(30)\n",
    "OwnHandler": "signal.signal(signal.SIGALRM, lambda *_: None)\n    time.sleep(30)\n",
    "Swallows": ("while True:\n        try:\n            time.sleep(30)\n"
                 "        except BaseException:\n            pass\n"),
}
EXPECTED = f"DetectionTimeout: the detection exceeded its time limit of {LIMIT:g}s and its process was killed"


def detection(detection_id: str, body: str) -> dict:
    return {"id": detection_id, "analysisType": "rule", "severity": "Low", "logTypes": ["T"], "body": body}


def tamper(name: str) -> dict:
    return detection(name, "import signal, time\ndef rule(event):\n    " + TAMPERS[name] + "    return True\n")


BEFORE = detection("Before", "def rule(event):\n    return event.get('n') != 1\n")
AFTER = detection("After", "def rule(event):\n    return event.get('n') == 1\n")
EVENTS = [{"p_log_type": "T", "n": n} for n in range(3)]


def by_detection(results: list) -> dict:
    out: dict = {}
    for index, per_event in enumerate(results):
        for result in per_event:
            out.setdefault(result["id"], []).append((index, result.get("error") or result["matched"]))
    return out


class OutsideDeadlineRunTest(HostTestCase):
    def assert_killed_alone(self, names: list, out: dict, took: float) -> None:
        found = by_detection(out["results"])
        for name in names:
            with self.subTest(detection=name):
                # Killed on the first event, reported once (its process died there: the next child goes on from
                # the detection after it), with the limit named.
                self.assertEqual(found.get(name), [(0, EXPECTED)], found)
        self.assertEqual(found["Before"], [(0, True), (2, True)])
        self.assertEqual(found["After"], [(1, True)])
        self.assertLess(took, len(names) * (LIMIT + outside_grace(LIMIT) + CHILD_SLACK) + SLACK, f"{took:.2f}s")

    def test_detections_that_switch_off_their_timer_are_killed_from_outside(self):
        names = list(TAMPERS)
        started = time.monotonic()
        out = self.host.run({"version": "tamper-all", "timeLimitSeconds": LIMIT,
                             "detections": [BEFORE, *map(tamper, names), AFTER]}, EVENTS)
        self.assert_killed_alone(names, out, time.monotonic() - started)

    def test_with_a_lambda_deadline_the_overrun_costs_its_limit_not_the_invocation(self):
        # The host would let the detection run to its share of two minutes: the zygote stops it at its limit.
        started = time.monotonic()
        out = self.host.run({"version": "tamper-deadline", "timeLimitSeconds": LIMIT,
                             "detections": [BEFORE, tamper("Ignores"), AFTER]}, EVENTS, deadline=started + 120)
        self.assert_killed_alone(["Ignores"], out, time.monotonic() - started)

    def test_a_call_stuck_in_c_code_is_killed_too(self):
        # sum() over a range runs in C: the in-process timer's handler never gets to run.
        stuck = detection("InC", "def rule(event):\n    return sum(range(10 ** 14)) > 0\n")
        started = time.monotonic()
        out = self.host.run({"version": "tamper-c", "timeLimitSeconds": LIMIT,
                             "detections": [BEFORE, stuck, AFTER]}, EVENTS)
        took = time.monotonic() - started
        self.assert_killed_alone(["InC"], out, took)

    def test_a_module_body_that_switches_off_the_timer_is_killed(self):
        body = ("import signal, time\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\ntime.sleep(30)\n"
                "def rule(event):\n    return True\n")
        started = time.monotonic()
        out = self.host.run({"version": "tamper-load", "timeLimitSeconds": LIMIT,
                             "detections": [BEFORE, detection("OnLoad", body), AFTER]}, EVENTS)
        self.assert_killed_alone(["OnLoad"], out, time.monotonic() - started)

    def test_user_code_the_engine_runs_outside_a_call_is_limited_too(self):
        # The title is a str whose len() loops: the engine calls it after title() has returned.
        body = ("class Endless(str):\n    def __len__(self):\n        while True:\n            pass\n"
                "def rule(event):\n    return True\ndef title(event):\n    return Endless('x')\n")
        started = time.monotonic()
        out = self.host.run({"version": "tamper-outside", "timeLimitSeconds": LIMIT,
                             "detections": [BEFORE, detection("Outside", body), AFTER]}, EVENTS)
        self.assert_killed_alone(["Outside"], out, time.monotonic() - started)

    def test_a_blocked_timer_is_unblocked_for_the_next_detection(self):
        # The first detection blocks SIGALRM and ends its calls at once; the next one, in the same process, makes
        # short calls for longer than a limit plus its grace in all: its timer ticks, and nothing is killed.
        blocker = detection("Blocker", ("import signal\ndef rule(event):\n"
                                        "    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})\n"
                                        "    return True\n"))
        steady = detection("Steady", f"import time\ndef rule(event):\n    time.sleep({LIMIT / 3})\n    return True\n")
        events = [{"p_log_type": "T", "n": n} for n in range(8)]
        out = self.host.run({"version": "tamper-blocked", "timeLimitSeconds": LIMIT,
                             "detections": [blocker, steady]}, events)
        found = by_detection(out["results"])
        self.assertEqual(found["Blocker"], [(n, True) for n in range(8)])
        self.assertEqual(found["Steady"], [(n, True) for n in range(8)])

    def test_a_detection_within_its_limit_is_left_alone(self):
        # Ignoring the timer is no offence in itself: what ends within the limit plus the grace, counted from the
        # timer's last tick (here the detection's whole run), runs to its end.
        body = ("import signal, time\ndef rule(event):\n    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
                f"    time.sleep({LIMIT / 3})\n    return True\n")
        out = self.host.run({"version": "tamper-brief", "timeLimitSeconds": LIMIT,
                             "detections": [detection("Brief", body), AFTER]}, EVENTS[:2])
        self.assertEqual(by_detection(out["results"]), {"Brief": [(0, True), (1, True)], "After": [(1, True)]})


class OutsideDeadlineLambdaTest(unittest.TestCase):
    def test_the_detections_functions_request_gets_its_answer_with_the_error_for_that_detection(self):
        # The engine Lambda's entry, as the detections function invokes it (the events' lines as one string), with two
        # minutes left: it answers within the limit plus the grace, the overrun as that detection's error result
        # (which the detections function raises as a DETECTION_ERROR), the other detections' alerts intact.
        handler = load_handler(self)
        content = {"version": "tamper-lambda", "timeLimitSeconds": LIMIT,
                   "detections": [BEFORE, tamper("Ignores"), AFTER]}
        lines = [json.dumps(event) for event in EVENTS]
        started = time.monotonic()
        out = handler.handler({"content": content, "eventsJson": f"[{','.join(lines)}]", "eventCount": len(lines)},
                              Context(120))
        took = time.monotonic() - started
        self.assertEqual(by_detection(out["results"]),
                         {"Before": [(0, True), (2, True)], "Ignores": [(0, EXPECTED)], "After": [(1, True)]})
        self.assertLess(took, LIMIT + outside_grace(LIMIT) + CHILD_SLACK + SLACK)


class OutsideDeadlineUnitTestTest(HostTestCase):
    def test_a_unit_test_that_switches_off_its_timer_fails_with_the_time_limit(self):
        # `caracal test` runs tests in the warm sandbox without a deadline: the test fails, the rest pass.
        content = {"version": "tamper-tests", "timeLimitSeconds": LIMIT,
                   "detections": [tamper("Ignores"), tamper("Swallows"), AFTER]}
        tests = [{"Name": "hangs", "ExpectedResult": True, "Log": {"p_log_type": "T"}}]
        passing = [{"Name": "alerts", "ExpectedResult": True, "Log": {"p_log_type": "T", "n": 1}},
                   {"Name": "quiet", "ExpectedResult": False, "Log": {"p_log_type": "T", "n": 0}}]
        started = time.monotonic()
        out = self.host.test_many(content, [("Ignores", tests), ("Swallows", tests), ("After", passing)], warm=True)
        took = time.monotonic() - started
        verdicts = out["detections"]
        expected = {"name": "hangs", "passed": False, "error": EXPECTED.replace("the detection", "the test")}
        self.assertEqual(verdicts[0] + verdicts[1], [expected, expected])
        self.assertEqual([(v["name"], v["passed"]) for v in verdicts[2]], [("alerts", True), ("quiet", True)])
        self.assertLess(took, 2 * (LIMIT + outside_grace(LIMIT) + CHILD_SLACK) + SLACK)


class OutsideDeadlineParseTest(HostTestCase):
    def test_a_parse_function_that_switches_off_its_timer_fails_its_line(self):
        source = ("import signal, time\ndef parse(log):\n    if log == 'hang':\n"
                  "        signal.signal(signal.SIGALRM, signal.SIG_IGN)\n        time.sleep(30)\n"
                  "    return {'log': log}\n")
        started = time.monotonic()
        out = self.host.parse(source, ["a", "hang", "b"])
        took = time.monotonic() - started
        # A parse function's limit is fixed (script_parser.py): 2 s.
        self.assertEqual(out["results"], [
            {"events": [{"log": "a"}]},
            {"error": "DetectionTimeout: the parse function exceeded its time limit of 2s and its process was killed"},
            {"events": [{"log": "b"}]},
        ])
        self.assertLess(took, 2 + outside_grace(2) + CHILD_SLACK + SLACK)


if __name__ == "__main__":
    unittest.main()
