"""A run's events as the text of one JSON array ({"eventsJson", "eventCount"}, the detections function's form): the
host hands the bytes to the sandbox unread and a child decodes them. Every run gives what the same events as a list
give (alerts, non-object events, lookups, chosen detections, a crash blamed on the event it died on); a text that
is not a JSON array of its count of events fails the request with a clear error, and the warm sandbox stays; what a
detection writes on its channel cannot pass for what the child decoded."""

import json
import os
import subprocess
import sys
import time
import unittest
import unittest.mock

from caracal_engine.events_json import EventsJson
from tests.engine import ENGINE_DIR
from tests.engine.test_handler import Context, load_handler
from tests.engine.host_case import HostTestCase


def detection(detection_id: str, body: str, **spec) -> dict:
    return {"id": detection_id, "analysisType": "rule", "severity": "Low", "logTypes": ["T"], "body": body, **spec}


ALERTS = detection("Alerts", "def rule(event):\n    return event.get('n', 0) % 2 == 1\ndef title(event):\n    return f\"n={event.get('n')} {event.get('text')}\"\n")
RAISES = detection("Raises", "def rule(event):\n    return event['missing']\n")
LOOKS_UP = detection("LooksUp", "def rule(event):\n    return event.lookup('users', event.get('user')) is not None\n")
ANY_TYPE = detection("AnyType", "def rule(event):\n    return True\n", logTypes=["U"])
CRASHES = detection("Crashes", "import os\ndef rule(event):\n    if event.get('n') == 3:\n        os._exit(5)\n    return False\n")
AFTER = detection("After", "def rule(event):\n    return event.get('n') == 4\n")
LOOKUPS = {"users": {"keyType": "STRING", "rows": {"ann": {"team": "red"}}}}

# Objects of two log types, text needing escapes (quotes, backslashes, non-ASCII, a lone surrogate's escape), and
# values that are not objects.
EVENTS = [
    {"p_log_type": "T", "n": 1, "text": 'say "hi" \\ there', "user": "ann"},
    7,
    {"p_log_type": "T", "n": 2, "text": "caf\u00e9 \u2028 \ud83d\ude00"},
    "not an object",
    {"p_log_type": "T", "n": 3, "text": "\ud800 alone"},
    [1, 2],
    {"p_log_type": "U", "n": 4, "user": "bob"},
    None,
    {"p_log_type": "T", "n": 4},
]


def text_of(events: list) -> EventsJson:
    """The events as the detections function sends them: each line's JSON joined into the array's text."""
    return EventsJson("[" + ",".join(json.dumps(event, separators=(",", ":")) for event in events) + "]", len(events))


