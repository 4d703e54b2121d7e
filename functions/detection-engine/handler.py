"""The detection-engine Lambda, the sandbox's host (see caracal_engine/host.py):

    {"content": {...}, "events": [...], "detectionIds"?: [...], "lookups"?: {table: {keyType, rows}}}
        → {"load", "results": [[...], ...], "stdout"?}  (lookups answer event.lookup; see caracal_engine/lookups.py)
    the same with "eventsJson": "[{...},...]" and "eventCount" instead of "events" (the detections function's
        form: the runtime reads one string, and the sandbox decodes the events; see caracal_engine/events_json.py)
    {"content": {...}, "test": {"detectionId", "tests"}}         → {"load", "tests": [...]}
    {"parse": {"function": "def parse(log): ...", "logs": [...]}} → {"results": [...]} or {"error": "..."}
    {"check": {"items": [...]}}                                    → {"results": [{"id", "errors"}]} (check.py)

User code runs only in sandbox processes, which get nothing of this function's environment (its AWS
credentials included). The caching helpers' key-value table, named by `CARACAL_KV_TABLE`, is reached by
this host with boto3 (which ships with the AWS Python runtime) on the sandbox's behalf.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from caracal_engine import kv  # noqa: E402 - needs the path above
from caracal_engine.events_json import EventsJson  # noqa: E402
from caracal_engine.host import Host  # noqa: E402


def _store() -> kv.KeyValueStore:
    table = os.environ.get("CARACAL_KV_TABLE")
    if table:
        try:
            return kv.DynamoStore(table)
        except ImportError:
            print("boto3 is not available: caching helpers keep their state in this process", file=sys.stderr)
    return kv.MemoryStore()


# A sandbox may use three quarters of the function's memory; the rest is the host's.
HOST = Host(_store(), memory_mb=int(os.environ.get("AWS_LAMBDA_FUNCTION_MEMORY_SIZE") or 1024) * 3 // 4)


def handler(event, context=None):
    """Run events, unit tests, a script parser or save-time checks; every answer comes before the deadline."""
    deadline = None if context is None else time.monotonic() + context.get_remaining_time_in_millis() / 1000
    if "parse" in event:
        request = event.get("parse") or {}
        return HOST.parse(request.get("function"), request.get("logs"), deadline)
    if "check" in event:
        return HOST.check((event.get("check") or {}).get("items"))
    content = event.get("content") or {}
    test = event.get("test")
    if test:
        # In the warm sandbox: its zygote compiles the content (it never runs user code) and each call's tests run
        # in a child forked for them and discarded after, holding only this content (sandbox.py, Child.run).
        return HOST.test(content, test["detectionId"], test.get("tests") or [], test.get("destinations"), deadline,
                         warm=True)
    events = EventsJson(event["eventsJson"], event.get("eventCount")) if "eventsJson" in event else event.get("events") or []
    return HOST.run(content, events, event.get("detectionIds"), deadline, event.get("lookups"))
