"""Loading user Python: detection modules, data-model modules and global helpers.

Global helpers are importable by their GlobalID. A finder placed after the standard ones maps each
GlobalID to its file, so (as in the reference tool) a helper named like an installed module loses.
"""

import importlib.abc
import importlib.util
import sys
from types import ModuleType
from typing import Any, Callable, Dict, Optional


class _SourceLoader(importlib.abc.Loader):
    """Loads a helper from its source text (content sent without files, as on AWS)."""

    def __init__(self, name: str, source: str) -> None:
        self.name = name
        self.source = source

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        module.__file__ = f"<{self.name}>"
        exec(compile(self.source, module.__file__, "exec"), module.__dict__)  # pylint: disable=exec-used - user helper source


class GlobalHelperFinder(importlib.abc.MetaPathFinder):
    """Resolves `import <GlobalID>` to the helper's file or source text."""

    def __init__(self) -> None:
        self.helpers: Dict[str, Dict[str, str]] = {}

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        del path, target
        helper = self.helpers.get(fullname)
        if helper is None:
            return None
        if helper.get("path"):
            return importlib.util.spec_from_file_location(fullname, helper["path"])
        return importlib.util.spec_from_loader(fullname, _SourceLoader(fullname, helper.get("body") or ""))

    def replace(self, helpers: Dict[str, Dict[str, str]]) -> None:
        """Install a new set of helpers ({GlobalID: {"path"} or {"body"}}), forgetting modules
        imported from the previous set."""
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


def load_module(name: str, path: Optional[str], body: Optional[str], run: Callable[[Callable, Any], Any]) -> ModuleType:
    """Execute a detection's or data model's Python from a file or from source text.

    `run(function, argument)` executes the module body (under the caller's time limit)."""
    if path is not None:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load Python file {path}")
        module = importlib.util.module_from_spec(spec)
        run(spec.loader.exec_module, module)
        return module
    if body is None:
        raise ValueError("a Python detection needs a file or a body")
    module = ModuleType(name)
    module.__file__ = f"<{name}>"
    code = compile(body, module.__file__, "exec")
    run(lambda m: exec(code, m.__dict__), module)  # pylint: disable=exec-used - user detection source
    return module
