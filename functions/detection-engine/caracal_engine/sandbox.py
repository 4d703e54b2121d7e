"""The sandbox process, where user code runs: `python3 -I -S -B sandbox.py CTL_IN CTL_OUT DATA_OUT KV_IN MEMORY_MB
ALLOW_UNFILTERED OPTIONAL [FOLDER...]`, started by the host (host.py) with an environment holding only TZ; the
folders join its module path: the site-packages `site` would have added under -I (it does not run: -S, see
sitepath.py) and where the host finds the optional preloaded modules (in the AWS runtime, outside the
interpreter's own path).

It imports the engine and the preloaded modules, locks itself down (lockdown.py), says {"ready": ...} on
its control channel and serves the host's requests there, one JSON line each, without ever running user
code itself (it is the zygote). OPTIONAL "all" preloads every optional module (boto3, requests, ...:
lockdown.OPTIONAL_MODULES and requirements.txt); "ask" first reads {"op": "preload", "imports": [top-level
module names] | null} from the host, which names what its content's source imports, and preloads only the
optional modules named there (all of them when it names another installed module not yet loaded, which one
of them may bring along: lockdown.optional_needed); the local worker's host does this, as importing
boto3 alone took longer than a whole unit-test run of content that never imports it. unittest.mock (with
the asyncio it brings) is loaded the same way (lockdown.ON_DEMAND_MODULES): for content naming it, and for
unit tests with Mocks, which the host names it for (host.MOCK_MODULES):

    {"op": "content", "version", "content", "codeBytes"?}
                                              compile content, keep it under its version → {"ok": report};
                                              the host's compiled code may follow, marshalled, in `codeBytes`
    {"op": "forget", "version"}               drop a version                              → {"ok": null}
    {"op": "check", "items"}                  save-time checks (check.py)                 → {"ok": {...}}
    {"op": "fork", "task", "eventsBytes"?, "eventsJsonBytes"?, "detectionsBytes"?}
                                              → {"child": pid}, later {"exit": {...}}; a run's events
                                              follow the line, marshalled, in `eventsBytes` bytes, or as
                                              their JSON array's text in `eventsJsonBytes` (handed to the
                                              child unread, which decodes it), and a test task's
                                              detections in `detectionsBytes` (handed to the child unread)
    {"op": "stop"}                            kill the running child (its exit follows: {"code", "signal",
                                              "killed", "timeLimit"?, "progress"})

For a task the zygote forks a child, which adds the strict filter, runs the task's user code from item
`start` on and streams what it finds on the data channel (DATA_OUT), reading the host's key-value answers
on KV_IN; the zygote reports the child's end with the item and sub-item it was working on (shared memory),
so the host can blame the right detection, test or line and fork again for the rest. The zygote also kills a
child whose call into user code is still running past its time limit plus a grace, at the time the child's
timer writes in that memory (guard.py), whatever the child did to that timer; the exit then carries the limit
("timeLimit"). A child gets its task on a pipe of its own after the fork; for unit tests the zygote forks the
next child ahead (the spare) while the current one runs, so that fork overlaps the run. The spare runs one
task only, like every child, and is discarded on any change of content versions. Tasks:

    {"kind": "run", "version", "events" | "eventCount" (with eventsJsonBytes), "detectionIds"?, "start"}
        → {"result": [k, i, result]} per alert or error, {"done": [k, printed, load errors]} per detection;
          with the events' text, first what the child decoded: {"nonObjects": [i...]}, {"events": {"count"}}
          (or {"events": {"error"}}, and nothing after it: Child.events)
    {"kind": "test", "version", "detections": [{"detectionId", "tests"}], "destinations"?, "start"}
        → {"done": [j, verdict, load errors]} per test, j counting the tests of all the detections in order
          (the progress holds j and the detection's index; the older form, one "detectionId" and its "tests",
          is a task of one detection)
    {"kind": "parse", "function", "logs", "start", "budget", "batchSeconds"}
        → {"done": [j, result, size]} per line, or {"answer": {"error"}} when the function is unusable
    key-value requests of the caching helpers (run): {"kv": {...}, "kvId"}, answered {"kvId", "result" | "error"}

Every task also carries "cpuSeconds" (the child's CPU limit) and "nonce" (names its key-value requests).

The isolation unit is the task, for unit tests as for live runs: the detections of one test task run their
tests one after another in one child (forking a child per detection cost more than the tests themselves),
locked down, holding no credentials and only its own content version. Per test, the engine gives a fresh
in-memory key-value store and undoes the test's Mocks (testing.py) before the next test, of this detection or
the next; a test that raises, loops past its time limit, crashes, exits or floods its channel fails alone,
and the host forks again from the test after it. What one detection does to shared module state (a global
helper's module variables, builtins) is seen by the detections after it in the same task, as in a live run
and as in panther_analysis_tool, which runs every test in one process.
"""

