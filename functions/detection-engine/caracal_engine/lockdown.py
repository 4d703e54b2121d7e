"""Locking a sandbox process down before it ever sees user code.

A sandbox process (see sandbox.py) first imports the engine and the preloaded modules below, then:

- caps its resources: address space (memory), CPU time, file size 0 (it can write no file), a handful of
  file descriptors, no core dumps;
- when started as root, becomes nobody (uid and gid 65534) with no supplementary groups;
- sets no_new_privs and installs a seccomp-BPF filter (through prctl, with ctypes): an allowlist of the
  system calls a running Python interpreter needs (memory, signals, clocks, reading and writing the pipes
  it already holds). Everything else fails with EPERM: opening any file (so no /etc/passwd, /etc/shadow,
  /proc/*/environ or the local mailbox), every network call, executing programs, ptrace and
  process_vm_readv/writev, mount/unshare/chroot, setsid/setpgid, ... The zygote's filter also allows
  fork, wait4, kill, pipe2, prctl and prlimit64 (it forks and limits the children); each child adds the
  strict filter without them, so user code can neither start processes nor signal any;
- replaces the import system's finders: a module already imported (the preload list, the engine) can be
  imported again, a global helper imports from its source, anything else fails with ImportError.

The filter checks the architecture (x86_64 and aarch64, the two a Lambda function runs on); a system call
of another ABI kills the process. If the filter cannot be installed the sandbox refuses to run user code,
unless its host explicitly allowed running unfiltered (nothing in production does).
"""

import ctypes
import errno
import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import pkgutil
import platform
import resource
import struct
import sys
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple

from . import requirements as third_party
from .optional import (  # noqa: F401 - optional_module_folders is read from here too
    ON_DEMAND_MODULES, OPTIONAL_MODULES, optional_module_folders, optional_roots, third_party_modules,
)

# The modules user code may import (beside its global helpers), loaded before lockdown. Documented in
# docs/detections.md ("The sandbox").
PRELOADED_MODULES = (
    "array", "ast", "base64", "binascii", "bisect", "calendar", "collections", "collections.abc", "copy", "csv",
    "dataclasses", "datetime", "decimal", "difflib", "email.utils", "enum", "fnmatch", "functools", "gzip",
    "hashlib", "heapq", "hmac", "html", "io", "ipaddress", "itertools", "json", "logging", "math", "operator",
    "pprint", "random", "re", "secrets", "shlex", "statistics", "string", "struct", "textwrap", "time", "typing",
    "unicodedata", "unittest.mock", "urllib.parse", "uuid", "xml.etree.ElementTree", "zlib", "zoneinfo", "_strptime",
    "panther_core", "panther_core.data_model", "panther_core.enriched_event", "panther_core.immutable",
    "panther_detection_helpers", "panther_detection_helpers.caching",
)
# OPTIONAL_MODULES (loaded when installed) and ON_DEMAND_MODULES (loaded with them) live in optional.py, which
# the host imports without the rest of this module.
# Codecs are looked up by importing `encodings.<name>`: these are loaded so user code can use them.
PRELOADED_ENCODINGS = (
    "ascii", "base64_codec", "charmap", "cp1252", "cp437", "hex_codec", "idna", "iso8859_1", "iso8859_15",
    "latin_1", "mac_roman", "punycode", "raw_unicode_escape", "unicode_escape", "utf_16", "utf_16_be",
    "utf_16_le", "utf_32", "utf_32_be", "utf_32_le", "utf_8", "utf_8_sig", "zlib_codec",
)

# Objects kept alive for the life of the process (caches that serve user code after lockdown).
_KEPT: List[Any] = []
NOBODY = 65534
MAX_OPEN_FILES = 32
CORE_PROCESS_CPU_SECONDS = 3600

# prctl and seccomp constants (linux/prctl.h, linux/seccomp.h, linux/audit.h, linux/filter.h).
PR_SET_PDEATHSIG = 1
PR_SET_SECCOMP = 22
PR_SET_NO_NEW_PRIVS = 38
SECCOMP_MODE_FILTER = 2
SECCOMP_RET_KILL_PROCESS = 0x80000000
SECCOMP_RET_ERRNO = 0x00050000
SECCOMP_RET_ALLOW = 0x7FFF0000
AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
X32_SYSCALL_BIT = 0x40000000
TCGETS = 0x5401
BPF_LD_W_ABS = 0x20
BPF_JEQ_K = 0x15
BPF_JGE_K = 0x35
BPF_RET_K = 0x06

