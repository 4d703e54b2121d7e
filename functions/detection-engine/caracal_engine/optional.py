"""The modules a sandbox preloads only when installed (OPTIONAL_MODULES, requirements.txt's) or only when needed
(ON_DEMAND_MODULES), and where this interpreter finds them: apart from lockdown.py (which loads them), so the
host finds their folders without importing the lockdown machinery (ctypes, importlib.abc: some 12 ms of the
local worker's start, before it can start its sandbox)."""

import importlib.util
import os
from typing import List, Set, Tuple

from . import requirements as third_party

# Loaded when installed: boto3 ships with the AWS Lambda Python runtime (and with it python-dateutil), and the
# public content's AWS helpers (panther_aws_helpers) import boto3 at their top, so every rule using them needs
# the import to work. Its calls cannot reach anything from the sandbox (no files, no network): they fail in the
# detection that makes them.
OPTIONAL_MODULES = ("dateutil", "dateutil.parser", "dateutil.relativedelta", "dateutil.tz", "dateutil.zoneinfo",
                    "boto3")
# Preloaded modules loaded with the optional ones (preload_optional), not by preload_base: a sandbox told what
# its content imports (sandbox.py "ask") loads them only for content naming them (or anything else not loaded
# yet, as for the optional modules) and for unit tests with Mocks (host.py asks for unittest.mock then).
# unittest.mock brings asyncio along: some 25 ms of a sandbox's start, for content that never uses either.
ON_DEMAND_MODULES = ("unittest.mock",)


def third_party_modules() -> Tuple[str, ...]:
    """The modules of functions/detection-engine/requirements.txt (loaded when installed)."""
    return tuple(r.module for r in third_party.requirements())


def optional_module_folders() -> List[str]:
    """Where this interpreter finds the optional modules (for a sandbox, whose `-I` path may lack them)."""
    folders = []
    for name in {name.split(".")[0] for name in OPTIONAL_MODULES + third_party_modules()}:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            folders.append(os.path.dirname(list(spec.submodule_search_locations)[0]))
    return folders


def optional_roots() -> Set[str]:
    """The top-level names of the optional modules: OPTIONAL_MODULES', ON_DEMAND_MODULES' and requirements.txt's."""
    return {name.split(".")[0] for name in OPTIONAL_MODULES + ON_DEMAND_MODULES} | set(third_party_modules())