import gc
import json
import marshal
import mmap
import os
import select
import signal
import struct
import sys
import time
import traceback
from typing import Any, Dict, List, Mapping, Optional, Tuple

from . import kv, lockdown
from .check import check_items
from .engine import Engine
from .events_json import decode_events
from .guard import outside_grace, share_due
from .immutable import json_encoder
from .modules import global_helpers
from .script_parser import DEFAULT_TIME_LIMIT_SECONDS as PARSE_TIME_LIMIT_SECONDS, ScriptParsers

READ_BYTES = 1 << 20
# A child's results wait for the end of their detection (or this much of them) to travel in one write.
MAX_QUEUED_BYTES = 1024 * 1024
REAP_FIRST_POLL_SECONDS = 0.0005
REAP_POLL_SECONDS = 0.05
# Indexes of events that are not objects per message (a message stays well under the host's size limit).
NON_OBJECTS_PER_MESSAGE = 100_000
# The memory a zygote shares with its children, as 64-bit integers: the item and sub-item a child is working on,
# and when its current call into user code must be over (guard.py; time.monotonic_ns(), 0 while no limit runs).
PROGRESS_ITEM, PROGRESS_SUB, PROGRESS_DUE = 0, 1, 2
PROGRESS_SLOTS = 3
# Longest the zygote sleeps, while a child runs, before it looks at when the child's call must be over.
MAX_WATCH_SECONDS = 60.0


def encode(value: Any) -> Any:
    """Event values inside results (alert context) serialise as plain JSON; anything else as text."""
    try:
        return json_encoder(value)
    except TypeError:
        return str(value)


class Channel:
    """JSON lines over a pair of file descriptors (either may be missing)."""

    def __init__(self, reader: Optional[int], writer: Optional[int]) -> None:
        self.reader = reader
        self.writer = writer
        self.buffer = bytearray()
        self.queued: List[bytes] = []
        self.queued_bytes = 0

    def send(self, message: Mapping) -> None:
        self.hold(message)
        self.flush()

    def hold(self, message: Mapping) -> None:
        """Queue a message; it goes with the next flush (when the queue grows large, at once)."""
        self.queued.append((json.dumps(message, separators=(",", ":"), default=encode) + "\n").encode("utf-8", "surrogatepass"))
        self.queued_bytes += len(self.queued[-1])
        if self.queued_bytes > MAX_QUEUED_BYTES:
            self.flush()

    def flush(self) -> None:
        view = memoryview(b"".join(self.queued))
        self.queued, self.queued_bytes = [], 0
        while view:
            view = view[os.write(self.writer, view):]  # type: ignore[arg-type]

    def pending(self) -> bool:
        return b"\n" in self.buffer

    def receive_bytes(self, size: int) -> bytes:
        """Exactly `size` bytes that follow the last message (a request's binary payload)."""
        while len(self.buffer) < size:
            chunk = os.read(self.reader, max(READ_BYTES, size - len(self.buffer)))  # type: ignore[arg-type]
            if not chunk:
                raise EOFError("the channel ended inside a payload")
            self.buffer += chunk
        payload = bytes(self.buffer[:size])
        del self.buffer[:size]
        return payload

    def receive(self) -> Optional[Dict[str, Any]]:
        """The next message (lines that are not a JSON object are skipped); None at the end of the stream."""
        while True:
            newline = self.buffer.find(b"\n")
            while newline < 0:
                start = len(self.buffer)
                chunk = os.read(self.reader, READ_BYTES)  # type: ignore[arg-type]
                if not chunk:
                    return None
                self.buffer += chunk
                newline = self.buffer.find(b"\n", start)
            line = bytes(self.buffer[:newline])
            del self.buffer[: newline + 1]
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict):
                return message


