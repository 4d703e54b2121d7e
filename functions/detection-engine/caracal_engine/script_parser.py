"""The `script` parser of custom schemas: a user's `def parse(log):` run over a batch of raw log lines.

`parse(log)` gets one line (text) and returns a dict (one event), a list of dicts (several events) or
None (the line is dropped). Each line gets its own result: {"events": [...]} or {"error": "..."}; an
exception, a wrong return value, output too large or a call past the time limit fail that line only.
When the batch's output grows past its budget, or the batch runs past its time budget, the remaining
lines are answered {"deferred": true} and the caller sends them again in a later batch, so no line is
lost, no response grows unbounded and no batch runs into the Lambda timeout. It runs in a sandbox
process of its own (see sandbox.py), discarded after the call.
"""

import contextlib
import inspect
import io
import json
import time
from types import FunctionType
from typing import Any, Callable, Dict, List, MutableSequence, Optional

from .guard import DetectionTimeout, Watchdog

SIGNATURE_MESSAGE = "Must be a Python function with the signature `def parse(log):`"
DEFAULT_TIME_LIMIT_SECONDS = 2.0
MAX_EVENT_OUTPUT_BYTES = 1024 * 1024
MAX_BATCH_OUTPUT_BYTES = 4 * 1024 * 1024
# Past this much time a batch defers its remaining lines, so a slow script never runs into the Lambda timeout.
MAX_BATCH_SECONDS = 30.0
MAX_EVENTS_PER_LINE = 10_000
MAX_FUNCTION_CHARACTERS = 100_000


class ScriptError(Exception):
    """The function cannot be used at all (syntax, wrong signature, failing module body)."""


class ScriptParsers:
    """Runs parse functions under a per-line time limit and a per-batch time budget."""

    def __init__(self, time_limit_seconds: float = DEFAULT_TIME_LIMIT_SECONDS, batch_seconds: float = MAX_BATCH_SECONDS) -> None:
        self.watchdog = Watchdog(time_limit_seconds)
        self.limit = time_limit_seconds
        self.batch_seconds = batch_seconds

    def function(self, source: Any) -> FunctionType:
        if not isinstance(source, str) or not source.strip():
            raise ScriptError(SIGNATURE_MESSAGE)
        if len(source) > MAX_FUNCTION_CHARACTERS:
            raise ScriptError(f"the parse function is {len(source)} characters long, more than the limit of {MAX_FUNCTION_CHARACTERS}")
        try:
            code = compile(source, "<parse>", "exec")
        except SyntaxError as error:
            raise ScriptError(f"SyntaxError: {error.msg} (line {error.lineno})") from None
        namespace: Dict[str, Any] = {"__name__": "caracal_script_parser"}
        try:
            with self.watchdog, _quiet():
                self.watchdog.call(lambda ns: exec(code, ns), namespace)  # pylint: disable=exec-used - the user's parser
        except DetectionTimeout:
            raise ScriptError(f"the parse function's module body exceeded the time limit of {self.limit:g}s") from None
        except Exception as error:  # pylint: disable=broad-except - user code
            raise ScriptError(f"{type(error).__name__}: {error}") from None
        parse = namespace.get("parse")
        if not isinstance(parse, FunctionType) or not _takes_one_argument(parse):
            raise ScriptError(SIGNATURE_MESSAGE)
        return parse

    def parse(self, source: Any, logs: Any, start: int = 0, budget: int = MAX_BATCH_OUTPUT_BYTES,
              on_line: Optional[Callable[[int, Dict[str, Any], int], None]] = None,
              progress: Optional[MutableSequence[int]] = None) -> Dict[str, Any]:
        """Run the function over `logs` (a list of strings) from line `start` on; {"results": [...]} in the
        same order, or {"error": "..."} when the function itself is unusable. `budget` is the output (bytes)
        the lines may still produce, `on_line(index, result, size)` hears each line's result as it is made
        and `progress[0]` holds the line being parsed."""
        if not isinstance(logs, list):
            return {"error": "logs must be a list of strings"}
        try:
            parse = self.function(source)
        except ScriptError as error:
            return {"error": str(error)}
        results: List[Dict[str, Any]] = []
        deadline = time.monotonic() + self.batch_seconds
        captured = io.StringIO()
        parsed_any = start > 0
        with self.watchdog, contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
            for index in range(start, len(logs)):
                if progress is not None:
                    progress[0] = index
                result: Dict[str, Any] = {"deferred": True}
                size = 0
                if budget > 0 and not (parsed_any and time.monotonic() >= deadline):
                    result = self._one(parse, logs[index])
                    size = result.pop("_size", 0)
                    if size > budget and parsed_any:
                        result, size = {"deferred": True}, 0
                if "deferred" in result:
                    budget = 0
                budget -= size
                parsed_any = True
                results.append(result)
                if on_line is not None:
                    on_line(index, result, size)
                captured.seek(0)
                captured.truncate()
        return {"results": results}

    def _one(self, parse: FunctionType, log: Any) -> Dict[str, Any]:
        if not isinstance(log, str):
            return {"error": "a log must be text"}
        try:
            output = self.watchdog.call(parse, log)
        except DetectionTimeout:
            return {"error": f"parse exceeded its time limit of {self.limit:g}s"}
        except RecursionError:
            return {"error": "RecursionError: maximum recursion depth exceeded"}
        except Exception as error:  # pylint: disable=broad-except - user code fails one line only
            return {"error": f"{type(error).__name__}: {error}"}
        return _events(output)


def _events(output: Any) -> Dict[str, Any]:
    if output is None:
        return {"events": []}
    if isinstance(output, dict):
        events = [output]
    elif isinstance(output, list):
        if len(output) > MAX_EVENTS_PER_LINE:
            return {"error": f"parse returned {len(output)} events for one line, more than the limit of {MAX_EVENTS_PER_LINE}"}
        bad = next((item for item in output if not isinstance(item, dict)), None)
        if bad is not None:
            return {"error": f"parse must return a dict, a list of dicts or None; the list holds a {type(bad).__name__}"}
        events = output
    else:
        return {"error": f"parse must return a dict, a list of dicts or None, not {type(output).__name__}"}
    try:
        text = json.dumps(events, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        return {"error": f"parse returned a value that is not JSON: {error}"}
    except RecursionError:
        return {"error": "parse returned a value nested too deeply"}
    if len(text) > MAX_EVENT_OUTPUT_BYTES:
        return {"error": f"parse returned {len(text)} bytes for one line, more than the limit of {MAX_EVENT_OUTPUT_BYTES}"}
    return {"events": json.loads(text), "_size": len(text)}


def _takes_one_argument(function: FunctionType) -> bool:
    try:
        params = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return False
    required = [p for p in params if p.default is inspect.Parameter.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)]
    return len(required) == 1 and len(positional) >= 1 and params[0].name == "log"


@contextlib.contextmanager
def _quiet() -> Any:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        yield