# System call numbers: (x86_64, aarch64); None where the architecture has no such call.
SYSCALLS: Dict[str, Tuple[Optional[int], Optional[int]]] = {
    "read": (0, 63), "write": (1, 64), "readv": (19, 65), "writev": (20, 66), "close": (3, 57),
    "lseek": (8, 62), "mmap": (9, 222), "munmap": (11, 215), "mremap": (25, 216), "mprotect": (10, 226),
    "madvise": (28, 233), "brk": (12, 214), "rt_sigaction": (13, 134), "rt_sigprocmask": (14, 135),
    "rt_sigreturn": (15, 139), "sigaltstack": (131, 132), "getpid": (39, 172), "gettid": (186, 178),
    "getppid": (110, 173), "getuid": (102, 174), "geteuid": (107, 175), "getgid": (104, 176),
    "getegid": (108, 177), "getresuid": (118, 148), "getresgid": (120, 150), "getrusage": (98, 165),
    "times": (100, 153), "clock_gettime": (228, 113), "clock_getres": (229, 114),
    "clock_nanosleep": (230, 115), "nanosleep": (35, 101), "gettimeofday": (96, 169), "time": (201, None),
    "select": (23, None), "pselect6": (270, 72), "poll": (7, None), "ppoll": (271, 73), "futex": (202, 98),
    "sched_yield": (24, 124), "sched_getaffinity": (204, 123), "getrandom": (318, 278), "exit": (60, 93),
    "exit_group": (231, 94), "setitimer": (38, 103), "getitimer": (36, 102), "uname": (63, 160),
    "getcwd": (79, 17), "restart_syscall": (219, 128), "ioctl": (16, 29),
    # The zygote's own: forking a child, waiting for it, killing it, limiting it.
    "clone": (56, 220), "wait4": (61, 260), "kill": (62, 129), "pipe2": (293, 59), "prctl": (157, 167),
    "prlimit64": (302, 261), "set_robust_list": (273, 99),
}
RUNTIME_SYSCALLS = (
    "read", "write", "readv", "writev", "close", "lseek", "mmap", "munmap", "mremap", "mprotect", "madvise", "brk",
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack", "getpid", "gettid", "getppid", "getuid",
    "geteuid", "getgid", "getegid", "getresuid", "getresgid", "getrusage", "times", "clock_gettime",
    "clock_getres", "clock_nanosleep", "nanosleep", "gettimeofday", "time", "select", "pselect6", "poll", "ppoll",
    "futex", "sched_yield", "sched_getaffinity", "getrandom", "exit", "exit_group", "setitimer", "getitimer",
    "uname", "getcwd", "restart_syscall",
)
ZYGOTE_SYSCALLS = RUNTIME_SYSCALLS + ("clone", "wait4", "kill", "pipe2", "prctl", "prlimit64", "set_robust_list")


class LockdownError(Exception):
    """The process could not be locked down, so it must not run user code."""


def preload(folders: Iterable[str] = (), imports: Optional[Iterable[str]] = None) -> List[str]:
    """Import every preloaded module and the optional ones that are installed (looking in `folders` too): all
    of them, or with `imports` only those `optional_needed(imports)` names. Returns what loaded."""
    return preload_base(folders) + preload_optional(optional_needed(imports) if imports is not None else None)


def preload_base(folders: Iterable[str] = ()) -> List[str]:
    """The modules every sandbox has (PRELOADED_MODULES but ON_DEMAND_MODULES, the codecs, UTC); `folders` join
    the path for the optional modules loaded after (preload_optional). Returns what loaded."""
    sys.path.extend(folder for folder in folders if folder not in sys.path)
    loaded = []
    for name in PRELOADED_MODULES:
        if name not in ON_DEMAND_MODULES:
            importlib.import_module(name)
            loaded.append(name)
    for name in PRELOADED_ENCODINGS:
        importlib.import_module(f"encodings.{name}")
    # Time zone data is read from files: UTC is loaded now and kept, so ZoneInfo("UTC") works later.
    _KEPT.append(importlib.import_module("zoneinfo").ZoneInfo("UTC"))
    return loaded


