"""Loading user Python: detection modules, data-model modules and global helpers, from source text.

Source is compiled first (`compile_source`, which runs nothing) and executed later, so a sandbox can
compile content once and run it in fresh processes. Global helpers are importable by their GlobalID: a
finder placed after the standard ones maps each GlobalID to its compiled source, so (as in the reference
tool) a helper named like an installed module loses.
"""

import importlib.abc
import importlib.util
import sys
from types import CodeType, ModuleType
from typing import Any, Callable, Dict, Mapping, Optional, Union

# A compiled module: its code, or the error compiling it raised (raised again when it is loaded).
Compiled = Union[CodeType, BaseException]


def compile_source(source: Any, filename: str) -> Compiled:
    """Compile module source (`filename` names it in tracebacks); never runs any of it."""
    if not isinstance(source, str):
        return ValueError("a Python module needs its source text")
    try:
        return compile(source, filename, "exec")
    except (SyntaxError, ValueError) as error:
        return error


def detection_module_name(detection_id: str) -> str:
    """The module a detection's Python runs as."""
    return "detection_" + "".join(c if c.isalnum() else "_" for c in detection_id)


def source_filename(section: str, item: Mapping) -> str:
    """The filename a content item's Python is compiled under (tracebacks name it): its path, or a name of its
    own; `section` is the content's "globals", "dataModels" or "detections"."""
    path = item.get("path")
    if path:
        return path
    if section == "globals":
        return f"<{item['id']}>"
    if section == "dataModels":
        return f"<datamodel_{item['id']}>"
    return f"<{detection_module_name(item['id'])}>"


class _SourceLoader(importlib.abc.Loader):
    """Loads a global helper from its compiled source."""

    def __init__(self, compiled: Compiled, filename: str) -> None:
        self.compiled = compiled
        self.filename = filename

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        module.__file__ = self.filename
        if isinstance(self.compiled, BaseException):
            raise self.compiled.with_traceback(None)
        exec(self.compiled, module.__dict__)  # pylint: disable=exec-used - user helper source


class GlobalHelperFinder(importlib.abc.MetaPathFinder):
    """Resolves `import <GlobalID>` to the helper's compiled source."""

    def __init__(self) -> None:
        self.helpers: Dict[str, "tuple[Compiled, str]"] = {}

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        del path, target
        helper = self.helpers.get(fullname)
        if helper is None:
            return None
        return importlib.util.spec_from_loader(fullname, _SourceLoader(*helper))

    def replace(self, helpers: Dict[str, "tuple[Compiled, str]"]) -> None:
        """Install a new set of helpers ({GlobalID: (compiled, filename)}), forgetting modules imported from
        the previous set."""
        for name in list(self.helpers):
            sys.modules.pop(name, None)
        self.helpers = dict(helpers)
        for name in self.helpers:
            sys.modules.pop(name, None)


_finder: Optional[GlobalHelperFinder] = None


def global_helpers() -> GlobalHelperFinder:
    """The process-wide helper finder, installed on first use."""
    global _finder  # pylint: disable=global-statement
    if _finder is None:
        _finder = GlobalHelperFinder()
        sys.meta_path.append(_finder)
    return _finder


def load_module(name: str, compiled: Compiled, filename: str, run: Callable[[Callable, Any], Any]) -> ModuleType:
    """Execute a detection's or data model's compiled module; `run(function, argument)` executes the module
    body (under the caller's time limit)."""
    if isinstance(compiled, BaseException):
        raise compiled.with_traceback(None)
    module = ModuleType(name)
    module.__file__ = filename
    run(lambda m: exec(compiled, m.__dict__), module)  # pylint: disable=exec-used - user detection source
    return module
