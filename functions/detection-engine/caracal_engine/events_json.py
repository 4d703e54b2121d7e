"""A run's events as the text of one JSON array: {"eventsJson": "[{...},...]", "eventCount": n} (the detections
function sends the lake's lines so). The host hands the bytes to the sandbox unread and a child decodes them
once (sandbox.py, Child.run); the host decodes them itself only when it needs them (EventsJson.decoded: to blame
a detection whose child died, or when no child decoded them)."""

import json
from typing import Any, List, Optional

_KINDS = {dict: "an object", str: "a string", int: "a number", float: "a number", bool: "a boolean", type(None): "null"}


def decode_events(data: bytes, count: Any) -> List[Any]:
    """The events of a JSON array's text, or a ValueError saying why they are not; `count` is checked by the
    caller (check_count), who may report what was decoded first."""
    try:
        events = json.loads(data)
    except (ValueError, RecursionError) as error:
        raise ValueError(f"eventsJson is not a JSON array of events: {error}") from None
    if not isinstance(events, list):
        raise ValueError(f"eventsJson is not a JSON array of events: it holds {_KINDS.get(type(events), 'a value')}")
    return events


def check_count(decoded: Any, count: int) -> None:
    """A ValueError unless `decoded` events are the `count` the request said."""
    if decoded != count:
        raise ValueError(f"eventsJson holds {decoded} events where eventCount says {count}")


class EventsJson:
    """The events' bytes and count, checked for their form; `decoded` when the host needs them."""

    def __init__(self, text: Any, count: Any) -> None:
        if not isinstance(text, (str, bytes)):
            raise ValueError("eventsJson must be a string holding a JSON array of events")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise ValueError("eventCount must be the number of events in eventsJson")
        self.data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
        self.count = count
        self._decoded: Optional[List[Any]] = None

    def __len__(self) -> int:
        return self.count

    def decoded(self) -> List[Any]:
        """The events, decoded here once; a ValueError when the text is not a JSON array of `count` events."""
        if self._decoded is None:
            events = decode_events(self.data, self.count)
            check_count(len(events), self.count)
            self._decoded = events
        return self._decoded
