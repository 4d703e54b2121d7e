"""One detection (rule, scheduled rule, policy or simple detection) and the result of running it.

Semantics follow the reference runtime: the matcher must return exactly a bool; a rule alerts on
True, a policy on False. Auxiliary functions are checked for their return type and capped in
length; in batch mode (live events) their errors fall back to defaults so an alert is never lost,
in test mode they are recorded per function.
"""

import json
import os
import sysconfig
import traceback
from collections.abc import Mapping
from typing import Any, Callable, Dict, List, Optional, Tuple

from .event import PantherEvent
from .guard import DetectionTimeout, Watchdog, call_guarded
from .immutable import json_encoder
from .match import compile_expressions, resolve_first

SEVERITIES = ("INFO", "LOW", "MEDIUM", "HIGH", "CRITICAL")
MAX_DEDUP_STRING_SIZE = 1000
MAX_GENERATED_FIELD_SIZE = 1000
MAX_DESTINATIONS_SIZE = 10
MAX_ALERT_CONTEXT_SIZE = 200 * 1024
TRUNCATED_STRING_SUFFIX = "... (truncated)"
ALERT_CONTEXT_ERROR_KEY = "_error"

AUXILIARY_FUNCTIONS = (
    "title",
    "description",
    "reference",
    "severity",
    "runbook",
    "destinations",
    "dedup",
    "alert_context",
    "unique",
)
CAUGHT = (Exception, SystemExit, DetectionTimeout)
# Frames from these paths (the engine, the standard library) are not the user's code.
_RUNTIME_PATHS = tuple(
    {os.path.dirname(os.path.abspath(__file__)), sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"]}
)


class FunctionReturnTypeError(Exception):
    """A detection function returned a value of the wrong type."""


class UnknownDestinationError(Exception):
    """`destinations()` named destinations that do not exist."""


def truncate(text: str, limit: int) -> str:
    if len(text) > limit:
        return text[: limit - len(TRUNCATED_STRING_SUFFIX)] + TRUNCATED_STRING_SUFFIX
    return text


def describe_error(error: BaseException) -> str:
    """`Type: message`, plus the deepest line of user code when the traceback has one."""
    text = f"{type(error).__name__}: {error}"
    frames = [f for f in traceback.extract_tb(error.__traceback__) if not f.filename.startswith(_RUNTIME_PATHS)]
    if frames:
        last = frames[-1]
        text += f" (at {last.filename.rsplit('/', 1)[-1]}:{last.lineno})"
    return text


class DetectionResult:
    """What one detection produced for one event."""

    __slots__ = (
        "detection_id", "trigger_alert", "detection_output", "setup_exception", "detection_exception",
        "outputs", "exceptions",
    )

    def __init__(self, detection_id: str) -> None:
        self.detection_id = detection_id
        self.trigger_alert = False
        self.detection_output: Any = None
        self.setup_exception: Optional[BaseException] = None
        self.detection_exception: Optional[BaseException] = None
        self.outputs: Dict[str, Any] = {}
        self.exceptions: Dict[str, BaseException] = {}

    @property
    def errored(self) -> bool:
        return self.setup_exception is not None or self.detection_exception is not None or bool(self.exceptions)

    def to_json(self) -> Dict[str, Any]:
        """The result as JSON for the TypeScript side (alert fields only when it alerted)."""
        out: Dict[str, Any] = {"id": self.detection_id, "matched": self.trigger_alert}
        error = self.setup_exception or self.detection_exception
        if error is not None:
            out["error"] = describe_error(error)
        if self.trigger_alert or self.outputs:
            for name, value in self.outputs.items():
                out[_JSON_NAMES[name]] = value
        if self.exceptions:
            out["functionErrors"] = {name: describe_error(e) for name, e in self.exceptions.items()}
        return out


_JSON_NAMES = {
    "title": "title", "description": "description", "reference": "reference", "severity": "severity",
    "runbook": "runbook", "destinations": "destinations", "dedup": "dedup", "alert_context": "alertContext",
    "unique": "unique",
}


def _return_type_error(detection_id: str, function: Callable, value: Any, expected: str) -> FunctionReturnTypeError:
    name = getattr(function, "__name__", "function")
    return FunctionReturnTypeError(
        f"detection [{detection_id}] function [{name}] returned [{type(value).__name__}], expected [{expected}]"
    )


class Detection:
    """A loaded detection, ready to run over events."""

    def __init__(self, spec: Mapping, module: Any = None, setup_exception: Optional[BaseException] = None) -> None:
        self.id: str = spec["id"]
        self.analysis_type: str = str(spec.get("analysisType", "rule")).lower()
        self.is_policy = self.analysis_type == "policy"
        self.alert_value = not self.is_policy
        self.severity = str(spec.get("severity") or "Info").upper()
        self.display_name = spec.get("displayName") or ""
        self.create_alert = spec.get("createAlert", True) is not False
        self.log_types: List[str] = list(spec.get("logTypes") or spec.get("resourceTypes") or [])
        self.module = module
        self.setup_exception = setup_exception
        self.matcher: Optional[Callable[[Any], Any]] = None
        self.functions: Dict[str, Callable[[Any], Any]] = {}
        self.inline_filter: Optional[Callable[[Any], bool]] = None
        self.auxiliary: List[Tuple[str, Optional[Callable[[Any], Any]]]] = []
        if setup_exception is None:
            try:
                self._bind(spec)
            except CAUGHT as error:
                self.setup_exception = error
        # Run order of the auxiliary functions; a None entry is the dedup fallback (title, then default).
        for name in AUXILIARY_FUNCTIONS:
            if name in self.functions:
                self.auxiliary.append((name, self.functions[name]))
            elif name == "dedup" and self.create_alert:
                self.auxiliary.append((name, None))

    # ------------------------------------------------------------------------------------ binding

    def _bind(self, spec: Mapping) -> None:
        if spec.get("inlineFilters"):
            predicate = compile_expressions(spec["inlineFilters"], "InlineFilters")
            self.inline_filter = lambda event: predicate(_raw(event))
        if spec.get("detection") is not None:
            self._bind_simple(spec)
            return
        matcher_name = "policy" if self.is_policy else "rule"
        matcher = getattr(self.module, matcher_name, None)
        if matcher is None and self.analysis_type == "scheduled_rule":
            matcher = _always_true
        if not callable(matcher):
            raise AssertionError(f"detection needs to have a method named '{matcher_name}'")
        self.matcher = matcher
        names = AUXILIARY_FUNCTIONS if self.create_alert else ("alert_context",)
        for name in names:
            function = getattr(self.module, name, None)
            if callable(function):
                self.functions[name] = function

    def _bind_simple(self, spec: Mapping) -> None:
        predicate = compile_expressions(spec["detection"], "Detection")

        def rule(event: Any) -> bool:
            return predicate(_raw(event))

        self.matcher = rule
        if not self.create_alert:
            return
        if spec.get("alertTitle"):
            self.functions["title"] = _title_template(str(spec["alertTitle"]))
        if spec.get("groupBy"):
            self.functions["dedup"] = _group_by(spec["groupBy"])
        if spec.get("alertContext"):
            self.functions["alert_context"] = _alert_context(spec["alertContext"])
        if spec.get("dynamicSeverities"):
            self.functions["severity"] = _dynamic_severity(spec["dynamicSeverities"])

    # ------------------------------------------------------------------------------------ running

    def match(self, event: Any, watchdog: Optional[Watchdog] = None) -> Tuple[Any, Optional[BaseException]]:
        """The hot path: the inline filters and the matcher only, as (output, error)."""
        try:
            if self.inline_filter is not None and not self.inline_filter(event):
                return not self.alert_value, None
            if watchdog is None:
                return self.matcher(event), None  # type: ignore[misc]
            watchdog.calls += 1
            watchdog.active = True
            try:
                return self.matcher(event), None  # type: ignore[misc]
            finally:
                watchdog.active = False
        except CAUGHT as error:
            return None, error

    def quiet(self, output: Any, error: Optional[BaseException]) -> bool:
        """Whether a match() outcome needs no result in batch mode (no alert, no error)."""
        return error is None and output is not self.alert_value and output.__class__ is bool

    def run(self, event: Any, batch_mode: bool = True, watchdog: Optional[Watchdog] = None,
            known_destinations: Optional[Mapping] = None) -> DetectionResult:
        """Run the matcher and (when it alerts, or always in test mode) the auxiliary functions."""
        if self.setup_exception is not None:
            result = DetectionResult(self.id)
            result.setup_exception = self.setup_exception
            return result
        output, error = self.match(event, watchdog)
        return self.complete(event, output, error, batch_mode, watchdog, known_destinations)

    def complete(self, event: Any, output: Any, error: Optional[BaseException], batch_mode: bool = True,
                 watchdog: Optional[Watchdog] = None, known_destinations: Optional[Mapping] = None) -> DetectionResult:
        """Build the result of a match() outcome, running the auxiliary functions when needed."""
        result = DetectionResult(self.id)
        if self.setup_exception is not None:
            result.setup_exception = self.setup_exception
            return result
        result.detection_output = output
        if error is None and output.__class__ is not bool:
            error = _return_type_error(self.id, self.matcher, output, "bool")
        result.detection_exception = error
        result.trigger_alert = output is self.alert_value
        if batch_mode and not result.trigger_alert:
            return result
        outputs = result.outputs
        for name, function in self.auxiliary:
            if function is None:
                outputs["dedup"] = outputs.get("title") or f"defaultDedupString:{self.id}"
                continue
            try:
                value = call_guarded(watchdog, function, event)
                outputs[name] = self._checked(name, function, value, outputs, known_destinations, batch_mode)
            except CAUGHT as failure:
                fallback = self._fallback(name, failure, outputs)
                if fallback is not None:
                    outputs[name] = fallback
                if not batch_mode:
                    result.exceptions[name] = failure
        return result

    def _checked(self, name: str, function: Callable, value: Any, outputs: Dict[str, Any],
                 known_destinations: Optional[Mapping], batch_mode: bool) -> Any:
        if name == "alert_context":
            if not isinstance(value, Mapping):
                raise _return_type_error(self.id, function, value, "Mapping")
            serialized = json.dumps(value, default=json_encoder)
            if len(serialized) > MAX_ALERT_CONTEXT_SIZE:
                return {ALERT_CONTEXT_ERROR_KEY: (
                    f"alert_context size is [{len(serialized)}] characters,"
                    f" bigger than maximum of [{MAX_ALERT_CONTEXT_SIZE}] characters")}
            return value
        if name == "destinations":
            return self._destinations(function, value, known_destinations, batch_mode)
        if not isinstance(value, str):
            raise _return_type_error(self.id, function, value, "str")
        if name == "severity":
            severity = value.upper()
            if severity == "DEFAULT":
                return self.severity
            if severity not in SEVERITIES:
                raise AssertionError(
                    f"Expected severity to be any of the following: [{list(SEVERITIES)}], got [{severity}] instead."
                )
            return severity
        if name == "dedup":
            if value == "":
                return outputs.get("title") or f"defaultDedupString:{self.id}"
            return truncate(value, MAX_DEDUP_STRING_SIZE)
        return truncate(value, MAX_GENERATED_FIELD_SIZE)

    def _destinations(self, function: Callable, value: Any, known: Optional[Mapping], batch_mode: bool) -> Any:
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(x, (str, bool)) for x in value):
            raise FunctionReturnTypeError(
                f"detection [{self.id}] function [{getattr(function, '__name__', 'destinations')}] "
                f"returned [{type(value).__name__}], expected a list"
            )
        if not value:
            return ["SKIP"]
        if known is None:
            return [str(v) for v in value][:MAX_DESTINATIONS_SIZE]
        resolved: List[str] = []
        unknown: List[str] = []
        for name in value:
            target = known.get(name) if isinstance(name, str) else None
            if target is None:
                unknown.append(str(name))
            elif target not in resolved:
                resolved.append(target)
        if unknown and not batch_mode:
            raise UnknownDestinationError("Invalid Destinations", unknown)
        return resolved[:MAX_DESTINATIONS_SIZE]

    def _fallback(self, name: str, error: BaseException, outputs: Dict[str, Any]) -> Any:
        if name == "title":
            return self.display_name or self.id
        if name == "dedup":
            return outputs.get("title") or f"defaultDedupString:{self.id}"
        if name == "severity":
            return self.severity
        if name == "alert_context":
            return {ALERT_CONTEXT_ERROR_KEY: repr(error)}
        if name in ("description", "reference", "runbook"):
            return ""
        return None


