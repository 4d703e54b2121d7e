"""Key-value stores behind `panther_detection_helpers.caching`.

An item is a dict that may hold `intCount` (int), `stringSet` (set of str), `dictionary` (JSON text)
and `expiresAt` (epoch seconds). Expired items read as missing, whatever the backend's TTL sweeper
has done. Three backends: `MemoryStore` (unit tests, and the host when it has no table), `WorkerStore`
(inside a sandbox: each call is a request on its channel, answered by the host, see host.py) and
`DynamoStore` (the host's side of the key-value table, through boto3, which the AWS Python runtime
provides).
"""

import time
from typing import Any, Callable, Dict, Iterable, Optional, Set


class KeyValueStore:
    """The operations the caching helpers need; every backend implements them."""

    def get(self, key: str) -> Dict[str, Any]:
        raise NotImplementedError

    def increment(self, key: str, amount: int) -> int:
        raise NotImplementedError

    def put(self, key: str, item: Dict[str, Any]) -> None:
        raise NotImplementedError

    def set_expiry(self, key: str, epoch_seconds: int) -> None:
        raise NotImplementedError

    def add_strings(self, key: str, values: Iterable[str]) -> Set[str]:
        raise NotImplementedError

    def remove_strings(self, key: str, values: Iterable[str]) -> Set[str]:
        raise NotImplementedError

    def clear_strings(self, key: str) -> None:
        raise NotImplementedError


def _expired(item: Dict[str, Any], now: float) -> bool:
    expires = item.get("expiresAt")
    return bool(expires) and float(expires) <= now


