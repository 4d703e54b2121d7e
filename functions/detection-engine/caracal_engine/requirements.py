"""The third-party modules detections may import: functions/detection-engine/requirements.txt, read once.

Each requirement names a distribution and its pinned version; the module it provides is the name with
`-` turned into `_`, or the one given by an `# import: <module>` comment on its line. The sandbox preloads
the ones this python has (lockdown.py) and names the missing ones, with how to install them, when a
detection imports one (`pip install pycountry==26.2.16`).
"""

import importlib.util
import os
import re
from typing import Dict, List, NamedTuple, Optional

REQUIREMENTS_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "requirements.txt")
_LINE = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([^\s;#\\]+)")
_IMPORT = re.compile(r"#\s*import:\s*([A-Za-z_][A-Za-z0-9_.]*)")
_HASH = re.compile(r"--hash=sha256:[0-9a-f]{64}")


class Requirement(NamedTuple):
    distribution: str
    version: str
    module: str
    hashed: bool

    @property
    def install(self) -> str:
        return f"pip install {self.distribution}=={self.version}"


def parse(text: str) -> List[Requirement]:
    """The requirements of a requirements file's text (continuation lines joined)."""
    out: List[Requirement] = []
    for line in text.replace("\\\n", " ").splitlines():
        match = _LINE.match(line.strip())
        if not match:
            continue
        module = _IMPORT.search(line)
        out.append(Requirement(match.group(1), match.group(2),
                               module.group(1) if module else match.group(1).replace("-", "_").lower(),
                               bool(_HASH.search(line))))
    return out


_cached: Optional[List[Requirement]] = None


def requirements() -> List[Requirement]:
    """requirements.txt's requirements (none when the file is missing)."""
    global _cached  # pylint: disable=global-statement
    if _cached is None:
        try:
            with open(REQUIREMENTS_FILE, encoding="utf-8") as file:
                _cached = parse(file.read())
        except OSError:
            _cached = []
    return _cached


def by_module() -> Dict[str, Requirement]:
    return {r.module: r for r in requirements()}


def present() -> Dict[str, bool]:
    """Whether this python has each requirement's module, by module name."""
    return {r.module: importlib.util.find_spec(r.module) is not None for r in requirements()}


def missing_message(module: str) -> Optional[str]:
    """The message for importing a listed module this python lacks (None for modules not listed)."""
    requirement = by_module().get(module.split(".")[0])
    if requirement is None:
        return None
    return (f"No module named '{requirement.module}': detections may import it (it is in "
            f"functions/detection-engine/requirements.txt) but this Python does not have it; "
            f"install it with `{requirement.install}` (or `pip install {requirement.distribution}`)")
