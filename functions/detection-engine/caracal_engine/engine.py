"""The engine: content (detections, data models, global helpers) in, results out. No I/O of its own.

Content arrives as JSON prepared by the TypeScript side (which reads the YAML 1.2 files); Python arrives
as source text (`body`), with an optional `path` naming it in tracebacks:

    {"globals": [{"id", "body", "path"?}],
     "dataModels": [{"id", "logTypes", "mappings", "body"?, "path"?}],
     "detections": [{"id", "analysisType", "severity", "logTypes", "body"? | "detection"?, "path"?,
                     "inlineFilters"?, "displayName"?, "createAlert"?, "alertTitle"?, "groupBy"?,
                     "alertContext"?, "dynamicSeverities"?, "status"?}],
     "timeLimitSeconds"?: 5}

`prepare` compiles content and runs none of it (a sandbox's zygote does this once per content version);
a detection's module body runs when the detection is first used and a data model's when its log type is
first seen, so whatever a module body does happens while that detection is the one running.
"""

import contextlib
import copy
import io
from types import CodeType
from typing import Any, Callable, Dict, List, Mapping, MutableSequence, Optional

from . import kv
from .detection import CAUGHT, Detection, describe_error
from .event import DataModel, PantherEvent
from .guard import Watchdog
from .lookups import LookupTables
from .modules import Compiled, compile_source, detection_module_name, global_helpers, load_module, source_filename
from .testing import run_test

DEFAULT_TIME_LIMIT_SECONDS = 5.0
MAX_BATCH_OUTPUT = 10_000
NOT_AN_OBJECT = "an event must be a JSON object"

# Where a run is: (detection index in its order, event index); a sandbox shares it with its zygote.
Progress = MutableSequence[int]
ResultListener = Callable[[int, int, Dict[str, Any]], None]
DoneListener = Callable[[int, str], None]