def _always_true(_event: Any) -> bool:
    return True


def _raw(event: Any) -> Any:
    return event._container if isinstance(event, PantherEvent) else event


def _title_template(template: str) -> Callable[[Any], str]:
    """`AlertTitle` with `{key.path}` placeholders filled from the event (missing values are empty)."""
    pieces: List[Tuple[str, Optional[Callable[[Any], Any]]]] = []
    position = 0
    while position < len(template):
        start = template.find("{", position)
        end = template.find("}", start + 1) if start >= 0 else -1
        if start < 0 or end < 0:
            pieces.append((template[position:], None))
            break
        pieces.append((template[position:start], None))
        pieces.append(("", resolve_first({"KeyPath": template[start + 1:end].strip()})))
        position = end + 1

    def title(event: Any) -> str:
        raw = _raw(event)
        parts = []
        for text, resolver in pieces:
            if resolver is None:
                parts.append(text)
            else:
                value = resolver(raw)
                parts.append("" if value is None else value if isinstance(value, str) else json.dumps(value))
        return "".join(parts)

    return title


def _group_by(specifiers: Any) -> Callable[[Any], str]:
    """`GroupBy` key specifiers → a dedup string of their values joined by ':'."""
    if not isinstance(specifiers, list):
        raise ValueError("GroupBy must be a list of key specifiers")
    resolvers = [resolve_first(s) for s in specifiers]

    def dedup(event: Any) -> str:
        raw = _raw(event)
        values = [r(raw) for r in resolvers]
        return ":".join("" if v is None else v if isinstance(v, str) else json.dumps(v) for v in values)

    return dedup


