"""Per-detection time limit.

A single interval timer ticks while a batch runs; each call into user code bumps a counter. When a
tick sees the same call still running after the limit, it raises `DetectionTimeout` inside that call.
The per-call cost is two attribute writes, so the limit is nearly free on the hot path. Signals
only reach the main thread: elsewhere (or where SIGALRM is missing) the limit is not enforced.
"""

import signal
import threading
import time
from typing import Any, Callable, Optional


class DetectionTimeout(BaseException):
    """Raised inside a detection that ran past its time limit (a BaseException so `except Exception`
    in user code cannot swallow it)."""


class Watchdog:
    """Interrupts user code that runs longer than `limit_seconds` per call."""

    def __init__(self, limit_seconds: float, tick_seconds: float = 0.05) -> None:
        self.limit = limit_seconds
        self.tick = min(tick_seconds, limit_seconds / 2) if limit_seconds > 0 else tick_seconds
        self.calls = 0
        self.active = False
        self._seen_calls = -1
        self._seen_since = 0.0
        self._previous_handler: Any = None
        self._armed = False
        self._depth = 0

    def _on_tick(self, _signum: int, _frame: Any) -> None:
        if not self.active:
            return
        now = time.monotonic()
        if self.calls != self._seen_calls:
            self._seen_calls = self.calls
            self._seen_since = now
            return
        if now - self._seen_since >= self.limit:
            # Raised again on every tick until the call ends, so code that swallows it still stops.
            raise DetectionTimeout(f"detection exceeded its time limit of {self.limit:g}s")

    def arm(self) -> None:
        """Start ticking (call at the start of a batch, on the main thread); nests."""
        self._depth += 1
        if self._depth > 1 or self.limit <= 0 or not hasattr(signal, "setitimer"):
            return
        if threading.current_thread() is not threading.main_thread():
            return
        self._previous_handler = signal.signal(signal.SIGALRM, self._on_tick)
        signal.setitimer(signal.ITIMER_REAL, self.tick, self.tick)
        self._armed = True

    def disarm(self) -> None:
        """Stop ticking and restore the previous SIGALRM handler (when the outermost arm ends)."""
        self._depth = max(0, self._depth - 1)
        if self._depth > 0 or not self._armed:
            return
        signal.setitimer(signal.ITIMER_REAL, 0, 0)
        signal.signal(signal.SIGALRM, self._previous_handler or signal.SIG_DFL)
        self._armed = False
        self.active = False

    def __enter__(self) -> "Watchdog":
        self.arm()
        return self

    def __exit__(self, *_exc: Any) -> None:
        self.disarm()

    def call(self, function: Callable, argument: Any) -> Any:
        """Run `function(argument)` under the limit."""
        self.calls += 1
        self.active = True
        try:
            return function(argument)
        finally:
            self.active = False


def call_guarded(watchdog: Optional[Watchdog], function: Callable, argument: Any) -> Any:
    """Run user code under the watchdog when there is one."""
    if watchdog is None:
        return function(argument)
    return watchdog.call(function, argument)