class Engine:
    """Prepared content and the operations over it."""

    def __init__(self) -> None:
        self.specs: Dict[str, Mapping] = {}
        self.compiled: Dict[str, Compiled] = {}
        self.detections: Dict[str, Detection] = {}
        self.model_specs: Dict[str, Mapping] = {}
        self.model_code: Dict[str, Compiled] = {}
        self.data_models: Dict[str, Optional[DataModel]] = {}
        self.helpers: Dict[str, "tuple[Compiled, str]"] = {}
        self.errors: List[Dict[str, str]] = []
        self.watchdog = Watchdog(DEFAULT_TIME_LIMIT_SECONDS)

    # ------------------------------------------------------------------------------------ loading

    def prepare(self, content: Mapping, code: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        """Compile `content`, replacing what was prepared; returns the compile errors (the rest still loads).
        `code` holds items compiled already, by "<section>:<index>" (host.compiled_content)."""
        code = code or {}

        def compiled(section: str, index: int, item: Mapping) -> Compiled:
            given = code.get(f"{section}:{index}")
            if isinstance(given, CodeType):
                return given
            return compile_source(item.get("body"), source_filename(section, item))

        limit = content.get("timeLimitSeconds")
        self.watchdog = Watchdog(float(limit) if isinstance(limit, (int, float)) else DEFAULT_TIME_LIMIT_SECONDS)
        self.errors = []
        self.helpers = {}
        for index, helper in enumerate(content.get("globals") or []):
            filename = source_filename("globals", helper)
            self.helpers[helper["id"]] = (compiled("globals", index, {**helper, "body": helper.get("body") or ""}), filename)
        self.model_specs, self.model_code, self.data_models = {}, {}, {}
        for index, spec in enumerate(content.get("dataModels") or []):
            conflict = next((t for t in spec.get("logTypes") or [] if t in self.model_specs), None)
            if conflict is not None:
                self._error(spec.get("id", "?"), ValueError(f"Conflicting Enabled LogType [{conflict}] in Data Model [{spec['id']}]"))
                continue
            if spec.get("body") is not None:
                self.model_code[spec["id"]] = compiled("dataModels", index, spec)
            for log_type in spec.get("logTypes") or []:
                self.model_specs[log_type] = spec
        self.specs, self.compiled, self.detections = {}, {}, {}
        for index, spec in enumerate(content.get("detections") or []):
            self.specs[spec["id"]] = spec
            if spec.get("detection") is None:
                module_code = compiled("detections", index, spec)
                self.compiled[spec["id"]] = module_code
                if isinstance(module_code, BaseException):
                    self._error(spec["id"], module_code)
        return self.report()

    def activate(self) -> None:
        """Make this content's global helpers importable (one content is active per process)."""
        global_helpers().replace(self.helpers)

    def load(self, content: Mapping) -> Dict[str, Any]:
        """Prepare `content` and load all of it now, running every module body; returns the load errors."""
        self.prepare(content)
        self.activate()
        with self.watchdog, _quiet():
            for log_type in list(self.model_specs):
                self.data_model_for(log_type)
            for detection_id in list(self.specs):
                self.detection(detection_id)
        return self.report()

    def report(self) -> Dict[str, Any]:
        return {"loaded": len(self.specs), "errors": list(self.errors)}

    def _error(self, item_id: str, error: BaseException) -> None:
        self.errors.append({"id": item_id, "error": describe_error(error)})

    def detection(self, detection_id: str) -> Detection:
        """The detection, its module body run on first use (under the time limit, output discarded)."""
        detection = self.detections.get(detection_id)
        if detection is not None:
            return detection
        spec = self.specs[detection_id]
        if spec.get("detection") is not None:
            detection = Detection(spec)
        else:
            try:
                with self.watchdog, _quiet():
                    module = load_module(_module_name(detection_id), self.compiled[detection_id],
                                         spec.get("path") or f"<{_module_name(detection_id)}>", self.watchdog.call)
                detection = Detection(spec, module)
            except CAUGHT as error:
                detection = Detection(spec, None, error)
        if detection.setup_exception is not None and not isinstance(self.compiled.get(detection_id), BaseException):
            self._error(detection_id, detection.setup_exception)
        self.detections[detection_id] = detection
        return detection

    def data_model_for(self, log_type: str) -> Optional[DataModel]:
        """The data model of `log_type`, its module body run on first use; None when it has none, and
        DataModel.failed (whose udm raises the load error) when it did not load."""
        if log_type in self.data_models:
            return self.data_models[log_type]
        spec = self.model_specs.get(log_type)
        model = None
        if spec is not None:
            try:
                module = None
                if spec["id"] in self.model_code:
                    with self.watchdog, _quiet():
                        module = load_module(f"datamodel_{spec['id']}", self.model_code[spec["id"]],
                                             spec.get("path") or f"<datamodel_{spec['id']}>", self.watchdog.call)
                model = DataModel(spec["id"], spec.get("mappings") or [], module)
            except CAUGHT as error:
                self._error(spec["id"], error)
                model = DataModel.failed(spec["id"], describe_error(error))
        self.data_models[log_type] = model
        if spec is not None:
            for other in spec.get("logTypes") or []:
                self.data_models[other] = model
        return model

    # ------------------------------------------------------------------------------------ running

    def run(self, events: List[Any], detection_ids: Optional[List[str]] = None, start: int = 0,
            on_result: Optional[ResultListener] = None, on_done: Optional[DoneListener] = None,
            progress: Optional[Progress] = None, lookups: Optional[Mapping] = None) -> Dict[str, Any]:
        """Run events through the detections for their `p_log_type` (or through the named ones), detection
        by detection in content order, from the `start`-th detection of that order.

        Returns, per event, the results that alerted or errored (in detection order). `on_result(k, i,
        result)` hears each result as it is made and `on_done(k, printed)` each detection as it finishes;
        `progress` holds (k, i) while detection k works on event i. Printed output is collected (capped).
        `lookups` are the lookup tables `event.lookup` reads (see lookups.py); without them it reads the
        event's `_mocked_lookup_data_` as in tests."""
        order = run_order(list(self.specs), detection_ids)
        lookup_function = LookupTables(lookups) if lookups else None
        progress = progress if progress is not None else [0, 0]
        results: List[List[Dict[str, Any]]] = [[] for _ in events]
        subjects: List[Optional[PantherEvent]] = [None] * len(events)
        by_log_type = _by_log_type(events)
        printed: List[str] = []
        if start == 0:
            for index, data in enumerate(events):
                if not isinstance(data, Mapping):
                    results[index].append({"id": "", "matched": False, "error": NOT_AN_OBJECT})
        watchdog = self.watchdog
        for position in range(start, len(order)):
            chosen = _candidates(self.specs[order[position]], by_log_type, bool(detection_ids))
            if not chosen:
                if on_done is not None:
                    on_done(position, "")
                continue
            captured = io.StringIO()
            progress[0], progress[1] = position, chosen[0]
            with watchdog, contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
                detection = self.detection(order[position])
                is_policy, alert_value = detection.is_policy, detection.alert_value
                for index in chosen:
                    progress[1] = index
                    data = events[index]
                    event = subjects[index]
                    if event is None:
                        event = subjects[index] = PantherEvent(data, self.data_model_for(data.get("p_log_type", "")))
                        event.lookup_function = lookup_function
                    # A policy gets a plain dict it may change, so it gets its own copy.
                    subject = copy.deepcopy(data) if is_policy else event
                    output, error = detection.match(subject, watchdog)
                    if error is None and output is not alert_value and output.__class__ is bool:
                        continue
                    result = detection.complete(subject, output, error, True, watchdog).to_json()
                    results[index].append(result)
                    if on_result is not None:
                        on_result(position, index, result)
            text = captured.getvalue()[:MAX_BATCH_OUTPUT]
            printed.append(text)
            if on_done is not None:
                on_done(position, text)
        out: Dict[str, Any] = {"results": results}
        text = "".join(printed)[:MAX_BATCH_OUTPUT]
        if text:
            out["stdout"] = text
        return out

    def test(self, detection_id: str, tests: List[Mapping], destinations: Optional[List[str]] = None) -> List[Dict[str, Any]]:
        """Run a detection's unit tests (see `test_one`)."""
        return [self.test_one(detection_id, test, destinations) for test in tests]

    def test_one(self, detection_id: str, test: Mapping, destinations: Optional[List[str]] = None) -> Dict[str, Any]:
        """Run one unit test of a detection with a fresh in-memory key-value store (see `testing.run_test`
        for `destinations`)."""
        if detection_id not in self.specs:
            return {"name": str(test.get("Name", "")), "passed": False, "error": f"unknown detection {detection_id}"}
        previous = kv.store()
        try:
            with self.watchdog:
                detection = self.detection(detection_id)
                return run_test(detection, test, self.data_model_for, self.watchdog,
                                lambda: kv.use_store(kv.MemoryStore()), destinations)
        finally:
            kv.use_store(previous)


def run_order(detection_ids: List[str], chosen: Optional[List[str]] = None) -> List[str]:
    """The detections a run goes through, in order: the chosen ones that exist, or all of them."""
    if chosen:
        known = set(detection_ids)
        return [i for i in chosen if i in known]
    return list(detection_ids)


def candidates(spec: Mapping, events: List[Any], chosen: bool) -> List[int]:
    """The events a detection runs on: those of its log types, or every event when it was chosen by id."""
    return _candidates(spec, _by_log_type(events), chosen)


def _by_log_type(events: List[Any]) -> Dict[Optional[str], List[int]]:
    """Event indexes by `p_log_type`; None holds every event that is an object."""
    groups: Dict[Optional[str], List[int]] = {None: []}
    for index, data in enumerate(events):
        if isinstance(data, Mapping):
            groups[None].append(index)
            groups.setdefault(data.get("p_log_type", ""), []).append(index)
    return groups


def _candidates(spec: Mapping, by_log_type: Dict[Optional[str], List[int]], chosen: bool) -> List[int]:
    if chosen:
        return by_log_type[None]
    # A Deprecated detection (the content's `Status`) never runs on its log types; it still tests and
    # runs when named (docs/content-format.md).
    if spec.get("status") == "Deprecated":
        return []
    log_types = list(dict.fromkeys(spec.get("logTypes") or spec.get("resourceTypes") or []))
    if len(log_types) == 1:
        return by_log_type.get(log_types[0], [])
    return sorted(i for log_type in log_types for i in by_log_type.get(log_type, []))


def _module_name(detection_id: str) -> str:
    return detection_module_name(detection_id)


@contextlib.contextmanager
def _quiet() -> Any:
    """Discard what module bodies print while loading."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        yield
