"""The event object detections receive: read-only, case-insensitive, with data-model (udm) access."""

import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Dict, List, Optional

from .immutable import ImmutableCaseInsensitiveDict, json_encoder
from .jsonpath import compile_path


class PantherError(Exception):
    """A misuse of the event API, such as `udm_path` without a data model."""


class DataModel:
    """Name → JSONPath or Python method mappings for the log types of one data model."""

    def __init__(self, model_id: str, mappings: List[Dict[str, str]], module: Any = None) -> None:
        self.data_model_id = model_id
        self.load_error: Optional[str] = None
        self.paths: Dict[str, Callable[[Any], list]] = {}
        self.path_text: Dict[str, str] = {}
        self.methods: Dict[str, Callable] = {}
        for mapping in mappings:
            name = mapping.get("Name") or mapping.get("name")
            path = mapping.get("Path") or mapping.get("path")
            method = mapping.get("Method") or mapping.get("method")
            if not name:
                raise ValueError(f"DataModel [{model_id}] is missing required field: [Name]")
            if path and method:
                raise ValueError(f"DataModel [{model_id}] mapping [{name}] defines both Path and Method")
            if path:
                self.paths[name] = compile_path(path)
                self.path_text[name] = path
            elif method:
                function = getattr(module, method, None) if module is not None else None
                if not callable(function):
                    raise ValueError(f"DataModel [{model_id}] method [{method}] is not defined in its Filename")
                self.methods[name] = function
            else:
                raise ValueError(f"DataModel [{model_id}] must define one of: [Path, Method]")

    @classmethod
    def failed(cls, model_id: str, error: str) -> "DataModel":
        """The stand-in for a data model that did not load: its log types' udm() and udm_path() raise
        that error, instead of answering None as if the log type had no data model."""
        model = cls(model_id, [])
        model.load_error = error
        return model

    def check_loaded(self) -> None:
        if self.load_error is not None:
            raise PantherError(f"DataModel [{self.data_model_id}] did not load: {self.load_error}")


_EVENT_TIME = re.compile(
    r"^\s*(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*"
    r"(Z|UTC|[+-]\d{2}:?\d{2})?\s*$"
)


def _epoch_seconds(text: str) -> int:
    found = _EVENT_TIME.match(text)
    if not found:
        raise ValueError(text)
    year, month, day, hour, minute, second, _fraction, zone = found.groups()
    moment = datetime(int(year), int(month), int(day), int(hour or 0), int(minute or 0), int(second or 0),
                      tzinfo=timezone.utc)
    if zone and zone not in ("Z", "UTC"):
        sign = 1 if zone[0] == "+" else -1
        digits = zone[1:].replace(":", "")
        moment -= sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
    return int(moment.timestamp())


class PantherEvent(ImmutableCaseInsensitiveDict):
    """An event with `deep_get`, `deep_walk`, `udm`, `udm_path`, `event_time_epoch` and `lookup`."""

    __slots__ = ("data_model", "lookup_function")
    json_encoder = staticmethod(json_encoder)

    def __init__(self, event: Mapping, data_model: Optional[DataModel] = None) -> None:
        super().__init__(event)
        self.data_model = data_model
        self.lookup_function: Optional[Callable[[Any, str, str], Any]] = None

    def lookup(self, lookup_name: str, lookup_key: str) -> Any:
        """Lookup-table data for a key; in tests, read from `_mocked_lookup_data_`."""
        if self.lookup_function is not None:
            return self.lookup_function(self, lookup_name, lookup_key)
        return self.deep_get("_mocked_lookup_data_", lookup_name, lookup_key)

    def deep_get(self, *keys: Any, default: Any = None) -> Any:
        """The value at a nested path, or `default` when any step is missing or the value is None."""
        out: Any = self
        for key in keys:
            if isinstance(out, Mapping):
                out = out.get(key, default)
            else:
                out = default
        return default if out is None else out

    def deep_walk(self, *keys: Any, default: Any = None, return_val: str = "all") -> Any:
        """Like deep_get, but walks into lists; returns the first, last or all distinct values found."""
        return _walk(self._container, keys, default, return_val)

    def udm(self, *key: str, default: Any = None) -> Any:
        """A data-model field by name, else `p_udm.<key>`, else the event's own key path."""
        model = self.data_model
        if model is not None:
            model.check_loaded()
        if len(key) == 1 and model is not None:
            name = key[0]
            if name in model.paths:
                found = self._path_match(name)
                return default if found is None else self._wrap(found[1])
            if name in model.methods:
                return self._wrap(model.methods[name](ImmutableCaseInsensitiveDict(self._container)))
        if key:
            result = self.deep_get("p_udm", *key)
            if not result:
                result = self.deep_get(*key)
            if result:
                return result
        return default

    def udm_path(self, key: str) -> Optional[str]:
        """The JSON path (or method name) a data-model field maps to for this event."""
        if self.data_model is None:
            raise PantherError(f"a data model hasn't been specified for log type: [{self._container.get('p_log_type')}]")
        self.data_model.check_loaded()
        if key in self.data_model.paths:
            found = self._path_match(key)
            return None if found is None else found[0]
        method = self.data_model.methods.get(key)
        if method is not None:
            return getattr(method, "__name__", repr(method))
        return None

    def _path_match(self, name: str) -> Optional[tuple]:
        assert self.data_model is not None
        matches = self.data_model.paths[name](self._container)
        if not matches:
            return None
        if len(matches) > 1:
            raise Exception(  # pylint: disable=broad-exception-raised
                f"JSONPath [{self.data_model.path_text[name]}] in DataModel "
                f"[{self.data_model.data_model_id}], matched multiple fields."
            )
        return matches[0]

    def event_time_epoch(self, force_utc: bool = True) -> int:
        """Epoch seconds of `p_event_time`, or 0 when it is missing or unparsable."""
        del force_utc
        try:
            return _epoch_seconds(str(self._container.get("p_event_time") or ""))
        except ValueError:
            return 0

    def to_dict(self) -> dict:
        return self.copy()


def _walk(obj: Any, keys: tuple, default: Any, return_val: str) -> Any:
    def empty_list(value: Any) -> bool:
        return isinstance(value, (list, tuple)) and all(empty_list(v) for v in value)

    if not keys:
        return default if obj is None or empty_list(obj) else obj
    if isinstance(obj, Mapping):
        child = _case_insensitive_get(obj, keys[0], default)
        return default if child is None else _walk(child, keys[1:], default, return_val)
    found: Dict[Any, None] = {}
    if isinstance(obj, Sequence) and not isinstance(obj, str):
        for item in obj:
            value = _walk(item, keys, default, return_val)
            if value is None:
                continue
            if isinstance(value, Sequence) and not isinstance(value, str):
                for sub in value:
                    found[sub] = None
            else:
                found[value] = None
    values = list(found)
    if not values:
        return default
    return {"first": values[0], "last": values[-1], "all": values[0] if len(values) == 1 else values}.get(
        return_val, "all"
    )


def _case_insensitive_get(mapping: Mapping, key: Any, default: Any) -> Any:
    if key in mapping:
        return mapping[key]
    if isinstance(key, str):
        lowered = key.lower()
        for original in mapping:
            if isinstance(original, str) and original.lower() == lowered:
                return mapping[original]
    return default
