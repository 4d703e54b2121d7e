"""Read-only views over decoded JSON: case-insensitive mappings and tuples-backed lists.

Nested values are wrapped lazily, on access, so an event costs nothing for the fields a
detection never reads.
"""

from collections.abc import Mapping, Sequence
from copy import deepcopy
from typing import Any, Dict, Iterator, Optional


class ImmutableContainerMixin:
    """Shared behaviour of the read-only containers."""

    __slots__ = ()
    _container: Any

    def _wrap(self, value: Any) -> Any:
        kind = type(value)
        if kind is dict:
            return ImmutableCaseInsensitiveDict(value)
        if kind is list:
            return ImmutableList(value)
        return value

    def copy(self) -> Any:
        """A deep, mutable copy of the wrapped value."""
        return deepcopy(self._raw())

    def _raw(self) -> Any:
        return self._container

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}({self._container!r})"

    def __len__(self) -> int:
        return len(self._container)


class ImmutableCaseInsensitiveDict(ImmutableContainerMixin, Mapping):
    """A read-only mapping whose string keys match exactly first, then case-insensitively."""

    __slots__ = ("_container", "_lower_keys")

    def __init__(self, container: Mapping) -> None:
        if isinstance(container, ImmutableCaseInsensitiveDict):
            container = container._container
        self._container: Dict[str, Any] = container if type(container) is dict else dict(container)
        self._lower_keys: Optional[Dict[str, str]] = None

    def _original_key(self, key: Any) -> Optional[str]:
        if not isinstance(key, str):
            return None
        keymap = self._lower_keys
        if keymap is None:
            keymap = {}
            for original in self._container:
                if isinstance(original, str):
                    keymap.setdefault(original.lower(), original)
            self._lower_keys = keymap
        return keymap.get(key.lower())

    def __getitem__(self, key: Any) -> Any:
        container = self._container
        if key in container:
            return self._wrap(container[key])
        original = self._original_key(key)
        if original is None:
            raise KeyError(key)
        return self._wrap(container[original])

    def get(self, key: Any, default: Any = None) -> Any:
        container = self._container
        if key in container:
            return self._wrap(container[key])
        original = self._original_key(key)
        if original is None:
            return default
        return self._wrap(container[original])

    def __contains__(self, key: Any) -> bool:
        return key in self._container or self._original_key(key) is not None

    def __iter__(self) -> Iterator:
        return iter(self._container)

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, ImmutableCaseInsensitiveDict):
            return self._container == other._container
        if isinstance(other, Mapping):
            return self._container == dict(other)
        return False

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict:
        """A deep, mutable copy as a plain dict."""
        return self.copy()


class ImmutableList(ImmutableContainerMixin, Sequence):
    """A read-only list."""

    __slots__ = ("_container",)

    def __init__(self, container: Sequence) -> None:
        if isinstance(container, ImmutableList):
            container = container._container
        self._container = tuple(container)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return ImmutableList(self._container[index])
        return self._wrap(self._container[index])

    def __iter__(self) -> Iterator:
        wrap = self._wrap
        return (wrap(item) for item in self._container)

    def __contains__(self, item: Any) -> bool:
        return item in self._container

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, ImmutableList):
            return self._container == other._container
        if isinstance(other, (list, tuple)):
            return self._container == tuple(other)
        return False

    __hash__ = None  # type: ignore[assignment]

    def _raw(self) -> Any:
        return list(self._container)

    def as_list(self) -> list:
        """A deep, mutable copy as a plain list."""
        return self.copy()


def json_encoder(obj: Any) -> Any:
    """`json.dumps(..., default=json_encoder)` support for the read-only containers."""
    if isinstance(obj, ImmutableContainerMixin):
        return obj._raw()
    raise TypeError(f"object of type {type(obj).__name__} is not JSON serializable")
