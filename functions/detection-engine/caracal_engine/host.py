"""The trusted side of the sandbox, in the engine Lambda (handler.py) and the local worker (worker.py).

The host holds what user code must never reach (the function's environment and credentials, the
key-value table's client) and runs user code only in sandbox processes (sandbox.py): `python3 -I -S -B`
started fresh (spawned, never forked from the host) with an environment holding only TZ=UTC and four
pipes. It keeps one warm sandbox for detection runs and unit tests, with each content version compiled
once (the zygote only compiles; user code runs in a child forked per task, which keeps only its own content
version and is discarded after; a task is a run's detections, or the unit tests of one or more detections);
script parsers and save-time checks get a sandbox of their own.

A run goes detection by detection in a child the sandbox forks; results stream back as they are made.
When the child dies (exits, crashes, is killed for memory, or is killed by its zygote for a call past the
time limit that it kept from interrupting it: sandbox.py) or its detection overruns its share of the time
left, that detection gets an error result on the event it was working on, and a new child carries on with
the detections after it: one bad detection costs only itself. Tests and script parsers work
the same way, per test (of each detection in the task, in order) and per line.

The caching helpers reach the key-value table only through the host: the sandbox asks on its channel,
the host checks the request (operation, key, sizes) and performs it with its own store.
"""

import importlib.util
import json
import marshal
import math
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections import OrderedDict
from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Set, Tuple, Union

from . import kv
from .events_json import EventsJson, check_count
from .optional import optional_module_folders
from .sitepath import site_folders

SANDBOX_SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "sandbox.py")
MODULE_FOLDERS = optional_module_folders()
# A sandbox starts without `site` (-S: the .pth files' import lines cost every start; see sitepath.py): it gets
# the folders `site` would have given it under -I (no user site-packages), then those of the optional modules.
SANDBOX_FOLDERS = list(dict.fromkeys(site_folders(user=False) + MODULE_FOLDERS))
# The host's bytecode folder, when it has one of its own (the local worker): sandboxes read the bytecode the
# host wrote there (they never write any: -B, and a child can open no file) instead of compiling every module.
_PYCACHE = ("-X", f"pycache_prefix={sys.pycache_prefix}") if sys.pycache_prefix else ()
DEFAULT_MEMORY_MB = 1024
STARTUP_SECONDS = 60.0
# Content versions a warm sandbox keeps compiled (the detections function sends one per log type).
MAX_VERSIONS = 8
# Per detection still to run, time a run keeps back from the one running now.
RUN_FLOOR_SECONDS = 0.5
# Time kept back at the end of an invocation to answer: this share of it, at most MAX_RESERVE_SECONDS.
RESERVE_SHARE = 0.1
MAX_RESERVE_SECONDS = 5.0
# Without a deadline, a unit-test child's verdicts are read this far apart (Sandbox.next); a test's own
# messages never wait on the host (its key-value store is its own).
TEST_LINGER_SECONDS = 0.002
# A child without a deadline (the local worker) still gets a CPU limit.
UNBOUNDED_CPU_SECONDS = 600
MAX_MESSAGE_BYTES = 16 * 1024 * 1024
READ_BYTES = 1 << 20
MAX_KV_BACKLOG_BYTES = 1024 * 1024
MAX_STDERR_TAIL = 4000
MAX_PRINTED = 10_000
MAX_KEY_BYTES = 1024
MAX_ITEM_BYTES = 350 * 1024
MAX_COUNTER = 10**15
MAX_EPOCH_SECONDS = 10**11
OUT_OF_TIME = "the call ran out of time before it ran"
# Compiled content the local worker keeps (compiled_content): a folder of its bytecode folder, the newest files.
CONTENT_CODE_FOLDER = "caracal-content"
KEPT_CONTENT_CODE = 8
# What unit tests with Mocks need a sandbox to have loaded (testing.py; lockdown.ON_DEMAND_MODULES).
MOCK_MODULES = ("unittest.mock",)


class SandboxError(Exception):
    """The sandbox could not start or broke its protocol (never a user's code failing: that is a result)."""


class KeyValueRequestError(Exception):
    """A key-value request from the sandbox that the host refuses."""


class Exit(NamedTuple):
    """How a child ended: exit code or signal, whether the host stopped it, and its last progress; `time_limit`
    when its zygote killed it for a call past that per-call limit (the child could not stop itself)."""

    code: Optional[int]
    signal: Optional[int]
    killed: bool
    item: int
    sub: int
    time_limit: Optional[float] = None


class Failure(NamedTuple):
    """An item a child died on (with how it ended and the sub-item, the event, if known), or never reached."""

    item: int
    sub: int = -1
    end: Optional[Exit] = None
    flooded: bool = False

    @property
    def in_setup(self) -> bool:
        """The child ended before it started on any item (while loading a parse function's module body)."""
        return self.end is not None and self.end.item < 0

    def reason(self, subject: str) -> str:
        if self.end is None:
            return OUT_OF_TIME
        if self.flooded:
            return f"ProcessKilled: {subject} sent more output than allowed"
        return _reason(subject, self.end)


def _non_blocking(fd: int) -> int:
    os.set_blocking(fd, False)
    return fd


