"""`caracal test` runs the unit tests of many detections in one sandbox child, one after another, as a live run
does its detections (sandbox.py): the per-test guarantees still hold. Each test's Mocks are undone before the
next test and the next detection, and a detection that raises, loops, crashes, exits or floods its channel
fails only its own test, with the same message as when it had a child of its own."""

import time
import unittest

from tests.engine.test_sandbox import detection
from tests.engine.host_case import HostTestCase

HELPERS = {"id": "helpers", "body": "def flag():\n    return False\n"}
UNIT = {"Name": "plain", "ExpectedResult": False, "Log": {"p_log_type": "T"}}


def case(name: str, expected: bool, **extra) -> dict:
    return {"Name": name, "ExpectedResult": expected, "Log": {"p_log_type": "T"}, **extra}


class UnitTestBatchTest(HostTestCase):
    def run_tests(self, version: str, detections: list, tests: list, deadline=None, **content) -> list:
        forks = []
        sandbox_fork = type(self.host)._warm

        def recording(host, spec, *needs):
            sandbox, *rest = sandbox_fork(host, spec, *needs)
            original = sandbox.fork

            def fork(task):
                forks.append(task)
                original(task)
            sandbox.fork = fork
            return (sandbox, *rest)

        self.host._warm = lambda spec, *needs: recording(self.host, spec, *needs)  # pylint: disable=protected-access
        try:
            out = self.host.test_many({"version": version, "globals": [HELPERS], "detections": detections, **content},
                                      tests, deadline=deadline, warm=True)
        finally:
            del self.host._warm
            if self.host.warm is not None:
                self.host.warm.fork = type(self.host.warm).fork.__get__(self.host.warm)
        self.forks = forks  # pylint: disable=attribute-defined-outside-init
        return out["detections"]

    def test_mocks_are_undone_before_the_next_test_and_the_next_detection(self):
        mocker = detection("Mocker", "from helpers import flag\nimport helpers\n"
                                     "def rule(event):\n    return flag() or helpers.flag()\n")
        by_name = detection("ByName", "from helpers import flag\ndef rule(event):\n    return flag()\n")
        by_module = detection("ByModule", "import helpers\ndef rule(event):\n    return helpers.flag()\n")
        mocked = [{"objectName": "flag", "returnValue": True}]
        module_mocked = [{"objectName": "helpers", "returnValue": True}]
        verdicts = self.run_tests("mocks", [mocker, by_name, by_module], [
            ("Mocker", [case("mocked", True, Mocks=mocked), case("after", False),
                        case("module", False, Mocks=module_mocked), case("after module", False)]),
            ("ByName", [case("real", False)]),
            ("ByModule", [case("real", False)]),
            ("Mocker", [case("again", False)]),
        ])
        self.assertEqual([[(v["name"], v["passed"]) for v in per] for per in verdicts], [
            [("mocked", True), ("after", True), ("module", False), ("after module", True)],
            [("real", True)], [("real", True)], [("again", True)],
        ], verdicts)
        # One child for the whole task: the isolation unit is the task, as for live runs.
        self.assertEqual(len(self.forks), 1)

    def test_a_bad_detection_fails_only_its_own_tests_with_the_usual_messages(self):
        bodies = {
            "Good": "def rule(event):\n    return event.get('n') == 1\n",
            "Raises": "def rule(event):\n    return event['missing']\n",
            "Loops": "def rule(event):\n    while True:\n        pass\n",
            "Exits": "import os\ndef rule(event):\n    if event.get('n') == 1:\n        os._exit(3)\n    return False\n",
            "Segfaults": "import ctypes\ndef rule(event):\n    ctypes.string_at(0)\n    return False\n",
            "Floods": ("import os, sys\ndef rule(event):\n    rest = memoryview(b'x' * (20 * 1024 * 1024))\n"
                       "    while rest:\n        rest = rest[os.write(int(sys.argv[3]), rest):]\n    return True\n"),
        }
        one = {"Name": "one", "ExpectedResult": True, "Log": {"p_log_type": "T", "n": 1}}
        two = {"Name": "two", "ExpectedResult": False, "Log": {"p_log_type": "T", "n": 2}}
        tests = [(name, [two, one]) for name in bodies] + [("Good", [one, two])]
        verdicts = self.run_tests("bad", [detection(name, body) for name, body in bodies.items()], tests,
                                  timeLimitSeconds=0.5)
        by_id = {name: verdicts[k] for k, name in enumerate(bodies)}
        self.assertEqual([v["passed"] for v in by_id["Good"]], [True, True])
        self.assertEqual([v["passed"] for v in verdicts[-1]], [True, True])
        self.assertIn("KeyError", by_id["Raises"][0]["error"])
        self.assertIn("time limit", by_id["Loops"][0]["error"])
        # Exits fails on its test "one" only: the next child carries on from the test after it.
        self.assertEqual([v["passed"] for v in by_id["Exits"]], [True, False])
        self.assertEqual(by_id["Exits"][1]["error"], "ProcessExit: the test ended its process (exit code 3)")
        self.assertEqual([v["error"] for v in by_id["Segfaults"]],
                         ["ProcessCrash: the test crashed its process (SIGSEGV)"] * 2)
        self.assertEqual([v["error"] for v in by_id["Floods"]],
                         ["ProcessKilled: the test sent more output than allowed"] * 2)
        # A child for the task, and one more after each test that ended its child.
        self.assertEqual([task["start"] for task in self.forks], [0, 8, 9, 10, 11, 12])
        self.assertTrue(all(task["cpuSeconds"] > 0 for task in self.forks))

    def test_a_test_past_the_time_left_is_stopped_and_the_child_has_a_cpu_limit(self):
        spins = detection("Spins", "def rule(event):\n    return sum(range(10 ** 12)) > 0\n")
        good = detection("Good", "def rule(event):\n    return False\n")
        deadline = time.monotonic() + 4
        verdicts = self.run_tests("cpu", [spins, good], [("Good", [UNIT, UNIT]), ("Spins", [case("spin", True)])],
                                  deadline=deadline, timeLimitSeconds=30)
        self.assertEqual([v["passed"] for v in verdicts[0]], [True, True])
        # A loop in C, out of the engine's time limit's reach: the host stops the child at the call's time.
        self.assertEqual(verdicts[1][0]["error"], "DetectionTimeout: the test ran past its share of the time left")
        # The task's child has a CPU limit of the time left, as each child had.
        self.assertEqual(len(self.forks), 1)
        self.assertTrue(0 < self.forks[0]["cpuSeconds"] <= 5, self.forks)

if __name__ == "__main__":
    unittest.main()