def test_items(task: Mapping) -> List[Tuple[int, str, Any]]:
    """A test task's items, (detection index, detection id, test) for each test of each detection in order; the
    host numbers them the same way (host.test_many)."""
    detections = task.get("detections")
    if detections is None:
        detections = [{"detectionId": task.get("detectionId"), "tests": task.get("tests")}]
    return [(k, str(d.get("detectionId")), test) for k, d in enumerate(detections) for test in d.get("tests") or []]


def _task(payload: bytes) -> Dict[str, Any]:
    """A child's task from the zygote's payload: the marshalled task after its length, then its marshalled
    "detections" when they came apart (Zygote.fork)."""
    (size,) = struct.unpack_from("<Q", payload)
    task = marshal.loads(payload[8:8 + size])
    if task.get("eventsJson") is True:
        task["eventsJson"] = payload[8 + size:]
    elif len(payload) > 8 + size:
        task["detections"] = marshal.loads(payload[8 + size:])
    return task


class KeyValueError(Exception):
    """The host refused or could not perform a key-value operation."""


class Child:
    """A forked child: locks itself down further, runs one task, streams its results."""

    def __init__(self, task: Mapping, data: Channel, engines: Dict[str, Engine], progress: memoryview, filtered: bool) -> None:
        self.task = task
        self.data = data
        self.engines = engines
        self.progress = progress
        self.filtered = filtered
        self.sequence = 0
        self.reported = 0

    def done(self, engine: Engine, index: int, value: Any) -> None:
        """Item `index` is finished: its value, and the load errors found since the last item."""
        errors = engine.errors[self.reported:]
        self.reported = len(engine.errors)
        self.data.send({"done": [index, value, errors]})

    def key_value(self, request: Dict[str, Any]) -> Any:
        self.sequence += 1
        kv_id = f"{self.task.get('nonce')}:{self.sequence}"
        self.data.send({"kv": request, "kvId": kv_id})
        while True:
            reply = self.data.receive()
            if reply is None:
                raise KeyValueError("the host closed the channel during a key-value request")
            if reply.get("kvId") != kv_id:
                continue
            if reply.get("error"):
                raise KeyValueError(str(reply["error"]))
            return reply.get("result")

    def run(self) -> None:
        task = self.task
        # Before any user code: each tick of the time limit tells the zygote when to kill this process (guard.py).
        share_due(self.progress[PROGRESS_DUE:PROGRESS_DUE + 1])
        if not self.filtered:
            # A filtered child locked itself as it was forked, and the zygote set its CPU limit (Zygote.spawn).
            lockdown.lock_child(int(task.get("cpuSeconds") or lockdown.CORE_PROCESS_CPU_SECONDS), False)
        kind = task.get("kind")
        start = int(task.get("start") or 0)
        if kind == "parse":
            self.parse(start)
            return
        engine = self.engines[task["version"]]
        # The zygote keeps several content versions (live runs' and unit tests'): the child drops all but its own
        # before any user code runs, so a detection under test cannot reach another version's code or state.
        others = [v for v in self.engines if v != task["version"]]
        for version in others:
            del self.engines[version]
        if others:
            # Their objects hold reference cycles, and are frozen (Zygote.fork): collected here, they are gone.
            gc.unfreeze()
            gc.collect()
        engine.activate()
        if kind == "run":
            events = task.get("events") or []
            if "eventsJson" in task:
                events = self.events(task["eventsJson"], task.get("eventCount"))
                if events is None:
                    return
            kv.use_store(kv.WorkerStore(self.key_value))
            engine.run(
                events, task.get("detectionIds"), start,
                on_result=lambda k, i, result: self.data.hold({"result": [k, i, result]}),
                on_done=lambda k, printed: self.done(engine, k, printed),
                progress=self.progress, lookups=task.get("lookups"),
            )
        elif kind == "test":
            # The tests of every detection in the task, in order, as one list of items: a child that dies on one
            # is followed by another from the next (host.py), as a run's child is from the next detection.
            items = test_items(task)
            destinations = task.get("destinations")
            # The time limit's timer ticks for the whole task (each test's calls are still timed one by one):
            # arming it per test cost more than many a test.
            with engine.watchdog:
                for index in range(start, len(items)):
                    k, detection_id, test = items[index]
                    self.progress[0], self.progress[1] = index, k
                    self.done(engine, index, engine.test_one(detection_id, test, destinations))
        else:
            raise ValueError(f"unknown task {kind!r}")

    def events(self, data: bytes, count: Any) -> Optional[List[Any]]:
        """A run's events from their JSON array's text, decoded here once, before any user code runs in this child;
        what was decoded goes first on the data channel (the host reads it only as a child's first messages):
        {"nonObjects": [indexes]} in parts, then {"events": {"count"}}, or {"events": {"error"}} and None, as
        also when the count is not the request's (the host says so)."""
        try:
            events = decode_events(data, count)
        except ValueError as error:
            self.data.send({"events": {"error": str(error)}})
            return None
        indexes = [index for index, event in enumerate(events) if not isinstance(event, dict)]
        for part in range(0, len(indexes), NON_OBJECTS_PER_MESSAGE):
            self.data.hold({"nonObjects": indexes[part:part + NON_OBJECTS_PER_MESSAGE]})
        self.data.send({"events": {"count": len(events)}})
        return events if len(events) == count else None

    def parse(self, start: int) -> None:
        task = self.task
        parsers = ScriptParsers(batch_seconds=float(task.get("batchSeconds") or 0))
        answer = parsers.parse(
            task.get("function"), task.get("logs"), start, int(task.get("budget") or 0),
            on_line=lambda index, result, size: self.data.send({"done": [index, result, size]}),
            progress=self.progress,
        )
        if "error" in answer:
            self.data.send({"answer": answer})


