"""The event object: read-only, case-insensitive, deep_get/deep_walk, udm over data models."""

import json
import unittest
from types import SimpleNamespace

from caracal_engine.event import DataModel, PantherError, PantherEvent
from caracal_engine.immutable import ImmutableCaseInsensitiveDict, ImmutableList, json_encoder
from caracal_engine.jsonpath import JSONPathError, compile_path

EVENT = {
    "p_log_type": "Fixture.Auth",
    "p_event_time": "2024-03-01 10:00:00.123456789",
    "Actor": {"Name": "alice", "name": "lower wins only on exact match"},
    "targets": [{"id": "a", "role": "user", "tags": ["x", "y"]}, {"id": "b", "role": "admin", "tags": ["y"]}],
    "empty": [],
    "nothing": None,
    "p_udm": {"user": {"email": "alice@example.com"}},
}

MODEL = DataModel(
    "Fixture.DataModel",
    [
        {"Name": "actor_user", "Path": "$.Actor.Name"},
        {"Name": "admin_id", "Path": "$.targets[?(@.role == 'admin')].id"},
        {"Name": "any_id", "Path": "$.targets[*].id"},
        {"Name": "kind", "Method": "kind"},
    ],
    SimpleNamespace(kind=lambda event: "auth:" + event.get("p_log_type")),
)


class EventAccessTest(unittest.TestCase):
    def setUp(self):
        self.event = PantherEvent(EVENT, MODEL)

    def test_exact_key_first_then_case_insensitive(self):
        actor = self.event["actor"]
        self.assertEqual(actor["Name"], "alice")
        self.assertEqual(actor["name"], "lower wins only on exact match")
        self.assertEqual(actor["NAME"], "alice")
        self.assertEqual(self.event.get("ACTOR", {}).get("nAmE"), "alice")
        self.assertIn("p_LOG_type", self.event)

    def test_missing_keys(self):
        self.assertIsNone(self.event.get("missing"))
        self.assertEqual(self.event.get("missing", "fallback"), "fallback")
        with self.assertRaises(KeyError):
            self.event["missing"]  # pylint: disable=pointless-statement

    def test_read_only(self):
        with self.assertRaises(TypeError):
            self.event["new"] = 1  # type: ignore[index]
        targets = self.event["targets"]
        self.assertIsInstance(targets, ImmutableList)
        self.assertIsInstance(targets[0], ImmutableCaseInsensitiveDict)
        with self.assertRaises(TypeError):
            targets[0] = {}  # type: ignore[index]
        copy = self.event.to_dict()
        copy["Actor"]["Name"] = "mallory"
        self.assertEqual(self.event.deep_get("Actor", "Name"), "alice")

    def test_immutable_list_equality(self):
        self.assertEqual(self.event["targets"][0]["tags"], ["x", "y"])
        self.assertEqual(self.event["targets"][0]["tags"], ("x", "y"))

    def test_deep_get(self):
        self.assertEqual(self.event.deep_get("actor", "name"), "lower wins only on exact match")
        self.assertEqual(self.event.deep_get("ACTOR", "NAME"), "alice")
        self.assertIsNone(self.event.deep_get("actor", "name", "deeper"))
        self.assertEqual(self.event.deep_get("nothing", default="d"), "d")
        self.assertEqual(self.event.deep_get("targets", "id", default="not a mapping"), "not a mapping")

    def test_deep_walk_modes(self):
        self.assertEqual(self.event.deep_walk("targets", "id"), ["a", "b"])
        self.assertEqual(self.event.deep_walk("targets", "id", return_val="first"), "a")
        self.assertEqual(self.event.deep_walk("targets", "id", return_val="last"), "b")
        self.assertEqual(self.event.deep_walk("targets", "tags"), ["x", "y"])
        self.assertEqual(self.event.deep_walk("targets", "role", return_val="all"), ["user", "admin"])
        self.assertEqual(self.event.deep_walk("empty", default="none"), "none")
        self.assertEqual(self.event.deep_walk("missing", "key", default="none"), "none")
        self.assertEqual(self.event.deep_walk("Actor", "Name"), "alice")

    def test_udm_paths_and_methods(self):
        self.assertEqual(self.event.udm("actor_user"), "alice")
        self.assertEqual(self.event.udm("admin_id"), "b")
        self.assertEqual(self.event.udm("kind"), "auth:Fixture.Auth")
        self.assertEqual(self.event.udm_path("actor_user"), "Actor.Name")
        self.assertEqual(self.event.udm_path("admin_id"), "targets.[1].id")
        self.assertEqual(self.event.udm_path("kind"), "<lambda>")
        with self.assertRaisesRegex(Exception, "matched multiple fields"):
            self.event.udm("any_id")

    def test_udm_falls_back_to_p_udm_then_the_event(self):
        self.assertEqual(self.event.udm("user", "email"), "alice@example.com")
        self.assertEqual(self.event.udm("Actor", "Name"), "alice")
        self.assertEqual(self.event.udm("unmapped", default="d"), "d")

    def test_udm_path_without_data_model(self):
        with self.assertRaises(PantherError):
            PantherEvent({"p_log_type": "X"}).udm_path("anything")

    def test_event_time_epoch(self):
        self.assertEqual(self.event.event_time_epoch(), 1709287200)
        self.assertEqual(PantherEvent({"p_event_time": "2024-03-01T10:00:00Z"}).event_time_epoch(), 1709287200)
        self.assertEqual(PantherEvent({"p_event_time": "2024-03-01T12:00:00+02:00"}).event_time_epoch(), 1709287200)
        self.assertEqual(PantherEvent({"p_event_time": "not a time"}).event_time_epoch(), 0)
        self.assertEqual(PantherEvent({}).event_time_epoch(), 0)

    def test_lookup_reads_mocked_lookup_data(self):
        event = PantherEvent({"_mocked_lookup_data_": {"table": {"k": {"v": 1}}}})
        self.assertEqual(event.lookup("table", "k"), {"v": 1})
        self.assertIsNone(event.lookup("table", "other"))

    def test_json_serialisable(self):
        text = json.dumps(self.event, default=json_encoder)
        self.assertEqual(json.loads(text), EVENT)
        self.assertEqual(json.loads(json.dumps({"t": self.event["targets"]}, default=PantherEvent.json_encoder))["t"], EVENT["targets"])


class JSONPathTest(unittest.TestCase):
    DOC = {"a": {"b": [{"c": 1, "k": "x"}, {"c": 2, "k": "y"}]}, "d e": 3}

    def paths(self, expression):
        return [(p, v) for p, v in compile_path(expression)(self.DOC)]

    def test_forms(self):
        self.assertEqual(self.paths("$.a.b[0].c"), [("a.b.[0].c", 1)])
        self.assertEqual(self.paths("a.b[-1].c"), [("a.b.[1].c", 2)])
        self.assertEqual(self.paths("$.a.b[*].c"), [("a.b.[0].c", 1), ("a.b.[1].c", 2)])
        self.assertEqual(self.paths("$['d e']"), [("d e", 3)])
        self.assertEqual(self.paths("$..c"), [("a.b.[0].c", 1), ("a.b.[1].c", 2)])
        self.assertEqual(self.paths("$.a.b[?(@.k == 'y')].c"), [("a.b.[1].c", 2)])
        self.assertEqual(self.paths("$.a.b[?(@.k != 'y')].c"), [("a.b.[0].c", 1)])
        self.assertEqual(self.paths("$.missing.path"), [])

    def test_invalid(self):
        with self.assertRaises(JSONPathError):
            compile_path("$.a[")


if __name__ == "__main__":
    unittest.main()
