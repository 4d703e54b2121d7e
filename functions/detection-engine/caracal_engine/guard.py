"""Per-detection time limit.

A single interval timer ticks while a batch runs; each call into user code bumps a counter. When a
tick sees the same call still running after the limit, it raises `DetectionTimeout` inside that call.
The per-call cost is two attribute writes, so the limit is nearly free on the hot path. Signals
only reach the main thread: elsewhere (or where SIGALRM is missing) the limit is not enforced.

That timer lives in the process running the user code, which can switch it off (ignore, block or
re-handle SIGALRM, cancel the timer), swallow the timeout in a loop, or sit in C code that no signal
handler interrupts. So each tick also writes, in memory the sandbox's zygote shares with its child
(sandbox.py, `share_due`), when the zygote is to kill the child: the start of the current call (or
of the engine's work since the last call ended) plus the limit plus `outside_grace`, a time that
moves only when a call starts or ends. Ticks that stop leave it where it was, a call that overruns
does not move it, and the zygote, outside the child, kills the child then (Zygote.wait); the
in-process timeout, which names the line it interrupted, comes first whenever it can.
"""

import signal
import threading
import time
from typing import Any, Callable, MutableSequence, Optional

# Longest time a call may run past its limit before the zygote kills its process (the grace lets the in-process
# timeout, a moment after the limit, act first); a limit shorter than this gets a grace as long as itself.
OUTSIDE_GRACE_SECONDS = 1.0
# When the current call must be over, in time.monotonic_ns(); 0 while no limit runs. A list until the sandbox
# shares a slot of its zygote's memory (share_due).
_due: MutableSequence[int] = [0]


def outside_grace(limit_seconds: float) -> float:
    """How long past `limit_seconds` a call runs before its process is killed from outside."""
    return min(OUTSIDE_GRACE_SECONDS, limit_seconds)


def share_due(slot: MutableSequence[int]) -> None:
    """Write when the current call must be over to `slot` (one integer), which the zygote reads (sandbox.py)."""
    global _due  # pylint: disable=global-statement - one per process, set once in a sandbox's child
    _due = slot


class DetectionTimeout(BaseException):
    """Raised inside a detection that ran past its time limit (a BaseException so `except Exception`
    in user code cannot swallow it)."""


class Watchdog:
    """Interrupts user code that runs longer than `limit_seconds` per call."""

    def __init__(self, limit_seconds: float, tick_seconds: float = 0.05) -> None:
        self.limit = limit_seconds
        self.grace = outside_grace(limit_seconds) if limit_seconds > 0 else 0.0
        self.tick = min(tick_seconds, limit_seconds / 2) if limit_seconds > 0 else tick_seconds
        self.calls = 0
        self.active = False
        self._seen_calls = -1
        self._seen_active = False
        self._seen_since = 0.0
        self._previous_handler: Any = None
        self._armed = False
        self._depth = 0

    def _due_after(self, since: float) -> None:
        """The zygote kills this process if what runs since `since` has not changed by the limit plus the grace."""
        _due[0] = int((since + self.limit + self.grace) * 1e9)

    def _on_tick(self, _signum: int, _frame: Any) -> None:
        if not self._armed:
            return
        now = time.monotonic()
        if self.calls != self._seen_calls or self.active != self._seen_active:
            # A call started or ended since the last tick: the zygote's time runs from now. The engine's own work
            # between two calls is timed likewise (it takes far less than a limit), so user code the engine runs
            # outside a call (a returned value's methods) cannot run on unlimited either.
            self._seen_calls, self._seen_active, self._seen_since = self.calls, self.active, now
            self._due_after(now)
            return
        if self.active and now - self._seen_since >= self.limit:
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
        if hasattr(signal, "pthread_sigmask"):
            # A detection that blocked the signal leaves it blocked for the next one, whose calls the zygote
            # would then stop: each arming unblocks it.
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})
        self._seen_calls, self._seen_active, self._seen_since = self.calls, self.active, time.monotonic()
        self._due_after(self._seen_since)
        self._armed = True
        signal.setitimer(signal.ITIMER_REAL, self.tick, self.tick)

    def disarm(self) -> None:
        """Stop ticking and restore the previous SIGALRM handler (when the outermost arm ends)."""
        self._depth = max(0, self._depth - 1)
        if self._depth > 0 or not self._armed:
            return
        signal.setitimer(signal.ITIMER_REAL, 0, 0)
        signal.signal(signal.SIGALRM, self._previous_handler or signal.SIG_DFL)
        _due[0] = 0
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