def preload_optional(roots: Optional[Iterable[str]] = None) -> List[str]:
    """ON_DEMAND_MODULES and the optional modules that are installed: all of them, or those under the top-level
    names `roots`. Returns what loaded."""
    chosen = None if roots is None else set(roots)
    loaded = []
    for name in ON_DEMAND_MODULES:
        if chosen is None or name.split(".")[0] in chosen:
            importlib.import_module(name)
            loaded.append(name)
    for name in OPTIONAL_MODULES:
        if chosen is not None and name.split(".")[0] not in chosen:
            continue
        try:
            importlib.import_module(name)
            loaded.append(name)
        except ImportError:
            pass
    for name in third_party_modules():
        if chosen is None or name in chosen:
            loaded.extend(_preload_package(name))
    return loaded


def optional_needed(imports: Optional[Iterable[Any]], roots: Optional[Set[str]] = None) -> Optional[Set[str]]:
    """Which optional modules (top-level names) content needs loaded, given the modules (dotted) its source
    imports (host.imported_modules; None when it cannot tell): the optional ones it names, or None (all of
    them) when it names any other module this python has that is not loaded yet, which an optional module
    may bring along (botocore with boto3, http.client or urllib.request with requests). Call after
    preload_base: what it loaded is no reason to load more. Names nowhere to be found are left to fail when
    imported."""
    if imports is None:
        return None
    roots = optional_roots() if roots is None else roots
    needed: Set[str] = set()
    for name in imports:
        if not isinstance(name, str) or not all(part.isidentifier() for part in name.split(".")):
            return None
        top = name.split(".")[0]
        if top in roots:
            needed.add(top)
        elif _loadable_not_loaded(name):
            return None
    return needed


def _loadable_not_loaded(dotted: str) -> bool:
    """Whether `dotted` (or a package on its way) is a module this python has and has not loaded. Only looked
    up under loaded packages: nothing is imported to find out. A name its loaded parent has is an attribute."""
    parts = dotted.split(".")
    for depth in range(1, len(parts) + 1):
        name = ".".join(parts[:depth])
        if name in sys.modules:
            continue
        if depth > 1:
            parent = sys.modules[".".join(parts[:depth - 1])]
            if not hasattr(parent, "__path__") or hasattr(parent, parts[depth - 1]):
                return False
        return _installed(name)
    return False


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return True


def uncached_sources() -> List[str]:
    """The source files of the modules loaded from source without up-to-date bytecode in the bytecode folder
    (a sandbox writes none: -B); its host compiles them for the next start (Host.close). Empty without a
    bytecode folder of its own (sys.pycache_prefix)."""
    if not sys.pycache_prefix:
        return []
    out = []
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if not isinstance(getattr(module, "__loader__", None), importlib.machinery.SourceFileLoader):
            continue
        if isinstance(path, str) and path.endswith(".py") and not _bytecode_current(path):
            out.append(path)
    return out


def _bytecode_current(path: str) -> bool:
    """Whether the cached bytecode of `path` matches it (the import system's timestamp check)."""
    try:
        stat = os.stat(path)
        with open(importlib.util.cache_from_source(path), "rb") as handle:
            header = handle.read(16)
    except (OSError, ValueError, NotImplementedError):
        return False
    return (header[:4] == importlib.util.MAGIC_NUMBER and header[4:8] == b"\0\0\0\0"
            and header[8:12] == struct.pack("<I", int(stat.st_mtime) & 0xFFFFFFFF)
            and header[12:16] == struct.pack("<I", stat.st_size & 0xFFFFFFFF))


def _warm(module: Any) -> None:
    """Load what a module reads from files lazily (pycountry's databases), while files can be read."""
    for value in list(vars(module).values()):
        if any(cls.__name__ == "Database" for cls in type(value).__mro__) and hasattr(value, "__len__"):
            try:
                len(value)
            except Exception:  # pylint: disable=broad-except - a warm-up that fails leaves it lazy
                pass


