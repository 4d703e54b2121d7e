"""Unit tests of detections, with the pass/fail rule of the reference tool.

A test expecting an alert passes only when the detection alerts and nothing errored (the matcher
and every auxiliary function ran cleanly). A test expecting no alert passes when the matcher's
output equals the expectation. `Mocks` become `unittest.mock.MagicMock` objects patched into the
detection's module for the duration of the test.
"""

import contextlib
import io
from collections.abc import Mapping
from typing import Any, Callable, Dict, List, Optional

from .detection import CAUGHT, Detection, DetectionResult, UnknownDestinationError, describe_error
from .event import DataModel, PantherEvent
from .guard import Watchdog

MAX_CAPTURED_OUTPUT = 10_000


def passed(expected: bool, result: DetectionResult, alert_value: bool) -> bool:
    """The reference tool's verdict for one test."""
    if expected == alert_value:
        return result.trigger_alert and not result.errored
    return expected == result.detection_output


def _mocks(test: Mapping) -> Dict[str, Any]:
    mocks = test.get("Mocks") or []
    if not isinstance(mocks, list):
        raise ValueError("Mocks must be a list of {objectName, returnValue}")
    if not mocks:
        return {}
    # Imported here, by the tests that have Mocks: a sandbox loads unittest.mock (and asyncio with it) only for
    # content that needs it (lockdown.ON_DEMAND_MODULES), and this module is imported by every sandbox.
    from unittest.mock import MagicMock  # pylint: disable=import-outside-toplevel

    return {
        m["objectName"]: MagicMock(return_value=m["returnValue"])
        for m in mocks
        if isinstance(m, Mapping) and "objectName" in m and "returnValue" in m
    }


def run_test(
    detection: Detection,
    test: Mapping,
    data_model_for: Callable[[str], Optional[DataModel]],
    watchdog: Optional[Watchdog] = None,
    reset_state: Optional[Callable[[], None]] = None,
    destinations: Optional[List[str]] = None,
) -> Dict[str, Any]:
    """Run one unit test; returns {name, passed, expected, output, error?, functions?, stdout?}.

    With `destinations` (names), `destinations()` naming any other fails the test; without, unknown
    destination names are ignored, as the reference tool does."""
    name = str(test.get("Name", ""))
    expected = test.get("ExpectedResult")
    verdict: Dict[str, Any] = {"name": name, "expected": expected}
    if reset_state is not None:
        reset_state()
    captured = io.StringIO()
    try:
        data = test.get("Resource") if test.get("Resource") is not None else test.get("Log")
        if not isinstance(data, Mapping):
            raise ValueError("the test needs a Log (rules) or Resource (policies) mapping")
        if not isinstance(expected, bool):
            raise ValueError("ExpectedResult must be true or false")
        mocks = _mocks(test)
        known = {name: name for name in destinations} if destinations is not None else None
        subject: Any = data if detection.is_policy else PantherEvent(data, data_model_for(str(data.get("p_log_type", ""))))
        with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
            # A detection whose module failed to load reports that error, mocked or not.
            if mocks and detection.setup_exception is None:
                if detection.module is None:
                    raise ValueError("Mocks can only patch a Python detection's module")
                from unittest.mock import patch  # pylint: disable=import-outside-toplevel - see _mocks

                with patch.multiple(detection.module, **mocks):
                    result = detection.run(subject, False, watchdog, known)
            else:
                result = detection.run(subject, False, watchdog, known)
    except CAUGHT as error:
        verdict.update(passed=False, error=describe_error(error))
        return _with_output(verdict, captured)
    if destinations is None and isinstance(result.exceptions.get("destinations"), UnknownDestinationError):
        del result.exceptions["destinations"]
    verdict["passed"] = passed(expected, result, detection.alert_value)
    verdict["output"] = result.detection_output if isinstance(result.detection_output, (bool, type(None))) else repr(result.detection_output)
    error = result.setup_exception or result.detection_exception
    if error is not None:
        verdict["error"] = describe_error(error)
    functions = _function_report(result, expected == detection.alert_value)
    if functions:
        verdict["functions"] = functions
    return _with_output(verdict, captured)


def _function_report(result: DetectionResult, expected_alert: bool) -> Dict[str, Any]:
    """Outputs and errors of the auxiliary functions (reported when an alert was expected)."""
    report: Dict[str, Any] = {}
    if not expected_alert:
        return report
    json_result = result.to_json()
    for name, error in result.exceptions.items():
        report[name] = {"error": describe_error(error)}
    for key in ("title", "dedup", "severity", "alertContext", "description", "reference", "runbook",
                "destinations", "unique"):
        if key in json_result:
            report.setdefault(_PY_NAMES.get(key, key), {})["output"] = json_result[key]
    return report


_PY_NAMES = {"alertContext": "alert_context"}


def _with_output(verdict: Dict[str, Any], captured: io.StringIO) -> Dict[str, Any]:
    text = captured.getvalue()
    if text:
        verdict["stdout"] = text[:MAX_CAPTURED_OUTPUT]
    return verdict