class MemoryStore(KeyValueStore):
    """A process-local store; `clock` is injectable for TTL tests."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.items: Dict[str, Dict[str, Any]] = {}
        self.clock = clock

    def _item(self, key: str) -> Dict[str, Any]:
        item = self.items.get(key)
        if item is None or _expired(item, self.clock()):
            item = {}
            self.items[key] = item
        return item

    def get(self, key: str) -> Dict[str, Any]:
        item = self.items.get(key)
        if item is None or _expired(item, self.clock()):
            return {}
        return {k: (set(v) if isinstance(v, set) else v) for k, v in item.items()}

    def increment(self, key: str, amount: int) -> int:
        item = self._item(key)
        item["intCount"] = int(item.get("intCount", 0)) + amount
        return item["intCount"]

    def put(self, key: str, item: Dict[str, Any]) -> None:
        self.items[key] = dict(item)

    def set_expiry(self, key: str, epoch_seconds: int) -> None:
        self._item(key)["expiresAt"] = epoch_seconds

    def add_strings(self, key: str, values: Iterable[str]) -> Set[str]:
        item = self._item(key)
        current = item.setdefault("stringSet", set())
        current.update(values)
        return set(current)

    def remove_strings(self, key: str, values: Iterable[str]) -> Set[str]:
        item = self._item(key)
        current = item.setdefault("stringSet", set())
        current.difference_update(values)
        return set(current)

    def clear_strings(self, key: str) -> None:
        self._item(key).pop("stringSet", None)


class WorkerStore(KeyValueStore):
    """Forwards each operation as a `kv` request on the worker protocol and waits for its answer."""

    def __init__(self, request: Callable[[Dict[str, Any]], Any]) -> None:
        self.request = request

    def get(self, key: str) -> Dict[str, Any]:
        item = self.request({"op": "get", "key": key}) or {}
        if "stringSet" in item:
            item["stringSet"] = set(item["stringSet"])
        return item

    def increment(self, key: str, amount: int) -> int:
        return int(self.request({"op": "increment", "key": key, "amount": amount}))

    def put(self, key: str, item: Dict[str, Any]) -> None:
        encoded = {k: (sorted(v) if isinstance(v, set) else v) for k, v in item.items()}
        self.request({"op": "put", "key": key, "item": encoded})

    def set_expiry(self, key: str, epoch_seconds: int) -> None:
        self.request({"op": "setExpiry", "key": key, "expiresAt": epoch_seconds})

    def add_strings(self, key: str, values: Iterable[str]) -> Set[str]:
        return set(self.request({"op": "addStrings", "key": key, "values": sorted(values)}) or [])

    def remove_strings(self, key: str, values: Iterable[str]) -> Set[str]:
        return set(self.request({"op": "removeStrings", "key": key, "values": sorted(values)}) or [])

    def clear_strings(self, key: str) -> None:
        self.request({"op": "clearStrings", "key": key})


class DynamoStore(KeyValueStore):
    """The key-value table through boto3. An item's key is `pk` = "CACHE#<key>", `sk` = "CACHE": the engine's
    role may only touch keys with that prefix (a `dynamodb:LeadingKeys` condition)."""

    PREFIX = "CACHE#"
    SORT_KEY = "CACHE"

    def __init__(self, table_name: str, table: Any = None) -> None:
        if table is None:
            import boto3  # pylint: disable=import-outside-toplevel - present in the AWS Lambda Python runtime

            table = boto3.resource("dynamodb").Table(table_name)
        self.table = table

    def _key(self, key: str) -> Dict[str, str]:
        return {"pk": self.PREFIX + key, "sk": self.SORT_KEY}

    def _read(self, key: str) -> Dict[str, Any]:
        """The item, or {} when missing or expired (an expired item is deleted, so no write builds on it)."""
        item = self.table.get_item(Key=self._key(key), ConsistentRead=True).get("Item") or {}
        if _expired(item, time.time()):
            try:
                self.table.delete_item(Key=self._key(key), ConditionExpression="expiresAt = :e",
                                       ExpressionAttributeValues={":e": item["expiresAt"]})
            except Exception:  # pylint: disable=broad-except - the item changed meanwhile: the next write decides
                pass
            return {}
        return item

    def get(self, key: str) -> Dict[str, Any]:
        item = self._read(key)
        out: Dict[str, Any] = {}
        if "intCount" in item:
            out["intCount"] = int(item["intCount"])
        if "stringSet" in item:
            out["stringSet"] = set(item["stringSet"])
        if "dictionary" in item:
            out["dictionary"] = item["dictionary"]
        if "expiresAt" in item:
            out["expiresAt"] = int(item["expiresAt"])
        return out

    def _update(self, key: str, expression: str, names: Dict[str, str], values: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        kwargs: Dict[str, Any] = {
            "Key": self._key(key),
            "UpdateExpression": expression,
            "ExpressionAttributeNames": names,
            "ReturnValues": "ALL_NEW",
        }
        if values:
            kwargs["ExpressionAttributeValues"] = values
        return self.table.update_item(**kwargs).get("Attributes") or {}

    def increment(self, key: str, amount: int) -> int:
        self._read(key)
        return int(self._update(key, "ADD #c :n", {"#c": "intCount"}, {":n": amount})["intCount"])

    def put(self, key: str, item: Dict[str, Any]) -> None:
        stored = {name: value for name, value in item.items() if name != "stringSet"}
        if item.get("stringSet"):
            stored["stringSet"] = set(item["stringSet"])
        self.table.put_item(Item={**self._key(key), **stored})

    def set_expiry(self, key: str, epoch_seconds: int) -> None:
        self._update(key, "SET #t = :t", {"#t": "expiresAt"}, {":t": epoch_seconds})

    def _strings(self, key: str, verb: str, values: Iterable[str]) -> Set[str]:
        current = self._read(key)
        values = set(values)
        if not values:
            return set(current.get("stringSet", set()))
        return set(self._update(key, f"{verb} #s :v", {"#s": "stringSet"}, {":v": values}).get("stringSet", set()))

    def add_strings(self, key: str, values: Iterable[str]) -> Set[str]:
        return self._strings(key, "ADD", values)

    def remove_strings(self, key: str, values: Iterable[str]) -> Set[str]:
        return self._strings(key, "DELETE", values)

    def clear_strings(self, key: str) -> None:
        self._update(key, "REMOVE #s", {"#s": "stringSet"})


_current: KeyValueStore = MemoryStore()


def use_store(store: KeyValueStore) -> None:
    """Select the store the caching helpers use from now on."""
    global _current  # pylint: disable=global-statement
    _current = store


def store() -> KeyValueStore:
    """The store currently in use."""
    return _current

