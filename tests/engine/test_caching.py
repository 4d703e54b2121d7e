"""panther_detection_helpers.caching over the key-value stores, with TTLs."""

import time
import unittest

from caracal_engine import kv
from panther_detection_helpers import caching


class CachingHelpersTest(unittest.TestCase):
    def setUp(self):
        self.now = [time.time()]
        self.store = kv.MemoryStore(clock=lambda: self.now[0])
        self.previous = kv.store()
        kv.use_store(self.store)

    def tearDown(self):
        kv.use_store(self.previous)

    def test_counters(self):
        self.assertEqual(caching.get_counter("c"), 0)
        self.assertEqual(caching.increment_counter("c"), 1)
        self.assertEqual(caching.increment_counter("c", 5), 6)
        self.assertEqual(caching.get_counter("c"), 6)
        caching.reset_counter("c")
        self.assertEqual(caching.get_counter("c"), 0)

    def test_string_sets(self):
        self.assertEqual(caching.get_string_set("s"), set())
        self.assertEqual(caching.add_to_string_set("s", "a"), {"a"})
        self.assertEqual(caching.add_to_string_set("s", ["b", "c"]), {"a", "b", "c"})
        self.assertEqual(caching.remove_from_string_set("s", "b"), {"a", "c"})
        caching.put_string_set("s", ["z"])
        self.assertEqual(caching.get_string_set("s"), {"z"})
        caching.reset_string_set("s")
        self.assertEqual(caching.get_string_set("s"), set())
        self.assertFalse(caching.check_account_age("s"))
        caching.add_to_string_set("acct", "1")
        self.assertTrue(caching.check_account_age("acct"))

    def test_dictionaries(self):
        caching.put_dictionary("d", {"a": [1, 2]})
        self.assertEqual(caching.get_dictionary("d"), {"a": [1, 2]})
        self.assertEqual(caching.get_dictionary("missing"), {})
        with self.assertRaises(TypeError):
            caching.put_dictionary("d", ["not", "a", "dict"])
        with self.assertRaises(ValueError):
            caching.put_dictionary("d", {"a": {1, 2}})

    def test_relative_and_absolute_expiry(self):
        caching.increment_counter("short", epoch_seconds=60)
        caching.increment_counter("absolute", epoch_seconds=int(self.now[0]) + 7200)
        caching.increment_counter("default")
        self.now[0] += 3600
        self.assertEqual(caching.get_counter("short"), 0)
        self.assertEqual(caching.get_counter("absolute"), 1)
        self.assertEqual(caching.get_counter("default"), 1)
        self.assertEqual(caching.increment_counter("short"), 1)

    def test_evaluate_threshold(self):
        self.assertEqual([caching.evaluate_threshold("t", threshold=3) for _ in range(4)], [False, False, True, False])

    def test_ttl_expired(self):
        self.assertTrue(caching.ttl_expired({"Item": {"expiresAt": 1}}))
        self.assertFalse(caching.ttl_expired({"Item": {}}))


class WorkerStoreTest(unittest.TestCase):
    def test_requests_and_decoding(self):
        requests = []

        def answer(request):
            requests.append(request)
            return {"get": {"stringSet": ["a"], "intCount": 2}, "addStrings": ["a", "b"]}.get(request["op"])

        store = kv.WorkerStore(answer)
        self.assertEqual(store.get("k"), {"stringSet": {"a"}, "intCount": 2})
        self.assertEqual(store.add_strings("k", {"b"}), {"a", "b"})
        store.put("k", {"stringSet": {"b", "a"}})
        self.assertEqual(requests[-1], {"op": "put", "key": "k", "item": {"stringSet": ["a", "b"]}})


if __name__ == "__main__":
    unittest.main()
