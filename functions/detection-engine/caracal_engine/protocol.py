"""The local worker's protocol (worker.py): one JSON request per line in, one JSON response per line out.

Requests: {"id", "op": "load" | "run" | "test" | "parse" | "ping", ...}; "load" takes "content" (the
worker keeps it for the requests after) and "mocks" (true: unit tests with Mocks follow; see Host.prepare),
"run" takes "events" (or "eventsJson", their JSON array's text, and "eventCount": see events_json.py) and
optional "detectionIds", "test" takes
"detectionId", "tests" and an optional "destinations" list of known destination names, "testMany" takes
"detections" ([{"detectionId", "tests"}], all tested in one sandbox child, one after another, as a live
run's detections: see sandbox.py) and "destinations" and answers {"detections": one entry per detection, its
verdicts or {"error"}; "loadErrors": [{"id", "error"}] of the helpers, data models and detections that failed to
load} (one round trip and one child for many detections), "parse" takes a
script parser's "function" source and "logs" (see script_parser.py). Responses: {"id", "ok": true,
"result"} or {"id", "ok": false, "error"}. The worker is a sandbox host (host.py): user code runs in its
sandbox processes, and the caching helpers' state lives in the worker's memory.
"""

import json
from typing import IO, Any, Dict, List, Mapping, Optional

from .events_json import EventsJson
from .host import Host, sourced


class Worker:
    """Serves requests from `reader` on `writer` (the process's protocol channel)."""

    def __init__(self, reader: IO[str], writer: IO[str], host: Host) -> None:
        self.reader = reader
        self.writer = writer
        self.host = host
        self.loads = 0
        self.content: Optional[Dict[str, Any]] = None

    def send(self, message: Mapping) -> None:
        self.writer.write(json.dumps(message, separators=(",", ":"), default=str) + "\n")
        self.writer.flush()

    def loaded(self) -> Dict[str, Any]:
        if self.content is None:
            raise ValueError("no content is loaded")
        return self.content

    def handle(self, request: Mapping) -> Any:
        op = request.get("op")
        if op == "ping":
            return "pong"
        if op == "load":
            self.loads += 1
            # Sources are read once here, not again on each later request.
            self.content = sourced({**(request.get("content") or {}), "version": f"worker:{self.loads}"})
            return self.host.prepare(self.content, bool(request.get("mocks")))
        if op == "run":
            events = request.get("events") or []
            if "eventsJson" in request:
                events = EventsJson(request["eventsJson"], request.get("eventCount"))
            return self.host.run(self.loaded(), events, request.get("detectionIds"), lookups=request.get("lookups"))
        if op == "test":
            tests = request.get("tests") or []
            return self.host.test(self.loaded(), request["detectionId"], tests, request.get("destinations"), warm=True)["tests"]
        if op == "testMany":
            return self.test_many(request.get("detections") or [], request.get("destinations"))
        if op == "parse":
            return self.host.parse(request.get("function"), request.get("logs"))
        raise ValueError(f"unknown op {op!r}")

    def test_many(self, detections: Any, destinations: Any) -> Dict[str, Any]:
        """Each detection's verdicts, or {"error"}, all of them tested in one sandbox child (host.test_many): a
        malformed entry fails alone, and so does a detection whose test kills its child; and the load errors the
        tests met (a helper or data model whose module failed is otherwise seen only as a wrong result)."""
        if not isinstance(detections, list):
            raise ValueError("detections must be a list of {detectionId, tests}")
        answers: List[Any] = [None] * len(detections)
        valid: List[int] = []
        for index, detection in enumerate(detections):
            if not isinstance(detection, Mapping) or not isinstance(detection.get("detectionId"), str):
                answers[index] = {"error": "ValueError: each detection needs a detectionId"}
            elif not isinstance(detection.get("tests") or [], list):
                answers[index] = {"error": "ValueError: a detection's tests must be a list"}
            else:
                valid.append(index)
        load_errors: List[Any] = []
        if valid:
            chosen = [(detections[i]["detectionId"], detections[i].get("tests") or []) for i in valid]
            try:
                out = self.host.test_many(self.loaded(), chosen, destinations, warm=True)
                verdicts, load_errors = out["detections"], out["load"]["errors"]
            except Exception as error:  # pylint: disable=broad-except - answered for each detection of the request
                verdicts = [{"error": f"{type(error).__name__}: {error}"}] * len(valid)
            for index, answer in zip(valid, verdicts):
                answers[index] = answer
        return {"detections": answers, "loadErrors": load_errors}

    def serve(self) -> None:
        for line in self.reader:
            if not line.strip():
                continue
            request_id = None
            try:
                request = json.loads(line)
                request_id = request.get("id")
                self.send({"id": request_id, "ok": True, "result": self.handle(request)})
            except Exception as error:  # pylint: disable=broad-except - one bad request must not end the worker
                self.send({"id": request_id, "ok": False, "error": f"{type(error).__name__}: {error}"})
        self.host.close()