def _preload_package(name: str) -> List[str]:
    """A third-party package and every submodule of it, when installed; returns what loaded."""
    try:
        package = importlib.import_module(name)
    except ImportError:
        return []
    except Exception:  # pylint: disable=broad-except - a broken install is as good as a missing one
        return []
    loaded = [name]
    for info in pkgutil.walk_packages(getattr(package, "__path__", []) or [], prefix=name + "."):
        if ".tests" in info.name or info.name.endswith(".test") or "._" in info.name:
            continue
        try:
            importlib.import_module(info.name)
            loaded.append(info.name)
        except Exception:  # pylint: disable=broad-except - optional submodules (extras) may fail to import
            pass
    _warm(package)
    return loaded


# The distributions of the optional modules, for the message naming a missing one.
OPTIONAL_DISTRIBUTIONS = {"dateutil": "python-dateutil", "boto3": "boto3"}


def optional_missing_message(fullname: str) -> Optional[str]:
    """The message for importing an optional module (one the AWS runtime has) this python lacks."""
    top = fullname.split(".")[0]
    distribution = OPTIONAL_DISTRIBUTIONS.get(top)
    if distribution is None:
        return None
    return (f"No module named '{top}': detections may import it (the AWS Lambda runtime has it, and the public "
            f"content's helpers import it) but this Python does not have it; install it with "
            f"`pip install {distribution}`")