class Zygote:
    """Serves the host's requests; holds compiled content by version and forks a child per task."""

    def __init__(self, control: Channel, data: Channel, filtered: bool) -> None:
        self.control = control
        self.data = data
        self.filtered = filtered
        self.engines: Dict[str, Engine] = {}
        self.progress = memoryview(mmap.mmap(-1, 8 * PROGRESS_SLOTS)).cast("q")
        # A child forked ahead for the next unit-test task (pid, its task pipe, its end pipe): forked while the
        # previous child runs, it waits for its task and runs that one task only, like any other child.
        self.spare: Optional[Tuple[int, int, int]] = None

    def serve(self) -> None:
        while True:
            request = self.control.receive()
            if request is None:
                return
            try:
                self.handle(request)
            except Exception as error:  # pylint: disable=broad-except - a bad request is answered, not fatal
                self.control.send({"error": f"{type(error).__name__}: {error}"})

    def handle(self, request: Mapping) -> None:
        op = request.get("op")
        if op not in ("fork", "stop"):
            # A spare holds the content as it was when forked: any change of versions discards it.
            self.discard_spare()
        if op == "content":
            # The host may send the content's code compiled (host.compiled_content), marshalled after the line.
            code = marshal.loads(self.control.receive_bytes(int(request["codeBytes"]))) if "codeBytes" in request else None
            engine = Engine()
            report = engine.prepare(request.get("content") or {}, code if isinstance(code, dict) else None)
            self.engines[str(request["version"])] = engine
            self.control.send({"ok": report})
        elif op == "forget":
            self.engines.pop(str(request.get("version")), None)
            self.control.send({"ok": None})
        elif op == "check":
            self.control.send({"ok": check_items(request.get("items"))})
        elif op == "fork":
            task = dict(request.get("task") or {})
            if "eventsBytes" in request:
                task["events"] = marshal.loads(self.control.receive_bytes(int(request["eventsBytes"])))
            tests = self.control.receive_bytes(int(request["detectionsBytes"])) if "detectionsBytes" in request else b""
            if "eventsJsonBytes" in request:
                # The events' JSON text goes to the child as it came, which decodes it (Child.events).
                tests = self.control.receive_bytes(int(request["eventsJsonBytes"]))
                task["eventsJson"] = True
            self.fork(task, tests)
        elif op != "stop":
            raise ValueError(f"unknown op {op!r}")

    def spawn(self) -> Tuple[int, int, int]:
        """Fork a child that waits for its task on a pipe (marshalled, then end of file) and runs it; returns its
        pid, the pipe's write end and the read end of a pipe that closes when the child ends."""
        tasks, task_writer = os.pipe()
        ended, alive = os.pipe()
        # The child's garbage collector leaves the zygote's objects alone (frozen), so it does not touch, and
        # copy, the whole inherited heap on its first collection; the zygote collects as before.
        gc.freeze()
        pid = os.fork()
        if pid != 0:
            gc.unfreeze()
            os.close(tasks)
            os.close(alive)
            return pid, task_writer, ended
        code = 0
        try:
            os.close(ended)
            os.close(task_writer)
            os.close(self.control.reader)  # type: ignore[arg-type]
            os.close(self.control.writer)  # type: ignore[arg-type]
            if self.spare is not None:
                os.close(self.spare[1])
                os.close(self.spare[2])
            if self.filtered:
                # Locked before it has a task: a spare does this while the child before it runs.
                lockdown.lock_child_early()
            chunks = []
            while True:
                chunk = os.read(tasks, READ_BYTES)
                if not chunk:
                    break
                chunks.append(chunk)
            os.close(tasks)
            if chunks:  # none: discarded unused, or the zygote is gone
                Child(_task(b"".join(chunks)), self.data, self.engines, self.progress, self.filtered).run()
        except BaseException:  # pylint: disable=broad-except - reported on stderr, the exit code tells the host
            traceback.print_exc()
            code = 70
        sys.stdout.flush()
        os._exit(code)

    def discard_spare(self) -> None:
        if self.spare is None:
            return
        pid, task_writer, ended = self.spare
        self.spare = None
        os.close(task_writer)  # end of file with no task: the spare exits at once
        os.close(ended)
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass

    def fork(self, task: Mapping, tests: bytes = b"") -> None:
        """Run `task` in a child; `tests`, when given, are its marshalled "detections" (passed on unread)."""
        if task.get("kind") != "parse" and str(task.get("version")) not in self.engines:
            raise ValueError(f"no content prepared under version {task.get('version')!r}")
        self.progress[PROGRESS_ITEM], self.progress[PROGRESS_SUB], self.progress[PROGRESS_DUE] = -1, -1, 0
        limit = self.time_limit(task)
        head = marshal.dumps(dict(task))
        payload = struct.pack("<Q", len(head)) + head + tests
        child = None
        if task.get("kind") == "test" and self.spare is not None:
            child, self.spare = self.spare, None
            try:
                self.hand(child, task, payload)
            except OSError:  # the spare is gone (killed from outside): a fresh child takes the task
                os.close(child[2])
                try:
                    os.waitpid(child[0], 0)
                except ChildProcessError:
                    pass
                child = None
        if child is None:
            child = self.spawn()
            try:
                self.hand(child, task, payload)
            except OSError:
                pass  # it ended before its task (it could not lock itself down): the wait below says how
        pid, _, ended = child
        # The host hears of the child before the next spare is forked: it reads the child's output meanwhile.
        self.control.send({"child": pid})
        if task.get("kind") == "test" and self.spare is None:
            try:
                self.spare = self.spawn()
            except OSError:
                self.spare = None  # no room for another process now: the next task forks its own
        status, killed, overran = self.wait(pid, ended, limit)
        os.close(ended)
        self.control.send({"exit": {
            "code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
            "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            "killed": killed,
            **({"timeLimit": limit} if overran else {}),
            "progress": [self.progress[PROGRESS_ITEM], self.progress[PROGRESS_SUB]],
        }})

    def time_limit(self, task: Mapping) -> float:
        """The per-call time limit of a task's user code (the content's, or a parse function's)."""
        if task.get("kind") == "parse":
            return PARSE_TIME_LIMIT_SECONDS
        return self.engines[str(task.get("version"))].watchdog.limit

    def hand(self, child: Tuple[int, int, int], task: Mapping, payload: bytes) -> None:
        """Give a waiting child its CPU limit and its task, then end of file."""
        task_writer = child[1]
        try:
            if self.filtered:
                lockdown.limit_child(child[0], int(task.get("cpuSeconds") or lockdown.CORE_PROCESS_CPU_SECONDS))
            view = memoryview(payload)
            while view:
                view = view[os.write(task_writer, view):]
        finally:
            os.close(task_writer)

    def wait(self, pid: int, ended: int, limit: float) -> Tuple[int, bool, bool]:
        """Until the child has exited (its end of `ended` closes, then it is reaped), obey "stop" and kill the
        child when its current call is past the time it had to be over (PROGRESS_DUE, see guard.py); returns
        its wait status, whether it was stopped and whether it overran. Should the host go away, the child is
        killed.

        The child's timer writes that time on each tick; whatever the child does to the timer (ignores, blocks
        or re-handles SIGALRM, cancels it), to the timeout (swallows it in a loop) or in C code no handler
        interrupts, the time stays and the zygote kills the child then. The zygote sleeps until that time,
        or, while the child runs no limited code, the limit plus its grace (a call starting meanwhile must
        be over by then at the earliest)."""
        killed = overran = False
        listening = True
        poll: Optional[float] = None
        idle = limit + outside_grace(limit) if limit > 0 else None
        while True:
            if poll is not None:
                reaped, status = os.waitpid(pid, os.WNOHANG)
                if reaped:
                    return status, killed, overran
            timeout = poll
            if poll is None and idle is not None and not (killed or overran):
                due = self.progress[PROGRESS_DUE]
                left = idle if due <= 0 else due / 1e9 - time.monotonic()
                if left <= 0:
                    os.kill(pid, signal.SIGKILL)
                    overran = True
                else:
                    timeout = min(left, idle if due <= 0 else MAX_WATCH_SECONDS)
            watched = ([self.control.reader] if listening else []) + ([ended] if poll is None else [])
            if listening and self.control.pending():
                ready = [self.control.reader]
            else:
                ready = select.select(watched, [], [], timeout)[0]
            if ended in ready:
                poll = 0.0
            elif poll is not None:
                # The child's pipe closes as it exits, a moment before it can be reaped (or it closed the
                # pipe itself and runs on): look again soon, then less often.
                poll = min(max(poll * 2, REAP_FIRST_POLL_SECONDS), REAP_POLL_SECONDS)
            if self.control.reader in ready:
                request = self.control.receive()
                listening = request is not None
                if (request is None or request.get("op") == "stop") and not (killed or overran):
                    os.kill(pid, signal.SIGKILL)
                    killed = True


