"""The folders the `site` module would put on sys.path, found without running the import lines of `.pth` files.

The local worker (worker.py) and the sandboxes (host.py) start with `python3 -S` (no `site`): `site` runs the
`import` lines of every `.pth` file in site-packages at each start, and one a machine has may import a whole
package (a certifi bundle: some 20 ms a start, paid twice per `caracal test`). `-S` also drops the folders
`site` adds, so they are added back here, as `site.main` orders them: the virtual environment's site-packages,
then the user's (when enabled, and never for a sandbox: `-I` kept it out before), then the interpreter's
(unless the environment excludes them), each followed by the folders its `.pth` files name in their path
lines. Their `import` lines are not run.
"""

import os
import sys
from typing import List, Optional


def _virtual_environment() -> Optional[str]:
    """The virtual environment this interpreter belongs to (its pyvenv.cfg beside the executable or one folder
    up, as site.venv looks), or None."""
    executable = os.path.abspath(sys.executable) if sys.executable else ""
    if not executable:
        return None
    folder = os.path.dirname(executable)
    for candidate in (folder, os.path.dirname(folder)):
        if os.path.isfile(os.path.join(candidate, "pyvenv.cfg")):
            return candidate
    return None


def _includes_system_site(prefix: str) -> bool:
    try:
        with open(os.path.join(prefix, "pyvenv.cfg"), encoding="utf-8") as handle:
            for line in handle:
                key, equals, value = line.partition("=")
                if equals and key.strip().lower() == "include-system-site-packages":
                    return value.strip().lower() == "true"
    except OSError:
        pass
    return True  # site.venv's default


def _pth_folders(folder: str) -> List[str]:
    """The existing folders named by the path lines of `folder`'s .pth files (site.addpackage, minus imports)."""
    try:
        names = sorted(name for name in os.listdir(folder) if name.endswith(".pth") and not name.startswith("."))
    except OSError:
        return []
    out = []
    for name in names:
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                lines = handle.read().splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        for line in lines:
            if not line.strip() or line.startswith("#") or line.startswith(("import ", "import\t")):
                continue
            path = os.path.join(folder, line.rstrip())
            if os.path.isdir(path):
                out.append(os.path.abspath(path))
    return out


def site_folders(user: bool) -> List[str]:
    """The folders `site` adds for this interpreter, in its order; with `user`, the user's site-packages too
    when `site` would add it (not disabled by -s, -I or PYTHONNOUSERSITE, not a set-id process)."""
    import site  # pylint: disable=import-outside-toplevel - under -S it runs nothing; only its helpers are used

    prefixes = list(dict.fromkeys([sys.base_prefix, sys.base_exec_prefix]))
    first: List[str] = []
    environment = _virtual_environment()
    if environment is not None:
        first = site.getsitepackages([environment])
        if not _includes_system_site(environment):
            prefixes, user = [], False
    folders = list(first)
    if user and site.check_enableusersite() is True:
        folders.append(site.getusersitepackages())
    folders += site.getsitepackages(prefixes)
    out: List[str] = []
    for folder in folders:
        if os.path.isdir(folder):
            for path in (os.path.abspath(folder), *_pth_folders(folder)):
                if path not in out:
                    out.append(path)
    return out


def add_site_folders() -> None:
    """Under -S, put the folders `site` would have added (user's included) at the end of sys.path."""
    if not sys.flags.no_site:
        return
    for folder in site_folders(user=True):
        if folder not in sys.path:
            sys.path.append(folder)
