"""Counters, string sets and dictionaries with TTL, for detections that keep state across events.

Same functions and semantics as the reference helpers; the storage is the engine's key-value store
(`caracal_engine.kv`): in memory for tests, the DynamoDB table on AWS and locally.
"""

import json
import time
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Optional, Sequence, Set, Union

from caracal_engine import kv

_DEFAULT_TTL_SECONDS = 90 * 24 * 60 * 60
_RELATIVE_TTL_LIMIT = 604801


def _now() -> float:
    return datetime.now().timestamp()


def ttl_expired(response: dict) -> bool:
    """Whether a `{"Item": {...}}` response is past its `expiresAt`."""
    expiration = response.get("Item", {}).get("expiresAt", 0)
    return bool(expiration) and float(expiration) <= _now()


def get_counter(key: str, force_ttl_check: bool = False) -> int:
    """A counter's value (0 when it does not exist or has expired)."""
    del force_ttl_check
    return int(kv.store().get(key).get("intCount", 0))


def increment_counter(key: str, val: int = 1, epoch_seconds: Optional[int] = None) -> int:
    """Add `val` to a counter and return the new value; refreshes its expiry."""
    value = kv.store().increment(key, val)
    set_key_expiration(key, epoch_seconds)
    return value


def reset_counter(key: str) -> None:
    """Set a counter back to 0."""
    kv.store().put(key, {"intCount": 0})


def set_key_expiration(key: str, epoch_seconds: Optional[Union[int, float, str]]) -> None:
    """Expire the key at `epoch_seconds` (values under a week are taken as seconds from now;
    None means 90 days from now)."""
    if isinstance(epoch_seconds, str):
        epoch_seconds = float(epoch_seconds)
    if isinstance(epoch_seconds, float):
        epoch_seconds = int(epoch_seconds)
    if not isinstance(epoch_seconds, int) or isinstance(epoch_seconds, bool):
        epoch_seconds = int(_now()) + _DEFAULT_TTL_SECONDS
    if epoch_seconds < _RELATIVE_TTL_LIMIT:
        epoch_seconds = int(_now()) + epoch_seconds
    kv.store().set_expiry(key, epoch_seconds)


def put_dictionary(key: str, val: dict, epoch_seconds: Optional[int] = None) -> None:
    """Store a JSON-serialisable dictionary under `key`."""
    if not isinstance(val, (dict, Mapping)):
        raise TypeError("panther_oss_helpers.put_dictionary: value is not a dictionary")
    try:
        data = json.dumps(val)
    except TypeError as exc:
        raise ValueError(
            "panther_oss_helpers.put_dictionary: value is a dictionary, but it is not JSON serializable"
        ) from exc
    kv.store().put(key, {"dictionary": data})
    set_key_expiration(key, epoch_seconds)


def get_dictionary(key: str, force_ttl_check: bool = False) -> dict:
    """The dictionary stored under `key` ({} when missing or expired)."""
    del force_ttl_check
    item = kv.store().get(key).get("dictionary")
    if not item:
        return {}
    try:
        return json.loads(item)
    except json.JSONDecodeError as exc:
        raise ValueError(
            "panther_oss_helpers.get_dictionary: Data found in DynamoDB could not be decoded into JSON"
        ) from exc


def get_string_set(key: str, force_ttl_check: bool = False) -> Set[str]:
    """The string set under `key` (empty when missing or expired)."""
    del force_ttl_check
    return set(kv.store().get(key).get("stringSet", set()))


def put_string_set(key: str, val: Sequence[str], epoch_seconds: Optional[int] = None) -> None:
    """Replace the string set under `key`."""
    if not val:
        reset_string_set(key)
    else:
        kv.store().put(key, {"stringSet": set(val)})
    set_key_expiration(key, epoch_seconds)


def add_to_string_set(key: str, val: Union[str, Sequence[str]], epoch_seconds: Optional[int] = None) -> Set[str]:
    """Add one or more strings; returns the new set."""
    values = {val} if isinstance(val, str) else set(val)
    if not values:
        return get_string_set(key)
    result = kv.store().add_strings(key, values)
    set_key_expiration(key, epoch_seconds)
    return result


def remove_from_string_set(key: str, val: Union[str, Sequence[str]], epoch_seconds: Optional[int] = None) -> Set[str]:
    """Remove one or more strings; returns the new set."""
    values = {val} if isinstance(val, str) else set(val)
    if not values:
        return get_string_set(key)
    result = kv.store().remove_strings(key, values)
    set_key_expiration(key, epoch_seconds)
    return result


def reset_string_set(key: str) -> None:
    """Empty the string set under `key`."""
    kv.store().clear_strings(key)


def evaluate_threshold(key: str, threshold: int = 10, expiry_seconds: int = 3600) -> bool:
    """Count an occurrence; True (and reset) once the count reaches `threshold`."""
    count = increment_counter(key)
    if count == 1:
        set_key_expiration(key, int(time.time()) + expiry_seconds)
    elif count >= threshold:
        reset_counter(key)
        return True
    return False


def check_account_age(key: Any) -> bool:
    """Whether a string set exists for `key` (set by account-creation indicator rules)."""
    if isinstance(key, str) and key != "":
        return bool(get_string_set(key))
    return False