class ImportRefused(importlib.abc.MetaPathFinder):
    """The last finder: any module not already imported and not a global helper is refused."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        del path, target
        message = third_party.missing_message(fullname) or optional_missing_message(fullname)
        raise ModuleNotFoundError(
            message or f"No module named '{fullname}' in the detection sandbox (its preloaded modules: docs/detections.md)",
            name=fullname,
        )


def lock_imports(helpers: importlib.abc.MetaPathFinder) -> None:
    """From now on imports come from sys.modules, built-in modules, or `helpers`; nothing from files."""
    sys.meta_path[:] = [importlib.machinery.BuiltinImporter, importlib.machinery.FrozenImporter, helpers, ImportRefused()]
    sys.path_hooks.clear()
    sys.path_importer_cache.clear()


def limit_resources(memory_bytes: int, cpu_seconds: int) -> None:
    """Address space, CPU time, no file writes, few descriptors, no core dumps (soft = hard: no raising)."""
    for limit, value in (
        (resource.RLIMIT_AS, memory_bytes),
        (resource.RLIMIT_CPU, cpu_seconds),
        (resource.RLIMIT_FSIZE, 0),
        (resource.RLIMIT_NOFILE, MAX_OPEN_FILES),
        (resource.RLIMIT_CORE, 0),
    ):
        _, hard = resource.getrlimit(limit)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(limit, (value, value))


def drop_privileges() -> bool:
    """When running as root, become nobody with no supplementary groups; returns whether it did."""
    if os.geteuid() != 0:
        return False
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)
    if os.getuid() != NOBODY or os.geteuid() != NOBODY:
        raise LockdownError("could not drop root privileges")
    return True


# The C library, resolved now: after lockdown nothing can be looked up on disk.
_LIBC = ctypes.CDLL(None, use_errno=True)


def prctl(option: int, argument: int = 0) -> None:
    function = _LIBC.prctl
    function.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    if function(option, argument, 0, 0, 0) != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"prctl({option}) failed: {os.strerror(code)}")


def die_with_parent() -> None:
    """Be killed when the process that started this one ends (set after changing uid, which clears it)."""
    prctl(PR_SET_PDEATHSIG, 9)


MACHINE = {"amd64": "x86_64", "arm64": "aarch64"}.get(platform.machine().lower(), platform.machine().lower())


def _instruction(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


def build_filter(arch: str, allowed: Iterable[str]) -> bytes:
    """The BPF program: right architecture, then an allowlist; ioctl only as TCGETS (isatty)."""
    if arch not in AUDIT_ARCH:
        raise LockdownError(f"no seccomp filter for the {arch} architecture")
    column = 0 if arch == "x86_64" else 1
    numbers = sorted({SYSCALLS[name][column] for name in allowed if SYSCALLS[name][column] is not None})
    ioctl = SYSCALLS["ioctl"][column]
    deny = SECCOMP_RET_ERRNO | errno.EPERM
    # Layout: [arch check] [x32 check] [one jeq per allowed call] [ioctl check] deny, allow.
    program: List[Tuple[int, int, int, int]] = [
        (BPF_LD_W_ABS, 0, 0, 4),
        (BPF_JEQ_K, 1, 0, AUDIT_ARCH[arch]),
        (BPF_RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS),
        (BPF_LD_W_ABS, 0, 0, 0),
    ]
    if arch == "x86_64":
        program.append((BPF_JGE_K, 0, 0, X32_SYSCALL_BIT))  # jump target patched below
    x32_check = len(program) - 1 if arch == "x86_64" else None
    first_rule = len(program)
    count = len(numbers) + 1
    for number in numbers:
        program.append((BPF_JEQ_K, 0, 0, number))
    program.append((BPF_JEQ_K, 0, 0, ioctl))
    # The ioctl check: the request (args[1], low then high word) must be TCGETS.
    ioctl_block = len(program)
    program += [
        (BPF_LD_W_ABS, 0, 0, 24),
        (BPF_JEQ_K, 0, 0, TCGETS),
        (BPF_LD_W_ABS, 0, 0, 28),
        (BPF_JEQ_K, 0, 0, 0),
    ]
    deny_at = len(program)
    program.append((BPF_RET_K, 0, 0, deny))
    allow_at = len(program)
    program.append((BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW))

    def offset(source: int, target: int) -> int:
        distance = target - source - 1
        if not 0 <= distance <= 255:
            raise LockdownError("the seccomp filter is too long for its jumps")
        return distance

    if x32_check is not None:
        code, _, _, k = program[x32_check]
        program[x32_check] = (code, offset(x32_check, deny_at), 0, k)
    for position in range(first_rule, first_rule + count):
        code, _, _, k = program[position]
        target = ioctl_block if position == first_rule + count - 1 else allow_at
        miss = deny_at if position == first_rule + count - 1 else 0
        program[position] = (code, offset(position, target), offset(position, miss) if miss else 0, k)
    program[ioctl_block + 1] = (BPF_JEQ_K, 0, offset(ioctl_block + 1, deny_at), TCGETS)
    program[ioctl_block + 3] = (BPF_JEQ_K, offset(ioctl_block + 3, allow_at), offset(ioctl_block + 3, deny_at), 0)
    return b"".join(_instruction(*step) for step in program)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install_filter(program: bytes) -> None:
    """no_new_privs, then the filter (it lasts for the life of the process and its children)."""
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    function = _LIBC.prctl
    function.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
    if function(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"seccomp filter refused: {os.strerror(code)}")


def lock_zygote(memory_bytes: int, allow_unfiltered: bool) -> Dict[str, Any]:
    """Lock the sandbox process down (it keeps fork, wait and kill for its children). Returns what holds."""
    limit_resources(memory_bytes, CORE_PROCESS_CPU_SECONDS)
    report: Dict[str, Any] = {"droppedRoot": drop_privileges(), "uid": os.getuid(), "filter": False}
    try:
        die_with_parent()
        install_filter(build_filter(MACHINE, ZYGOTE_SYSCALLS))
        _child_filter()
        report["filter"] = True
    except (OSError, AttributeError, LockdownError) as error:
        if not allow_unfiltered:
            raise LockdownError(f"the seccomp filter could not be installed ({error}); refusing to run user code") from None
        report["filterError"] = str(error)
    return report


@functools.lru_cache(maxsize=1)
def _child_filter() -> bytes:
    """The children's filter program, built once in the zygote (warmed by lock_zygote) rather than per child."""
    return build_filter(MACHINE, RUNTIME_SYSCALLS)


def _cpu_limit(cpu_seconds: int, pid: int = 0) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    cpu_seconds = cpu_seconds if hard == resource.RLIM_INFINITY else min(cpu_seconds, hard)
    if pid:
        resource.prlimit(pid, resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))
    else:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))


def lock_child(cpu_seconds: int, filtered: bool) -> None:
    """In a forked child, before user code: its own CPU limit, death with the zygote, the strict filter."""
    _cpu_limit(cpu_seconds)
    if filtered:
        lock_child_early()


def lock_child_early() -> None:
    """In a forked child right after the fork, before it has a task (or any user code): death with the zygote
    and the strict filter. Its CPU limit is then set from the zygote (limit_child), which the filter allows
    there and not here."""
    die_with_parent()
    install_filter(_child_filter())


def limit_child(pid: int, cpu_seconds: int) -> None:
    """In the zygote: the CPU limit of a child locked early, before it gets its task."""
    _cpu_limit(cpu_seconds, pid)