def _alert_context(definitions: Any) -> Callable[[Any], dict]:
    """`AlertContext` entries ({KeyName, KeyValue}) → a context dict."""
    if not isinstance(definitions, list):
        raise ValueError("AlertContext must be a list of {KeyName, KeyValue} entries")
    pairs = []
    for entry in definitions:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("KeyName"), str):
            raise ValueError("each AlertContext entry needs a KeyName and a KeyValue")
        pairs.append((entry["KeyName"], resolve_first(entry.get("KeyValue"))))

    def alert_context(event: Any) -> dict:
        raw = _raw(event)
        return {name: resolver(raw) for name, resolver in pairs}

    return alert_context


def _dynamic_severity(entries: Any) -> Callable[[Any], str]:
    """`DynamicSeverities`: the first entry whose Conditions hold sets the severity."""
    if not isinstance(entries, list):
        raise ValueError("DynamicSeverities must be a list of {ChangeTo, Conditions} entries")
    compiled = []
    for entry in entries:
        if not isinstance(entry, Mapping) or str(entry.get("ChangeTo", "")).upper() not in SEVERITIES + ("DEFAULT",):
            raise ValueError("each DynamicSeverities entry needs ChangeTo (a severity) and Conditions")
        compiled.append((str(entry["ChangeTo"]).upper(), compile_expressions(entry.get("Conditions"), "Conditions")))

    def severity(event: Any) -> str:
        raw = _raw(event)
        for change_to, predicate in compiled:
            if predicate(raw):
                return change_to
        return "DEFAULT"

    return severity
