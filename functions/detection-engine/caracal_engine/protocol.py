"""The worker protocol: one JSON request per line in, one JSON response per line out.

Requests: {"id", "op": "load" | "run" | "test" | "parse" | "ping", ...}; "test" takes "detectionId",
"tests" and an optional "destinations" list of known destination names; "parse" takes a script
parser's "function" source and "logs" (see script_parser.py). Responses:
{"id", "ok": true, "result"} or {"id", "ok": false, "error"}. While a request runs, the engine may
ask the host for key-value operations: it writes {"kv": {...}, "kvId"} and reads back one line
{"kvId", "result"} or {"kvId", "error"} before continuing.
"""

import json
from typing import IO, Any, Dict, Mapping

from . import kv
from .engine import Engine
from .immutable import json_encoder
from .script_parser import script_parsers


def _encode(value: Any) -> Any:
    """Event values inside results (alert context) serialise as plain JSON; anything else as text."""
    try:
        return json_encoder(value)
    except TypeError:
        return str(value)


class KeyValueError(Exception):
    """The host could not perform a key-value operation."""


class Worker:
    """Serves requests from `reader` on `writer` (the process's protocol channel)."""

    def __init__(self, reader: IO[str], writer: IO[str], host_kv: bool) -> None:
        self.reader = reader
        self.writer = writer
        self.engine = Engine()
        self.kv_sequence = 0
        if host_kv:
            kv.use_store(kv.WorkerStore(self.key_value))

    def send(self, message: Mapping) -> None:
        self.writer.write(json.dumps(message, separators=(",", ":"), default=_encode) + "\n")
        self.writer.flush()

    def key_value(self, request: Dict[str, Any]) -> Any:
        self.kv_sequence += 1
        self.send({"kvId": self.kv_sequence, "kv": request})
        line = self.reader.readline()
        if not line:
            raise KeyValueError("the host closed the channel during a key-value request")
        reply = json.loads(line)
        if reply.get("error"):
            raise KeyValueError(str(reply["error"]))
        return reply.get("result")

    def handle(self, request: Mapping) -> Any:
        op = request.get("op")
        if op == "ping":
            return "pong"
        if op == "load":
            return self.engine.load(request.get("content") or {})
        if op == "run":
            return self.engine.run(request.get("events") or [], request.get("detectionIds"))
        if op == "test":
            return self.engine.test(request["detectionId"], request.get("tests") or [], request.get("destinations"))
        if op == "parse":
            return script_parsers().parse(request.get("function"), request.get("logs"))
        raise ValueError(f"unknown op {op!r}")

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
