"""panther_detection_helpers.caching over the key-value stores, with TTLs; the host's checks of the
sandbox's key-value requests; the DynamoDB store against the table's key design and the engine role's
key prefix."""

import copy
import time
import unittest
from decimal import Decimal

from caracal_engine import kv
from caracal_engine.host import MAX_KEY_BYTES, KeyValueRequestError, KeyValueService
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


class KeyValueServiceTest(unittest.TestCase):
    def setUp(self):
        self.service = KeyValueService(kv.MemoryStore())

    def test_serves_the_caching_operations_as_json(self):
        self.assertEqual(self.service({"op": "increment", "key": "c", "amount": 2}), 2)
        self.assertEqual(self.service({"op": "addStrings", "key": "s", "values": ["b", "a"]}), ["a", "b"])
        self.assertEqual(self.service({"op": "removeStrings", "key": "s", "values": ["a"]}), ["b"])
        self.service({"op": "put", "key": "d", "item": {"dictionary": "{}", "stringSet": ["x"]}})
        self.assertEqual(self.service({"op": "get", "key": "d"}), {"dictionary": "{}", "stringSet": ["x"]})
        self.service({"op": "setExpiry", "key": "d", "expiresAt": int(time.time()) + 60})
        self.service({"op": "clearStrings", "key": "d"})
        self.assertNotIn("stringSet", self.service({"op": "get", "key": "d"}))

    def test_refuses_malformed_requests(self):
        for request, message in [
            ("nope", "must be an object"),
            ({"op": "drop", "key": "k"}, "unknown key-value operation 'drop'"),
            ({"op": "get"}, "a key must be text"),
            ({"op": "get", "key": ""}, "a key must be text"),
            ({"op": "get", "key": "k" * (MAX_KEY_BYTES + 1)}, "a key must be text"),
            ({"op": "increment", "key": "k", "amount": True}, "amount must be a whole number"),
            ({"op": "increment", "key": "k", "amount": 1.5}, "amount must be a whole number"),
            ({"op": "increment", "key": "k", "amount": 10**20}, "amount must be a whole number"),
            ({"op": "setExpiry", "key": "k", "expiresAt": -1}, "expiresAt must be a whole number"),
            ({"op": "put", "key": "k", "item": {"table": "entities"}}, "an item holds only"),
            ({"op": "put", "key": "k", "item": {"dictionary": {"a": 1}}}, "dictionary must be JSON text"),
            ({"op": "addStrings", "key": "k", "values": [1]}, "values must be a list of strings"),
            ({"op": "addStrings", "key": "k", "values": ["x" * 400_000]}, "values larger than"),
        ]:
            with self.subTest(request=request):
                with self.assertRaises(KeyValueRequestError) as caught:
                    self.service(request)
                self.assertIn(message, str(caught.exception))


class Table:
    """The part of boto3's DynamoDB Table the store uses, keyed (pk, sk) as the key-value table is, and
    refusing keys outside the engine role's prefix as its dynamodb:LeadingKeys condition does. Numbers come
    back as Decimal, string sets as sets, as boto3 gives them."""

    def __init__(self):
        self.items = {}

    def _key(self, key):
        if set(key) != {"pk", "sk"}:
            raise ValueError("ValidationException: The provided key element does not match the schema")
        if not key["pk"].startswith("CACHE#"):
            raise PermissionError("AccessDeniedException: dynamodb:LeadingKeys")
        return key["pk"], key["sk"]

    def get_item(self, Key, ConsistentRead):  # pylint: disable=invalid-name - boto3's parameter names
        del ConsistentRead
        item = self.items.get(self._key(Key))
        return {"Item": copy.deepcopy(item)} if item else {}

    def put_item(self, Item):  # pylint: disable=invalid-name
        if any(isinstance(v, set) and not v for v in Item.values()):
            raise ValueError("ValidationException: an empty set is not allowed")
        self.items[self._key({"pk": Item["pk"], "sk": Item["sk"]})] = {k: Decimal(v) if isinstance(v, int) else v for k, v in Item.items()}

    def delete_item(self, Key, ConditionExpression, ExpressionAttributeValues):  # pylint: disable=invalid-name
        assert ConditionExpression == "expiresAt = :e"
        key = self._key(Key)
        if key in self.items and self.items[key].get("expiresAt") == ExpressionAttributeValues[":e"]:
            del self.items[key]

    def update_item(self, Key, UpdateExpression, ExpressionAttributeNames, ReturnValues,  # pylint: disable=invalid-name
                    ExpressionAttributeValues=None):
        assert ReturnValues == "ALL_NEW"
        key = self._key(Key)
        item = self.items.setdefault(key, {"pk": key[0], "sk": key[1]})
        verb, name, *rest = UpdateExpression.replace(" = ", " ").split()
        attribute = ExpressionAttributeNames[name]
        value = (ExpressionAttributeValues or {}).get(rest[0]) if rest else None
        if verb == "ADD" and isinstance(value, set):
            item[attribute] = item.get(attribute, set()) | value
        elif verb == "ADD":
            item[attribute] = item.get(attribute, Decimal(0)) + value
        elif verb == "DELETE":
            item[attribute] = item.get(attribute, set()) - value
            if not item[attribute]:
                del item[attribute]
        elif verb == "SET":
            item[attribute] = Decimal(value)
        elif verb == "REMOVE":
            item.pop(attribute, None)
        return {"Attributes": copy.deepcopy(item)}


class DynamoStoreTest(unittest.TestCase):
    def setUp(self):
        self.table = Table()
        self.store = kv.DynamoStore("kv", self.table)

    def test_keys_carry_the_prefix_the_engine_role_is_limited_to(self):
        self.store.increment("logins", 2)
        self.assertEqual(list(self.table.items), [("CACHE#logins", "CACHE")])
        self.assertEqual(self.store.get("logins"), {"intCount": 2})

    def test_counters_sets_and_dictionaries(self):
        self.assertEqual(self.store.increment("c", 2), 2)
        self.assertEqual(self.store.increment("c", 3), 5)
        self.assertEqual(self.store.add_strings("s", {"b", "a"}), {"a", "b"})
        self.assertEqual(self.store.remove_strings("s", {"a"}), {"b"})
        self.assertEqual(self.store.add_strings("s", set()), {"b"})
        self.store.put("d", {"dictionary": '{"x": 1}', "stringSet": set()})
        self.assertEqual(self.store.get("d"), {"dictionary": '{"x": 1}'})
        self.store.set_expiry("d", 4_000_000_000)
        self.assertEqual(self.store.get("d")["expiresAt"], 4_000_000_000)
        self.store.clear_strings("s")
        self.assertEqual(self.store.get("s"), {})

    def test_an_expired_item_reads_as_missing_and_lends_nothing_to_a_write(self):
        self.table.put_item(Item={"pk": "CACHE#old", "sk": "CACHE", "intCount": 9, "stringSet": {"a"}, "expiresAt": 1})
        self.assertEqual(self.store.get("old"), {})
        self.table.put_item(Item={"pk": "CACHE#old", "sk": "CACHE", "intCount": 9, "expiresAt": 1})
        self.assertEqual(self.store.increment("old", 1), 1)
        self.table.put_item(Item={"pk": "CACHE#set", "sk": "CACHE", "stringSet": {"a"}, "expiresAt": 1})
        self.assertEqual(self.store.add_strings("set", {"b"}), {"b"})


if __name__ == "__main__":
    unittest.main()
