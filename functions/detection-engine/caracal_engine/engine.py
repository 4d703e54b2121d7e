"""The engine: content (detections, data models, global helpers) in, results out. No I/O of its own.

Content arrives as JSON prepared by the TypeScript side (which reads the YAML 1.2 files):

    {"globals": [{"id", "path" | "body"}],
     "dataModels": [{"id", "logTypes", "mappings", "path"?, "body"?}],
     "detections": [{"id", "analysisType", "severity", "logTypes", "path"? | "body"? | "detection"?,
                     "inlineFilters"?, "displayName"?, "createAlert"?, "alertTitle"?, "groupBy"?,
                     "alertContext"?, "dynamicSeverities"?}],
     "timeLimitSeconds"?: 5}
"""

import contextlib
import copy
import io
from typing import Any, Dict, List, Mapping, Optional

from . import kv
from .detection import CAUGHT, Detection, describe_error
from .event import DataModel, PantherEvent
from .guard import Watchdog
from .modules import global_helpers, load_module
from .testing import run_tests

DEFAULT_TIME_LIMIT_SECONDS = 5.0
MAX_BATCH_OUTPUT = 10_000


class Engine:
    """Loaded content and the operations over it."""

    def __init__(self) -> None:
        self.detections: Dict[str, Detection] = {}
        self.by_log_type: Dict[str, List[Detection]] = {}
        self.data_models: Dict[str, DataModel] = {}
        self.watchdog = Watchdog(DEFAULT_TIME_LIMIT_SECONDS)

    # ------------------------------------------------------------------------------------ loading

    def load(self, content: Mapping) -> Dict[str, Any]:
        """Replace the loaded content; returns per-item load errors (the rest still loads)."""
        errors: List[Dict[str, str]] = []
        limit = content.get("timeLimitSeconds")
        self.watchdog = Watchdog(float(limit) if isinstance(limit, (int, float)) else DEFAULT_TIME_LIMIT_SECONDS)
        global_helpers().replace({g["id"]: {"path": g.get("path") or "", "body": g.get("body") or ""} for g in content.get("globals") or []})
        self.data_models = {}
        with self.watchdog, _quiet():
            for spec in content.get("dataModels") or []:
                try:
                    module = None
                    if spec.get("path") or spec.get("body"):
                        module = load_module(f"datamodel_{spec['id']}", spec.get("path"), spec.get("body"), self.watchdog.call)
                    model = DataModel(spec["id"], spec.get("mappings") or [], module)
                    for log_type in spec.get("logTypes") or []:
                        if log_type in self.data_models:
                            raise ValueError(f"Conflicting Enabled LogType [{log_type}] in Data Model [{spec['id']}]")
                        self.data_models[log_type] = model
                except CAUGHT as error:
                    errors.append({"id": spec.get("id", "?"), "error": describe_error(error)})
            self.detections = {}
            self.by_log_type = {}
            for spec in content.get("detections") or []:
                detection = self._load_detection(spec)
                if detection.setup_exception is not None:
                    errors.append({"id": detection.id, "error": describe_error(detection.setup_exception)})
                self.detections[detection.id] = detection
                for log_type in detection.log_types:
                    self.by_log_type.setdefault(log_type, []).append(detection)
        return {"loaded": len(self.detections), "errors": errors}

    def _load_detection(self, spec: Mapping) -> Detection:
        module = None
        if spec.get("detection") is None:
            try:
                module = load_module(_module_name(spec["id"]), spec.get("path"), spec.get("body"), self.watchdog.call)
            except CAUGHT as error:
                return Detection(spec, None, error)
        return Detection(spec, module)

    def data_model_for(self, log_type: str) -> Optional[DataModel]:
        return self.data_models.get(log_type)

    # ------------------------------------------------------------------------------------ running

    def run(self, events: List[Mapping], detection_ids: Optional[List[str]] = None) -> Dict[str, Any]:
        """Run events through the detections for their `p_log_type` (or the named ones).

        Returns, per event, the results that alerted or errored; printed output is collected
        (capped) rather than written anywhere."""
        chosen = [self.detections[i] for i in detection_ids or [] if i in self.detections] if detection_ids else None
        captured = io.StringIO()
        results: List[List[Dict[str, Any]]] = []
        watchdog = self.watchdog
        with watchdog, contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
            for data in events:
                if data.__class__ is not dict and not isinstance(data, Mapping):
                    results.append([{"id": "", "matched": False, "error": "an event must be a JSON object"}])
                    continue
                log_type = data.get("p_log_type", "")
                candidates = chosen if chosen is not None else self.by_log_type.get(log_type, ())
                event = PantherEvent(data, self.data_models.get(log_type))
                per_event: List[Dict[str, Any]] = []
                for detection in candidates:
                    # A policy gets a plain dict it may change, so it gets its own copy.
                    subject = copy.deepcopy(data) if detection.is_policy else event
                    output, error = detection.match(subject, watchdog)
                    if error is None and output is not detection.alert_value and output.__class__ is bool:
                        continue
                    per_event.append(detection.complete(subject, output, error, True, watchdog).to_json())
                results.append(per_event)
        out: Dict[str, Any] = {"results": results}
        printed = captured.getvalue()
        if printed:
            out["stdout"] = printed[:MAX_BATCH_OUTPUT]
        return out

    def test(self, detection_id: str, tests: List[Mapping], destinations: Optional[List[str]] = None) -> List[Dict[str, Any]]:
        """Run a detection's unit tests, each with a fresh in-memory key-value store (see
        `testing.run_test` for `destinations`)."""
        detection = self.detections.get(detection_id)
        if detection is None:
            return [{"name": str(t.get("Name", "")), "passed": False, "error": f"unknown detection {detection_id}"} for t in tests]
        previous = kv.store()
        try:
            with self.watchdog:
                return run_tests(detection, tests, self.data_model_for, self.watchdog, lambda: kv.use_store(kv.MemoryStore()), destinations)
        finally:
            kv.use_store(previous)


def _module_name(detection_id: str) -> str:
    return "detection_" + "".join(c if c.isalnum() else "_" for c in detection_id)


@contextlib.contextmanager
def _quiet() -> Any:
    """Discard what module bodies print while loading."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        yield
