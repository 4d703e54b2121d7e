"""event.lookup(table, key) in live runs: the lookup tables passed with a run reach detections in the sandbox
as data (STRING keys exactly, CIDR keys by longest prefix, IPv4 and IPv6); without them, event.lookup reads
the test mocks; an unknown table or key answers None."""

import unittest

from caracal_engine import kv
from caracal_engine.host import Host
from caracal_engine.lookups import LookupTables

TABLES = {
    "networks": {
        "keyType": "CIDR",
        "rows": {
            "10.0.0.0/8": {"site": "corp"},
            "10.1.0.0/16": {"site": "office"},
            "2001:db8::/32": {"site": "v6"},
            "0.0.0.0/0": {"site": "anywhere"},
        },
    },
    "users": {"keyType": "STRING", "rows": {"ann": {"team": "red"}}},
}


class LookupTablesTest(unittest.TestCase):
    def test_cidr_longest_prefix_and_exact_strings(self):
        tables = LookupTables(TABLES)
        self.assertEqual(tables(None, "networks", "10.1.2.3"), {"site": "office"})
        self.assertEqual(tables(None, "networks", "10.2.0.1"), {"site": "corp"})
        self.assertEqual(tables(None, "networks", "::ffff:10.1.0.9"), {"site": "office"})
        self.assertEqual(tables(None, "networks", "2001:db8::1"), {"site": "v6"})
        self.assertEqual(tables(None, "networks", "192.0.2.1"), {"site": "anywhere"})
        self.assertIsNone(tables(None, "networks", "2002::1"))
        self.assertIsNone(tables(None, "networks", "not an ip"))
        self.assertEqual(tables(None, "users", "ann"), {"team": "red"})
        self.assertIsNone(tables(None, "users", "Ann"))
        self.assertIsNone(tables(None, "nope", "ann"))


class LiveLookupTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.host = Host(kv.MemoryStore())

    @classmethod
    def tearDownClass(cls):
        cls.host.close()

    CONTENT = {
        "version": "lookups-1",
        "detections": [
            {
                "id": "Office",
                "analysisType": "rule",
                "severity": "Low",
                "logTypes": ["T"],
                "body": (
                    "def rule(event):\n"
                    "    row = event.lookup('networks', event.get('ip'))\n"
                    "    return bool(row) and row.get('site') == 'office'\n"
                    "def title(event):\n"
                    "    return 'site ' + str(event.lookup('networks', event.get('ip')))\n"
                ),
            }
        ],
    }
    EVENTS = [{"p_log_type": "T", "ip": "10.1.2.3"}, {"p_log_type": "T", "ip": "10.9.9.9"}]

    def test_the_tables_passed_with_a_run_answer_event_lookup_in_the_sandbox(self):
        result = self.host.run(self.CONTENT, self.EVENTS, lookups=TABLES)
        matched = [[r["id"] for r in per_event if r.get("matched")] for per_event in result["results"]]
        self.assertEqual(matched, [["Office"], []])
        self.assertIn("office", result["results"][0][0]["title"])

    def test_without_tables_event_lookup_reads_only_mocks(self):
        result = self.host.run(self.CONTENT, self.EVENTS)
        self.assertEqual([r for per_event in result["results"] for r in per_event if r.get("matched")], [])
        mocked = [{"p_log_type": "T", "ip": "x", "_mocked_lookup_data_": {"networks": {"x": {"site": "office"}}}}]
        result = self.host.run(self.CONTENT, mocked)
        self.assertEqual([r["id"] for r in result["results"][0] if r.get("matched")], ["Office"])


class HandlerLookupTest(unittest.TestCase):
    def test_the_lambda_passes_a_requests_lookups_to_the_run(self):
        from tests.engine.test_handler import load_handler

        handler = load_handler(self)
        out = handler.handler({"content": LiveLookupTest.CONTENT, "events": LiveLookupTest.EVENTS, "lookups": TABLES})
        self.assertEqual([[r["id"] for r in per_event if r.get("matched")] for per_event in out["results"]], [["Office"], []])


if __name__ == "__main__":
    unittest.main()