class EventsJsonRunTest(HostTestCase):
    def both(self, detections: list, events: list, **options) -> dict:
        """The run of the events as a list and as their text, which must be equal; the latter."""
        content = {"version": "ej:" + ",".join(d["id"] for d in detections), "detections": detections}
        as_list = self.host.run(content, events, options.get("detection_ids"), lookups=options.get("lookups"))
        as_text = self.host.run(content, text_of(events), options.get("detection_ids"), lookups=options.get("lookups"))
        self.assertEqual(as_text, as_list)
        return as_text

    def test_the_same_results_as_the_events_list(self):
        out = self.both([ALERTS, RAISES, ANY_TYPE], EVENTS)
        results = out["results"]
        self.assertEqual(len(results), len(EVENTS))
        self.assertEqual(results[0][0]["title"], 'n=1 say "hi" \\ there')
        self.assertEqual([r["id"] for r in results[0]], ["Alerts", "Raises"])
        for index in (1, 3, 5, 7):
            self.assertEqual(results[index], [{"id": "", "matched": False, "error": "an event must be a JSON object"}])
        self.assertEqual([r["id"] for r in results[6]], ["AnyType"])
        self.assertTrue(results[2][0]["error"].startswith("KeyError"), results[2])

    def test_lookups_and_chosen_detections(self):
        out = self.both([LOOKS_UP, ALERTS], EVENTS, lookups=LOOKUPS)
        self.assertEqual([r["id"] for r in out["results"][0] if r["matched"]], ["LooksUp", "Alerts"])
        chosen = self.both([LOOKS_UP, ALERTS, ANY_TYPE], EVENTS, detection_ids=["AnyType"])
        # Chosen by id, a detection runs on every event of every log type.
        self.assertEqual([i for i, per_event in enumerate(chosen["results"]) if any(r["id"] == "AnyType" for r in per_event)],
                         [0, 2, 4, 6, 8])

    def test_a_crash_is_blamed_on_the_event_it_died_on_and_the_rest_run(self):
        out = self.both([CRASHES, AFTER], EVENTS)
        self.assertEqual(out["results"][4], [{"id": "Crashes", "matched": False,
                                              "error": "ProcessExit: the detection ended its process (exit code 5)"}])
        self.assertEqual([r["id"] for r in out["results"][8]], ["After"])

    def test_no_detection_to_run(self):
        # No child runs: the host reads the text itself, for the non-object errors and the checks.
        out = self.both([detection("Other", "def rule(event):\n    return True\n", logTypes=["V"])], EVENTS,
                        detection_ids=["Missing"])
        self.assertEqual([i for i, per_event in enumerate(out["results"]) if per_event], [1, 3, 5, 7])
        with self.assertRaisesRegex(ValueError, "eventsJson holds 1 events where eventCount says 2"):
            self.host.run({"version": "none", "detections": []}, EventsJson("[{}]", 2))

    def test_text_that_is_not_a_json_array_of_its_count_fails_the_request(self):
        content = {"version": "bad-text", "detections": [ALERTS]}
        cases = [
            (EventsJson('[{"n":1},{"n":', 2), "eventsJson is not a JSON array of events: Expecting value"),
            (EventsJson('{"n":1}', 1), "eventsJson is not a JSON array of events: it holds an object"),
            (EventsJson('[{"n":1}] [{"n":2}]', 2), "eventsJson is not a JSON array of events: Extra data"),
            (EventsJson('[{"n":1},{"n":2}]', 3), "eventsJson holds 2 events where eventCount says 3"),
            # A line holding two values: one event more than the lines sent.
            (EventsJson('[{"n":1},{"n":2},{"n":3}]', 2), "eventsJson holds 3 events where eventCount says 2"),
            (EventsJson("[" * 100_000 + "]" * 100_000, 1), "eventsJson is not a JSON array of events"),
        ]
        sandbox = None
        for events, error in cases:
            with self.subTest(error=error):
                with self.assertRaisesRegex(ValueError, error):
                    self.host.run(content, events)
                # A bad request costs only itself: the warm sandbox stays.
                sandbox = sandbox or self.host.warm.process.pid
                self.assertEqual(self.host.warm.process.pid, sandbox)
        for text, count, error in ((["x"], 1, "eventsJson must be a string"), ("[]", -1, "eventCount must be"),
                                   ("[]", None, "eventCount must be"), ("[]", True, "eventCount must be")):
            with self.assertRaisesRegex(ValueError, error):
                EventsJson(text, count)
        out = self.host.run(content, text_of([{"p_log_type": "T", "n": 1}]))
        self.assertTrue(out["results"][0][0]["matched"])

    def test_the_host_decodes_nothing_on_the_normal_path(self):
        events = text_of(EVENTS)
        with unittest.mock.patch.object(EventsJson, "decoded", side_effect=AssertionError("decoded by the host")):
            out = self.host.run({"version": "lazy", "detections": [ALERTS]}, events)
        self.assertEqual(len(out["results"]), len(EVENTS))
        # A crash needs the events to blame one: then the host decodes them.
        out = self.host.run({"version": "lazy-crash", "detections": [CRASHES]}, events)
        self.assertEqual(out["results"][4][0]["id"], "Crashes")

    def test_a_detection_cannot_pass_for_what_the_child_decoded(self):
        forge = detection("Forge", (
            "import json, os, sys\n"
            "def rule(event):\n"
            "    lines = [{'nonObjects': [0]}, {'events': {'error': 'forged'}}, {'events': {'count': 1}}]\n"
            "    os.write(int(sys.argv[3]), ''.join(json.dumps(line) + '\\n' for line in lines).encode())\n"
            "    return False\n"
        ))
        crashes = detection("Crashes", "import os\ndef rule(event):\n    os._exit(5)\n")
        for detections in ([forge, ALERTS], [crashes, forge, ALERTS]):
            with self.subTest(detections=[d["id"] for d in detections]):
                out = self.both(detections, EVENTS)
                self.assertFalse([r for r in out["results"][0] if r["id"] in ("", "Forge")])
                self.assertTrue(any(r["id"] == "Alerts" for r in out["results"][0]))

    def test_many_non_objects_travel_in_parts(self):
        events = [{"p_log_type": "T", "n": 1}] + [0] * 250_000 + [{"p_log_type": "T", "n": 3}]
        out = self.host.run({"version": "parts", "detections": [ALERTS]}, text_of(events))
        self.assertEqual(sum(1 for per_event in out["results"] if per_event and per_event[0]["id"] == ""), 250_000)
        self.assertEqual([r["id"] for r in out["results"][-1]], ["Alerts"])