def main(argv: List[str]) -> int:
    ctl_in, ctl_out, data_out, kv_in, memory_mb, allow_unfiltered, optional, *module_folders = argv
    control = Channel(int(ctl_in), int(ctl_out))
    try:
        loaded = lockdown.preload_base(module_folders)
        roots = None
        if optional == "ask":
            # The host names the modules its content imports (host.imported_modules) before anything is locked;
            # no user code nor content reaches this process until it is locked down.
            request = control.receive()
            if request is None:
                return 0
            if request.get("op") != "preload":
                raise ValueError(f"expected the preload request, got {request.get('op')!r}")
            imports = request.get("imports")
            roots = lockdown.optional_needed(imports if isinstance(imports, list) else None)
        loaded += lockdown.preload_optional(roots)
        uncached = lockdown.uncached_sources()
        report = lockdown.lock_zygote(int(memory_mb) * 1024 * 1024, allow_unfiltered == "1")
        lockdown.lock_imports(global_helpers())
    except Exception as error:  # pylint: disable=broad-except - any failure to lock down is reported and fatal
        control.send({"failed": f"{type(error).__name__}: {error}"})
        return 1
    control.send({"ready": {**report, "preloaded": loaded, **({"uncached": uncached} if uncached else {})}})
    Zygote(control, Channel(int(kv_in), int(data_out)), report["filter"]).serve()
    return 0