class Sandbox:
    """One sandbox process and its channels."""

    def __init__(self, memory_mb: int, allow_unfiltered: bool, wait: bool = True, ask: bool = False) -> None:
        ctl_in_r, ctl_in_w = os.pipe()
        ctl_out_r, ctl_out_w = os.pipe()
        data_r, data_w = os.pipe()
        kv_r, kv_w = os.pipe()
        err_r, err_w = os.pipe()
        theirs = (ctl_in_r, ctl_out_w, data_w, kv_r)
        try:
            self.process = subprocess.Popen(  # pylint: disable=consider-using-with - ended in close()
                [sys.executable, "-I", "-S", "-B", *_PYCACHE, SANDBOX_SCRIPT, *map(str, theirs), str(memory_mb),
                 "1" if allow_unfiltered else "0", "ask" if ask else "all", *SANDBOX_FOLDERS],
                env={"TZ": "UTC"}, stdin=subprocess.DEVNULL, stdout=err_w, stderr=err_w, pass_fds=theirs,
                cwd="/", close_fds=True,
            )
        finally:
            for fd in (*theirs, err_w):
                os.close(fd)
        self.ctl_in = _non_blocking(ctl_in_w)
        self.kv_in = _non_blocking(kv_w)
        self.readers = {_non_blocking(fd): bytearray() for fd in (ctl_out_r, data_r, err_r)}
        self.ctl_out, self.data_out, self.err_out = ctl_out_r, data_r, err_r
        self.outgoing: Dict[int, bytearray] = {self.ctl_in: bytearray(), self.kv_in: bytearray()}
        self.kv_partial = False
        self.control: List[Dict[str, Any]] = []
        self.data: List[Dict[str, Any]] = []
        self.stderr = ""
        self.flooded = False
        self.flood_told = False
        self.started = time.monotonic()
        self._report: Optional[Dict[str, Any]] = None
        self._tests_cache: Optional[Tuple[List[Any], bytes]] = None
        # Started with `ask`, the sandbox waits for the host to name what its content imports (preload).
        self.asking = ask
        self.imports: Optional[Set[str]] = None
        if wait:
            self.ready()

    def preload(self, imports: Optional[List[str]]) -> None:
        """Tell a sandbox started with `ask` the top-level modules its content imports (None: it cannot be told,
        so it loads every optional module); see sandbox.py. Sent at once: the sandbox waits for it."""
        if self.asking:
            self.asking = False
            self.imports = None if imports is None else set(imports)
            self.send({"op": "preload", "imports": imports})
            try:
                self._pump(0)
            except SandboxError:
                # It ended before reading it (it failed to start): ready() reads why.
                self.outgoing[self.ctl_in].clear()

    def covers(self, imports: Optional[List[str]]) -> bool:
        """Whether this sandbox was prepared for content importing `imports` (it loaded every optional module,
        or was told a superset of these imports)."""
        return not self.asking and (self.imports is None or (imports is not None and set(imports) <= self.imports))

    def ready(self) -> Dict[str, Any]:
        """Wait until the sandbox has locked itself down and said so; its lockdown report. A sandbox started
        without waiting (Host.start) imports and locks down while its host does other work."""
        self.preload(None)
        if self._report is None:
            ready = self.reply(self.started + STARTUP_SECONDS)
            if "ready" not in ready:
                self.close()
                raise SandboxError(f"the sandbox did not start: {ready.get('failed') or ready}{self._tail()}")
            self._report = ready["ready"]
        return self._report

    @property
    def report(self) -> Dict[str, Any]:
        return self.ready()

    def _tail(self) -> str:
        return f" ({self.stderr.strip()[-MAX_STDERR_TAIL:]})" if self.stderr.strip() else ""

    def alive(self) -> bool:
        return self.process.poll() is None and self.ctl_out in self.readers

    # ---------------------------------------------------------------------------------- plumbing

    def _pump(self, timeout: Optional[float]) -> None:
        """Move bytes once: read what the sandbox wrote, write what is queued for it."""
        writers = [fd for fd, queued in self.outgoing.items() if queued]
        # A child that flooded its channel is read no further: it blocks on the full pipe until it is stopped,
        # still in the item it flooded from (its leftovers are drained and dropped when it has ended).
        readers = [fd for fd in self.readers if not (self.flooded and fd == self.data_out)]
        readable, writable, _ = select.select(readers, writers, [], timeout)
        for fd in writable:
            try:
                with memoryview(self.outgoing[fd]) as view:
                    written = os.write(fd, view[:READ_BYTES])
            except BlockingIOError:
                continue
            except BrokenPipeError:
                if fd == self.ctl_in:
                    raise SandboxError(f"the sandbox ended{self._tail()}") from None
                self.outgoing[fd].clear()
                continue
            del self.outgoing[fd][:written]
            if fd == self.kv_in:
                self.kv_partial = bool(self.outgoing[fd]) and written > 0
        for fd in readable:
            self._read(fd)

    def _read(self, fd: int) -> bool:
        """Read what is there from `fd` and queue its complete lines; False when there was nothing to read."""
        try:
            chunk = os.read(fd, READ_BYTES)
        except BlockingIOError:
            return False
        if not chunk:
            del self.readers[fd]
            return False
        buffer = self.readers[fd]
        start = len(buffer)
        buffer += chunk
        end = buffer.rfind(b"\n", start)
        if end >= 0:
            complete = bytes(buffer[:end])
            del buffer[: end + 1]
            self._lines(fd, complete.split(b"\n"))
        if len(buffer) > (MAX_STDERR_TAIL if fd == self.err_out else MAX_MESSAGE_BYTES):
            if fd == self.ctl_out:
                raise SandboxError("the sandbox sent a message larger than allowed")
            if fd == self.data_out:
                self.flooded = True
            buffer.clear()
        return True

    def _lines(self, fd: int, lines: List[bytes]) -> None:
        if fd == self.err_out:
            for line in lines:
                text = line.decode("utf-8", "replace")
                self.stderr = (self.stderr + text + "\n")[-MAX_STDERR_TAIL:]
                print(text, file=sys.stderr)
            return
        queue = self.control if fd == self.ctl_out else self.data
        if len(lines) > 1:
            # The lines read at once are decoded in one call, as the items of one array (one call per line cost
            # the host as much CPU as a unit test); when that does not give one value per line, line by line.
            # Either way each value is one message: a child can make no message it could not send as a line.
            try:
                messages = json.loads(b"[" + b",".join(lines) + b"]")
            except (ValueError, RecursionError):
                messages = None
            if isinstance(messages, list) and len(messages) == len(lines):
                queue.extend(message for message in messages if isinstance(message, dict))
                return
        for line in lines:
            try:
                message = json.loads(line)
            except (ValueError, RecursionError):
                continue
            if isinstance(message, dict):
                queue.append(message)

    def _drain_data(self) -> None:
        """Read what is left on the data channel; a line cut short by a dying child is dropped."""
        while self.data_out in self.readers and self._read(self.data_out):
            pass
        if self.data_out in self.readers:
            self.readers[self.data_out].clear()

    def send(self, message: Mapping) -> None:
        self.outgoing[self.ctl_in] += (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8", "surrogatepass")

    def reply(self, until: Optional[float] = None) -> Dict[str, Any]:
        """The next control message, flushing what is queued meanwhile."""
        while not self.control:
            if self.ctl_out not in self.readers:
                raise SandboxError(f"the sandbox ended{self._tail()}")
            timeout = None if until is None else until - time.monotonic()
            if timeout is not None and timeout <= 0:
                raise SandboxError(f"the sandbox did not answer in time{self._tail()}")
            self._pump(timeout)
        return self.control.pop(0)

    def request(self, message: Mapping, payload: bytes = b"") -> Any:
        """Send a control request (and the bytes that follow its line) and return its result; the sandbox's
        refusal is a ValueError."""
        self.ready()
        self.send(message)
        self.outgoing[self.ctl_in] += payload
        answer = self.reply()
        if "error" in answer:
            raise ValueError(str(answer["error"]))
        if "ok" not in answer:
            raise SandboxError(f"unexpected message from the sandbox: {answer}")
        return answer["ok"]

    def fork(self, task: Mapping) -> None:
        self.ready()
        self.data.clear()
        self.flooded = self.flood_told = False
        tests = self._marshalled_tests(task)
        if isinstance(task.get("events"), EventsJson):
            # A run's events as the text of their JSON array, handed on unread: the child decodes them (sandbox.py).
            events = task["events"]
            self.send({"op": "fork", "task": {**{k: v for k, v in task.items() if k != "events"}, "eventCount": events.count},
                       "eventsJsonBytes": len(events.data)})
            self.outgoing[self.ctl_in] += events.data
        elif "events" in task:
            # A run's events travel marshalled (several times faster than JSON), from the host to the zygote
            # only: nothing from the sandbox is ever unmarshalled here.
            payload = marshal.dumps(task["events"])
            self.send({"op": "fork", "task": {k: v for k, v in task.items() if k != "events"}, "eventsBytes": len(payload)})
            self.outgoing[self.ctl_in] += payload
        elif tests is not None:
            # A test task's detections and their tests, likewise marshalled: the zygote hands them to the child
            # as they are, without reading them.
            self.send({"op": "fork", "task": {k: v for k, v in task.items() if k != "detections"},
                       "detectionsBytes": len(tests)})
            self.outgoing[self.ctl_in] += tests
        else:
            self.send({"op": "fork", "task": task})
        answer = self.reply()
        if "child" not in answer:
            raise ValueError(str(answer.get("error") or answer))

    def _marshalled_tests(self, task: Mapping) -> Optional[bytes]:
        """A test task's "detections", marshalled once for all the children the task takes (None for other
        tasks, or values marshal does not take: they go as JSON)."""
        detections = task.get("detections") if task.get("kind") == "test" else None
        if not isinstance(detections, list):
            return None
        if self._tests_cache is None or self._tests_cache[0] is not detections:
            try:
                self._tests_cache = (detections, marshal.dumps(detections))
            except ValueError:
                return None
        return self._tests_cache[1]

    def stop(self) -> None:
        self.send({"op": "stop"})

    def answer(self, reply: Mapping) -> None:
        """Queue a key-value answer for the child; a child that stops reading is flooding its channel."""
        queued = self.outgoing[self.kv_in]
        queued += (json.dumps(reply, separators=(",", ":"), default=str) + "\n").encode("utf-8", "surrogatepass")
        if len(queued) > MAX_KV_BACKLOG_BYTES:
            self.flooded = True

    def next(self, until: Optional[float], linger: float = 0.0) -> Tuple[str, Any]:
        """("data", message), ("flooded", None) once the child has sent more than allowed (after the messages
        before it, at once: whatever the child does next), ("exit", Exit) once the child has ended (after its
        last data), or ("timeout", None). With `linger` (and no `until`), it waits that long before reading
        more: the child's messages gather in the pipe meanwhile and one read takes many of them, where
        waking for each cost the host, and the child, more than a unit test."""
        while True:
            if self.data:
                return "data", self.data.pop(0)
            if self.flooded and not self.flood_told:
                self.flood_told = True
                return "flooded", None
            if self.control:
                message = self.control.pop(0)
                if "exit" not in message:
                    raise SandboxError(f"unexpected message from the sandbox: {message}")
                self._drain_data()
                if self.data or (self.flooded and not self.flood_told):
                    self.control.insert(0, message)
                    continue
                self._child_ended()
                end = message["exit"]
                item, sub = end.get("progress") or [-1, -1]
                limit = end.get("timeLimit")
                limit = float(limit) if isinstance(limit, (int, float)) and not isinstance(limit, bool) else None
                return "exit", Exit(end.get("code"), end.get("signal"), bool(end.get("killed")), int(item), int(sub), limit)
            if self.ctl_out not in self.readers:
                raise SandboxError(f"the sandbox ended{self._tail()}")
            timeout = None if until is None else until - time.monotonic()
            if timeout is not None and timeout <= 0:
                return "timeout", None
            if linger and until is None and not self.readers.get(self.data_out):
                # (Not while a line is coming in part by part: a flood is read as fast as it comes.)
                time.sleep(linger)
            self._pump(timeout)

    def _child_ended(self) -> None:
        """Answers to a child that has gone are dropped; a half-written one is ended so the next child skips it."""
        queued = self.outgoing[self.kv_in]
        queued.clear()
        if self.kv_partial:
            queued += b"\n"
            self.kv_partial = False

    def close(self) -> None:
        for fd in (self.ctl_in, self.kv_in, *self.readers):
            try:
                os.close(fd)
            except OSError:
                pass
        self.readers = {}
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


class KeyValueService:
    """Checks the sandbox's key-value requests and performs them with the host's store."""

    def __init__(self, store: kv.KeyValueStore) -> None:
        self.store = store

    def __call__(self, request: Any) -> Any:
        if not isinstance(request, dict):
            raise KeyValueRequestError("a key-value request must be an object")
        op = request.get("op")
        key = request.get("key")
        if not isinstance(key, str) or not key or len(key.encode("utf-8", "surrogatepass")) > MAX_KEY_BYTES:
            raise KeyValueRequestError(f"a key must be text of 1 to {MAX_KEY_BYTES} bytes")
        if op == "get":
            return _item_json(self.store.get(key))
        if op == "increment":
            return self.store.increment(key, _integer(request.get("amount"), "amount", -MAX_COUNTER, MAX_COUNTER))
        if op == "put":
            self.store.put(key, _item(request.get("item")))
            return None
        if op == "setExpiry":
            self.store.set_expiry(key, _integer(request.get("expiresAt"), "expiresAt", 0, MAX_EPOCH_SECONDS))
            return None
        if op in ("addStrings", "removeStrings"):
            values = _strings(request.get("values"))
            changed = self.store.add_strings(key, values) if op == "addStrings" else self.store.remove_strings(key, values)
            return sorted(changed)
        if op == "clearStrings":
            self.store.clear_strings(key)
            return None
        raise KeyValueRequestError(f"unknown key-value operation {op!r}")


def _integer(value: Any, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise KeyValueRequestError(f"{name} must be a whole number from {low} to {high}")
    return value


def _strings(values: Any) -> Set[str]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise KeyValueRequestError("values must be a list of strings")
    if len(json.dumps(values)) > MAX_ITEM_BYTES:
        raise KeyValueRequestError(f"values larger than {MAX_ITEM_BYTES} bytes")
    return set(values)


def _item(item: Any) -> Dict[str, Any]:
    if not isinstance(item, dict) or not set(item) <= {"intCount", "stringSet", "dictionary", "expiresAt"}:
        raise KeyValueRequestError("an item holds only intCount, stringSet, dictionary and expiresAt")
    out: Dict[str, Any] = {}
    if "intCount" in item:
        out["intCount"] = _integer(item["intCount"], "intCount", -MAX_COUNTER, MAX_COUNTER)
    if "expiresAt" in item:
        out["expiresAt"] = _integer(item["expiresAt"], "expiresAt", 0, MAX_EPOCH_SECONDS)
    if "stringSet" in item:
        out["stringSet"] = _strings(item["stringSet"])
    if "dictionary" in item:
        if not isinstance(item["dictionary"], str):
            raise KeyValueRequestError("dictionary must be JSON text")
        out["dictionary"] = item["dictionary"]
    if len(json.dumps(item)) > MAX_ITEM_BYTES:
        raise KeyValueRequestError(f"an item larger than {MAX_ITEM_BYTES} bytes")
    return out


def _item_json(item: Mapping) -> Dict[str, Any]:
    out = dict(item)
    if "stringSet" in out:
        out["stringSet"] = sorted(out["stringSet"])
    return out


# Importing by a computed name: content that calls or names any of these gets every optional module.
_DYNAMIC_IMPORT = re.compile(r"\b(?:__import__|import_module|exec|eval)\s*\(|\b(?:importlib|builtins|__builtins__|__loader__)\b")
# `from X import names` (X, and X.name for each name: it may be a submodule), or what follows an `import`
# (its comma-separated dotted names): in code, comments and strings alike (a superset of what the code imports).
_IMPORT = re.compile(r"\bfrom[ \t]+([\w.]+)[ \t]+import[ \t]*(\([^)]*\)|[^\n;#]*)|\bimport[ \t]+([^\n;#()]+)")
_NAME = re.compile(r"\s*([^\W\d][\w.]*)")


def imported_modules(content: Mapping) -> Optional[List[str]]:
    """The modules the Python of `content` (detections, data models, global helpers) imports, dotted, other
    than its global helpers, read from the source text (with `from X import y`, X.y too: y may be a
    submodule); None when it imports by a computed name (see _DYNAMIC_IMPORT), which the text cannot tell."""
    names: Set[str] = set()
    helpers: Set[str] = set()
    for section in ("globals", "dataModels", "detections"):
        for item in content.get(section) or []:
            if not isinstance(item, Mapping):
                continue
            if section == "globals" and isinstance(item.get("id"), str):
                helpers.add(item["id"])
            body = item.get("body")
            if not isinstance(body, str):
                continue
            text = body.replace("\\\n", " ")
            if _DYNAMIC_IMPORT.search(text):
                return None
            for match in _IMPORT.finditer(text):
                module = match.group(1)
                if module is not None:
                    if module.startswith("."):
                        continue  # relative: nothing a top-level module imports
                    names.add(module)
                    for part in match.group(2).strip("()").split(","):
                        name = _NAME.match(part)
                        if name and "." not in name.group(1):
                            names.add(f"{module}.{name.group(1)}")
                    continue
                for part in match.group(3).split(","):
                    name = _NAME.match(part)
                    if name:
                        names.add(name.group(1).rstrip("."))
    return sorted(n for n in names if n.split(".")[0] not in helpers)


def compiled_content(content: Mapping) -> Optional[bytes]:
    """The code of the content's Python (global helpers, data models, detections), compiled as the engine
    would (modules.compile_source) and marshalled, {"<section>:<index>": code}; sources that do not compile
    are left out (the sandbox compiles them itself, for their error). None when there is nothing to compile.
    With a bytecode folder of its own (the local worker's: sys.pycache_prefix), the result is kept there under
    a hash of every source, its file name and place, and of this python's bytecode version: a run over the same
    files reads it instead of compiling them all again (500 detections: some 20 ms)."""
    sources: List[Tuple[str, int, Mapping]] = []
    for section in ("globals", "dataModels", "detections"):
        for index, item in enumerate(content.get(section) or []):
            if not isinstance(item, Mapping) or not isinstance(item.get("body"), str):
                continue
            if section == "detections" and item.get("detection") is not None:
                continue
            sources.append((section, index, item))
    cached = _content_code_file(sources)
    if cached is not None:
        try:
            with open(cached, "rb") as handle:
                return handle.read()
        except OSError:
            pass
    # Imported only to compile (it brings importlib.abc along): the host's start, and a run whose compiled
    # content is kept, go without it.
    from .modules import compile_source, source_filename  # pylint: disable=import-outside-toplevel

    code: Dict[str, Any] = {}
    for section, index, item in sources:
        try:
            compiled = compile_source(item["body"], source_filename(section, item))
        except (KeyError, TypeError):
            continue
        if not isinstance(compiled, BaseException):
            code[f"{section}:{index}"] = compiled
    data = marshal.dumps(code) if code else None
    if cached is not None and data is not None:
        _keep_content_code(cached, data)
    return data


def _content_code_file(sources: List[Tuple[str, int, Mapping]]) -> Optional[str]:
    """Where compiled_content keeps the code of these sources (section, index, item), or None (no bytecode folder
    of its own). The key holds what the code depends on: each source, where it is, and what names its file
    (modules.source_filename: the item's path, else its section and id)."""
    if not sys.pycache_prefix or not sources:
        return None
    import hashlib  # pylint: disable=import-outside-toplevel - only the local worker keeps compiled content

    digest = hashlib.sha256(importlib.util.MAGIC_NUMBER)
    for section, index, item in sources:
        for part in (section, str(index), repr(item.get("path")), repr(item.get("id")), item["body"]):
            encoded = part.encode("utf-8", "surrogatepass")
            digest.update(len(encoded).to_bytes(8, "little"))
            digest.update(encoded)
    return os.path.join(sys.pycache_prefix, CONTENT_CODE_FOLDER, digest.hexdigest() + ".marshal")


def _keep_content_code(path: str, data: bytes) -> None:
    """Write compiled content (whole, by a rename) and remove all but the KEPT_CONTENT_CODE newest; a folder that
    cannot be written costs the compile next time, nothing else."""
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        temporary = f"{path}.{os.getpid()}.tmp"
        with open(temporary, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
        kept = sorted((entry for entry in os.scandir(folder) if entry.name.endswith(".marshal")),
                      key=lambda entry: entry.stat().st_mtime, reverse=True)
        for entry in kept[KEPT_CONTENT_CODE:]:
            os.unlink(entry.path)
    except OSError:
        pass


def with_sources(content: Mapping) -> Dict[str, Any]:
    """Content whose Python is given by `path` gets its source read here, by the host: the sandbox opens
    no file. The path stays, naming the module in tracebacks."""
    if content.get(_SOURCED) is True:
        return content  # read already (the local worker reads its content once, at load)
    out = dict(content)
    for section in ("globals", "dataModels", "detections"):
        items = []
        for item in content.get(section) or []:
            if isinstance(item, Mapping) and item.get("path") and item.get("body") is None:
                try:
                    with open(item["path"], encoding="utf-8") as handle:
                        item = {**item, "body": handle.read()}
                except (OSError, UnicodeDecodeError):
                    pass
            items.append(item)
        out[section] = items
    return out


# Marks content whose sources `with_sources` has read (set by the local worker on the content it keeps; the
# sandbox ignores unknown keys).
_SOURCED = "sourcesRead"


def sourced(content: Mapping) -> Dict[str, Any]:
    """`with_sources(content)`, marked so that later calls with it read nothing again."""
    return {**with_sources(content), _SOURCED: True}


def _version(content: Mapping) -> str:
    version = content.get("version")
    if version is not None:
        return str(version)
    return "content:" + str(hash(json.dumps(content, sort_keys=True, default=str)))


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _reason(subject: str, end: Exit) -> str:
    """Why a child stopped short, as an error text that stays the same for the same cause."""
    if end.time_limit is not None:
        return f"DetectionTimeout: {subject} exceeded its time limit of {end.time_limit:g}s and its process was killed"
    if end.killed:
        return f"DetectionTimeout: {subject} ran past its share of the time left"
    if end.signal == signal.SIGXCPU:
        return f"ProcessKilled: {subject} used more CPU time than allowed"
    if end.signal == signal.SIGKILL:
        return f"ProcessKilled: {subject} was killed, most likely for using more memory than allowed"
    if end.signal is not None:
        return f"ProcessCrash: {subject} crashed its process ({_signal_name(end.signal)})"
    return f"ProcessExit: {subject} ended its process (exit code {end.code})"


def has_mocks(test: Any) -> bool:
    """Whether a unit test has Mocks (its sandbox needs MOCK_MODULES)."""
    return isinstance(test, Mapping) and bool(test.get("Mocks"))


# Reads the child's message about the item in progress; returns the index of the item now in progress.
Listener = Callable[[int, Dict[str, Any]], int]


class Host:
    """Runs detections, tests, script parsers and checks in sandboxes; see the module's docstring."""

    def __init__(self, store: Optional[kv.KeyValueStore] = None, memory_mb: int = DEFAULT_MEMORY_MB,
                 allow_unfiltered: bool = False, preload_by_content: bool = False,
                 compile_content: bool = False) -> None:
        self.key_value = KeyValueService(store if store is not None else kv.MemoryStore())
        self.memory_mb = memory_mb
        self.allow_unfiltered = allow_unfiltered
        # The warm sandbox preloads only the optional modules its content imports (imported_modules), and is
        # replaced when later content imports more (the local worker); otherwise every sandbox preloads all.
        self.preload_by_content = preload_by_content
        # The host compiles the content's Python (compiled_content) and the sandbox takes the code (the local
        # worker, which has time to spare while its sandbox starts); otherwise the sandbox compiles it.
        self.compile_content = compile_content
        self.warm: Optional[Sandbox] = None
        self.versions: "OrderedDict[str, Dict[str, Any]]" = OrderedDict()

    def close(self) -> None:
        if self.warm is not None:
            self.warm.close()
            _cache_bytecode(self.warm)
            self.warm = None
        self.versions.clear()

    def _sandbox(self, wait: bool = True) -> Sandbox:
        return Sandbox(self.memory_mb, self.allow_unfiltered, wait)

    def start(self) -> None:
        """Start the warm sandbox now without waiting for it (the local worker, at its own start): its imports
        and lockdown overlap whatever comes before the first request (with `preload_by_content`, its base
        imports: it then waits for the first content's imports)."""
        if self.warm is None:
            self.warm = Sandbox(self.memory_mb, self.allow_unfiltered, False, self.preload_by_content)

    def _prepared(self, sandbox: Sandbox, content: Mapping) -> Tuple[str, Dict[str, Any]]:
        version = _version(content)
        code = compiled_content(content) if self.compile_content else None
        if code:
            # Compiled here while the sandbox still starts; the zygote takes the code objects (marshalled, from
            # the host to the sandbox only) instead of compiling the sources itself.
            return version, sandbox.request({"op": "content", "version": version, "content": content,
                                             "codeBytes": len(code)}, code)
        report = sandbox.request({"op": "content", "version": version, "content": content})
        return version, report

    def prepare(self, content: Mapping, mocks: bool = False) -> Dict[str, Any]:
        """Compile `content` in the warm sandbox now; returns its compile errors. `mocks`: unit tests with Mocks
        will follow (the sandbox then loads unittest.mock now, not in a new sandbox with the first of them)."""
        return self._warm(with_sources(content), MOCK_MODULES if mocks else ())[2]

    def _warm(self, content: Mapping, needs: Tuple[str, ...] = ()) -> Tuple[Sandbox, str, Dict[str, Any]]:
        """The warm sandbox, with `content` compiled (once per version); with preload_by_content, one that has
        loaded the modules `needs` names besides those the content imports (unit tests with Mocks need
        unittest.mock: lockdown.ON_DEMAND_MODULES)."""
        version = _version(content)
        if (self.warm is not None and version in self.versions and self.warm.alive()
                and (not needs or not self.preload_by_content or self.warm.covers(list(needs)))):
            self.versions.move_to_end(version)
        else:
            # A version new to this sandbox: with preload_by_content, one that imports an optional module the
            # sandbox did not preload gets a new sandbox (the imports are read once per version, here), as does
            # one whose tests need a module the sandbox did not load.
            imports = imported_modules(content) if self.preload_by_content else None
            if imports is not None and needs:
                imports = sorted(set(imports) | set(needs))
            if self.warm is not None and self.warm.asking:
                self.warm.preload(imports)
            if self.warm is None or not self.warm.alive() or not self.warm.covers(imports):
                if self.warm is not None and imports is not None:
                    # The new sandbox also covers the versions the old one did: contents alternating between
                    # two sets of imports (a run per log type) do not start a sandbox each time.
                    imports = None if self.warm.imports is None else sorted(self.warm.imports | set(imports))
                self.close()
                self.warm = Sandbox(self.memory_mb, self.allow_unfiltered, False, self.preload_by_content)
                self.warm.preload(imports)
                self.warm.ready()
            self.versions[version] = self._prepared(self.warm, content)[1]
            while len(self.versions) > MAX_VERSIONS:
                old, _ = self.versions.popitem(last=False)
                self.warm.request({"op": "forget", "version": old})
        return self.warm, version, self.versions[version]

    # ------------------------------------------------------------------------------------ tasks

    def _execute(self, sandbox: Sandbox, task_for: Callable[[int], Dict[str, Any]], count: int,
                 deadline: Optional[float], floor: float, listener: Listener, failed: Callable[[Failure], None],
                 setup_fatal: bool = False, linger: float = 0.0) -> None:
        """Run a task over items [0, count) in as many children as it takes; `failed` hears each item a child
        died on, as it happens, and each item no child reached in time. Without a deadline, the child's
        messages are read `linger` seconds apart (Sandbox.next)."""
        end = None
        if deadline is not None:
            end = deadline - min(MAX_RESERVE_SECONDS, max(0.0, deadline - time.monotonic()) * RESERVE_SHARE)
        start = 0
        while start < count:
            if end is not None and time.monotonic() >= end:
                for item in range(start, count):
                    failed(Failure(item))
                break
            cpu = UNBOUNDED_CPU_SECONDS if end is None else math.ceil(end - time.monotonic()) + 1
            sandbox.fork({**task_for(start), "start": start, "cpuSeconds": cpu, "nonce": os.urandom(16).hex()})
            current = start
            item_end = self._item_end(current, count, end, floor)
            stopped = flooded = False
            while True:
                kind, message = sandbox.next(None if stopped else item_end, 0.0 if stopped else linger)
                if kind == "exit":
                    break
                if stopped:
                    # The item in progress when the child was stopped is the one that fails: ignore the rest.
                    continue
                if kind in ("timeout", "flooded") or sandbox.flooded:
                    sandbox.stop()
                    stopped, flooded = True, sandbox.flooded
                    continue
                if "kv" in message:
                    sandbox.answer(self._kv_reply(message))
                    continue
                now = listener(current, message)
                if now != current:
                    current = now
                    item_end = self._item_end(current, count, end, floor)
            if current >= count:
                break
            failure = Failure(current, message.sub if message.item == current else -1, message, flooded)
            failed(failure)
            if failure.in_setup and setup_fatal:
                break
            start = current + 1

    @staticmethod
    def _item_end(current: int, count: int, end: Optional[float], floor: float) -> Optional[float]:
        """When the item starting now must be done: its share of the time left, keeping `floor` seconds for
        each item after it when there is that much."""
        if end is None or current >= count:
            return end
        now = time.monotonic()
        left = end - now
        rest = count - current - 1
        return now + max(left / (rest + 1), left - floor * rest)

    def _kv_reply(self, message: Mapping) -> Dict[str, Any]:
        reply: Dict[str, Any] = {"kvId": message.get("kvId")}
        try:
            reply["result"] = self.key_value(message.get("kv"))
        except KeyValueRequestError as error:
            reply["error"] = str(error)
        except Exception as error:  # pylint: disable=broad-except - the store's failure is the detection's error
            reply["error"] = f"{type(error).__name__}: {error}"
        return reply

    # ------------------------------------------------------------------------------------ operations

    def run(self, content: Mapping, events: Union[List[Any], EventsJson], detection_ids: Optional[List[str]] = None,
            deadline: Optional[float] = None, lookups: Optional[Mapping] = None) -> Dict[str, Any]:
        """Detections over events: {"results": per event, the results that alerted or errored, "load", "stdout"?}.
        `events` is a list, or their JSON array's text (EventsJson), which a child decodes: the host decodes it only
        to blame a detection whose child died, or when no child did (no detection to run, none lived to tell); a
        text that is not a JSON array of its count of events fails the run with a ValueError."""
        # The engine (heavy to import) is needed by the host for runs only: the local worker starts its sandbox
        # before importing it.
        from .engine import NOT_AN_OBJECT, candidates, run_order  # pylint: disable=import-outside-toplevel

        content = with_sources(content)
        sandbox, version, report = self._warm(content)
        specs = {d["id"]: d for d in content.get("detections") or [] if isinstance(d, Mapping) and "id" in d}
        order = run_order(list(specs), detection_ids)
        count = len(events)
        results: List[List[Dict[str, Any]]] = [[] for _ in range(count)]
        text = events if isinstance(events, EventsJson) else None

        def not_objects(indexes: Any) -> None:
            for index in indexes:
                if isinstance(index, int) and 0 <= index < count:
                    results[index].append({"id": "", "matched": False, "error": NOT_AN_OBJECT})

        if text is None:
            not_objects([index for index, data in enumerate(events) if not isinstance(data, Mapping)])
        # With the text: what a child said it decoded ({"count"} or {"error"}), and whether the child now running
        # is still saying it (its first messages, sent before any user code runs in it: later ones are ignored).
        told: Dict[str, Any] = {}
        telling = [False]
        told_not_objects: List[Any] = []
        printed: List[str] = []
        errors = list(report["errors"])

        def listener(current: int, message: Dict[str, Any]) -> int:
            if telling[0]:
                if "nonObjects" in message:
                    if isinstance(message["nonObjects"], list):
                        told_not_objects.extend(message["nonObjects"])
                    return current
                telling[0] = False
                if "events" in message:
                    if not told:
                        said = message["events"]
                        told.update(said if isinstance(said, dict) else {"error": "the sandbox said nothing of the events"})
                        if "error" in told or told.get("count") != count:
                            return len(order)  # the run is over: run() says why
                        not_objects(told_not_objects)
                    return current
            if "result" in message:
                k, i, result = _triple(message["result"])
                if k == current and isinstance(i, int) and 0 <= i < count and isinstance(result, dict):
                    results[i].append({**result, "id": order[k]})
                return current
            k, printed_text, new_errors = _triple(message.get("done"))
            if k != current:
                return current
            printed.append(str(printed_text or ""))
            errors.extend(e for e in new_errors or [] if isinstance(e, dict))
            return current + 1

        task = {"kind": "run", "version": version, "events": events, "detectionIds": detection_ids}
        if lookups:
            # Lookup tables as data for event.lookup: the sandbox never reads a store itself.
            task["lookups"] = lookups

        def task_for(_: int) -> Dict[str, Any]:
            telling[0] = text is not None
            told_not_objects.clear()
            return task

        def failed(failure: Failure) -> None:
            detection_id = order[failure.item]
            where = candidates(specs[detection_id], _decoded(), bool(detection_ids))
            if where:
                index = failure.sub if failure.sub in where else where[0]
                results[index].append({"id": detection_id, "matched": False, "error": failure.reason("the detection")})

        def _decoded() -> List[Any]:
            if text is None:
                return events  # type: ignore[return-value]
            try:
                return text.decoded()
            except ValueError:
                return []  # the run fails with the error below

        try:
            self._execute(sandbox, task_for, len(order), deadline, RUN_FLOOR_SECONDS, listener, failed)
        except BaseException:
            # Whatever state it is in, the warm sandbox is not to be trusted with the next run.
            self.close()
            raise
        if text is not None:
            if "error" in told:
                raise ValueError(str(told["error"]))
            if told:
                check_count(told.get("count"), count)
            else:
                # No child decoded them (no detection ran, or each child died first): the host does, for the same
                # checks and non-object errors.
                not_objects([index for index, data in enumerate(text.decoded()) if not isinstance(data, Mapping)])
        out: Dict[str, Any] = {"results": results, "load": {"loaded": report["loaded"], "errors": errors}}
        stdout = "".join(printed)[:MAX_PRINTED]
        if stdout:
            out["stdout"] = stdout
        return out

    def test(self, content: Mapping, detection_id: str, tests: List[Any], destinations: Optional[List[str]] = None,
             deadline: Optional[float] = None, warm: bool = False) -> Dict[str, Any]:
        """A detection's unit tests: {"load", "tests": one verdict per test}. Unless `warm` (the local worker),
        in a sandbox of their own, discarded after the call."""
        out = self.test_many(content, [(detection_id, tests)], destinations, deadline, warm)
        return {"load": out["load"], "tests": out["detections"][0]}

    def test_many(self, content: Mapping, detections: List[Tuple[str, List[Any]]],
                  destinations: Optional[List[str]] = None, deadline: Optional[float] = None,
                  warm: bool = False) -> Dict[str, Any]:
        """Unit tests of several detections, (id, tests) each, in one child (one after another, as a live run's
        detections; a child that dies fails the test it was on and the next child goes on from the test after
        it): {"load", "detections": per detection, one verdict per test}. Unless `warm` (the local worker), in
        a sandbox of their own, discarded after the call."""
        content = with_sources(content)
        if warm:
            mocks = any(has_mocks(test) for _, tests in detections for test in tests)
            sandbox, version, report = self._warm(content, MOCK_MODULES if mocks else ())
        else:
            sandbox = self._sandbox()
            version, report = self._prepared(sandbox, content)
        try:
            # Item j of the task is test t of detection k (the sandbox numbers them the same way: test_items).
            items = [(k, t) for k, (_, tests) in enumerate(detections) for t in range(len(tests))]
            verdicts: List[List[Optional[Dict[str, Any]]]] = [[None] * len(tests) for _, tests in detections]
            errors = list(report["errors"])

            def listener(current: int, message: Dict[str, Any]) -> int:
                j, verdict, new_errors = _triple(message.get("done"))
                if j != current or not isinstance(verdict, dict):
                    return current
                k, t = items[j]
                verdicts[k][t] = verdict
                # Module bodies (helpers, data models) run in the child when first used: their load errors come
                # with the test that used them first, once per child.
                known = {e.get("id") for e in errors}
                errors.extend(e for e in new_errors or [] if isinstance(e, dict) and e.get("id") not in known)
                return current + 1

            task = {"kind": "test", "version": version, "destinations": destinations,
                    "detections": [{"detectionId": detection_id, "tests": tests} for detection_id, tests in detections]}
            def failed(failure: Failure) -> None:
                k, t = items[failure.item]
                test = detections[k][1][t]
                name = test.get("Name", "") if isinstance(test, Mapping) else ""
                verdicts[k][t] = {"name": str(name), "passed": False, "error": failure.reason("the test")}

            self._execute(sandbox, lambda _: task, len(items), deadline, 0.0, listener, failed, linger=TEST_LINGER_SECONDS)
            return {"load": {"loaded": report["loaded"], "errors": errors}, "detections": verdicts}
        except BaseException:
            if warm:
                self.close()
            raise
        finally:
            if not warm:
                sandbox.close()

    def parse(self, function: Any, logs: Any, deadline: Optional[float] = None) -> Dict[str, Any]:
        """A script parser over lines, in a sandbox of its own: {"results": [...]} or {"error"} (script_parser.py)."""
        from .script_parser import MAX_BATCH_OUTPUT_BYTES, MAX_BATCH_SECONDS  # pylint: disable=import-outside-toplevel

        if not isinstance(logs, list):
            return {"error": "logs must be a list of strings"}
        sandbox = self._sandbox()
        try:
            results: List[Optional[Dict[str, Any]]] = [None] * len(logs)
            answer: Dict[str, Any] = {}
            used = [0]
            started = time.monotonic()

            def listener(current: int, message: Dict[str, Any]) -> int:
                if isinstance(message.get("answer"), dict):
                    answer.update(message["answer"])
                    return len(logs)
                j, result, size = _triple(message.get("done"))
                if j != current or not isinstance(result, dict):
                    return current
                results[j] = result
                used[0] += size if isinstance(size, int) else 0
                return current + 1

            def task_for(_: int) -> Dict[str, Any]:
                return {"kind": "parse", "function": function, "logs": logs,
                        "budget": MAX_BATCH_OUTPUT_BYTES - used[0],
                        "batchSeconds": max(0.0, MAX_BATCH_SECONDS - (time.monotonic() - started))}

            def failed(failure: Failure) -> None:
                if failure.in_setup:
                    answer["error"] = failure.reason("the parse function's module body")
                else:
                    results[failure.item] = {"error": failure.reason("the parse function")} if failure.end else {"deferred": True}

            self._execute(sandbox, task_for, len(logs), deadline, 0.0, listener, failed, setup_fatal=True)
            return answer or {"results": results}
        finally:
            sandbox.close()

    def check(self, items: Any) -> Dict[str, Any]:
        """Save-time checks of Python source (check.py), in a sandbox of their own."""
        sandbox = self._sandbox()
        try:
            return sandbox.request({"op": "check", "items": items})
        finally:
            sandbox.close()


def _cache_bytecode(sandbox: Sandbox) -> None:
    """Compile into this process's bytecode folder (the local worker's: sys.pycache_prefix) the modules the
    sandbox had to compile from source as it started (its ready report's "uncached"; it writes no file), so
    the next sandbox reads them compiled. Paths come from the zygote's report, sent before any user code ran."""
    report = sandbox._report or {}  # pylint: disable=protected-access - the report of a sandbox that got ready
    paths = report.get("uncached")
    if not sys.pycache_prefix or not isinstance(paths, list) or not paths:
        return
    import py_compile  # pylint: disable=import-outside-toplevel - rarely needed
    for path in paths:
        if isinstance(path, str) and path.endswith(".py") and os.path.isabs(path):
            try:
                py_compile.compile(path, doraise=True)
            except (py_compile.PyCompileError, OSError, ValueError):
                pass


def _triple(value: Any) -> Tuple[Any, Any, Any]:
    """A message's [index, value, extra] (extra optional); (None, None, None) when malformed."""
    if isinstance(value, list) and len(value) in (2, 3):
        return value[0], value[1], value[2] if len(value) == 3 else None
    return None, None, None