class EventsJsonEntryPointsTest(unittest.TestCase):
    def test_the_lambda_handler(self):
        handler = load_handler(self)
        content = {"version": "h", "detections": [ALERTS, CRASHES, AFTER]}
        lines = [json.dumps(event) for event in EVENTS]
        as_list = handler.handler({"content": content, "events": EVENTS}, Context(30))
        as_text = handler.handler({"content": content, "eventsJson": "[" + ",".join(lines) + "]", "eventCount": len(lines)},
                                  Context(30))
        self.assertEqual(as_text, as_list)
        with self.assertRaisesRegex(ValueError, "eventsJson holds 9 events where eventCount says 8"):
            handler.handler({"content": content, "eventsJson": "[" + ",".join(lines) + "]", "eventCount": 8}, Context(30))
        with self.assertRaisesRegex(ValueError, "eventCount must be"):
            handler.handler({"content": content, "eventsJson": "[]"}, Context(30))

    def test_the_local_worker(self):
        worker = subprocess.Popen(  # pylint: disable=consider-using-with - closed by the cleanups below
            [sys.executable, os.path.join(ENGINE_DIR, "worker.py")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for close in (worker.wait, worker.stderr.close, worker.stdout.close, worker.stdin.close):
            self.addCleanup(close)

        def send(message):
            worker.stdin.write(json.dumps(message) + "\n")
            worker.stdin.flush()
            return json.loads(worker.stdout.readline())

        self.assertTrue(send({"id": 1, "op": "load", "content": {"detections": [ALERTS, LOOKS_UP]}})["ok"])
        as_list = send({"id": 2, "op": "run", "events": EVENTS, "lookups": LOOKUPS})
        text = "[" + ",".join(json.dumps(event) for event in EVENTS) + "]"
        as_text = send({"id": 3, "op": "run", "eventsJson": text, "eventCount": len(EVENTS), "lookups": LOOKUPS})
        self.assertEqual(as_text["result"], as_list["result"])
        bad = send({"id": 4, "op": "run", "eventsJson": text[:-1], "eventCount": len(EVENTS)})
        self.assertEqual(bad["ok"], False)
        self.assertTrue(bad["error"].startswith("ValueError: eventsJson is not a JSON array of events: "), bad)
        self.assertEqual(send({"id": 5, "op": "run", "eventsJson": text, "eventCount": len(EVENTS), "lookups": LOOKUPS})["result"]["results"],
                         as_list["result"]["results"])


if __name__ == "__main__":
    unittest.main()
