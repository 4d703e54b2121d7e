"""The local detection worker (`caracal test`, benchmarks): `python3 -S worker.py`, JSON lines on stdin and
stdout (caracal_engine/protocol.py). It is a sandbox host: user code runs in its sandbox processes.

The protocol channel is a private copy of the original stdin and stdout: file descriptor 1 is pointed at
stderr and 0 at /dev/null. Where seccomp is missing (not Linux), `CARACAL_UNFILTERED_SANDBOX=1` lets the
sandbox run user code without its system-call filter; nothing in the platform sets it.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# Started with -S by its client (worker-client.ts): the site-packages folders `site` would add, without
# running the import lines of .pth files (caracal_engine/sitepath.py).
from caracal_engine.sitepath import add_site_folders  # noqa: E402 - needs the path above

add_site_folders()

from caracal_engine.host import Host  # noqa: E402 - needs the path above


def main() -> None:
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    responses = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull, encoding="utf-8")  # pylint: disable=consider-using-with - for the process lifetime
    sys.stdout = sys.stderr
    # Its sandbox preloads only the optional modules (boto3, requests, ...) its content imports: see sandbox.py.
    host = Host(allow_unfiltered=os.environ.get("CARACAL_UNFILTERED_SANDBOX") == "1", preload_by_content=True,
                compile_content=True)
    # The warm sandbox imports and locks down while the caller prepares its first request.
    host.start()
    from caracal_engine.protocol import Worker  # pylint: disable=import-outside-toplevel - after the sandbox started

    Worker(requests, responses, host).serve()
    # Every answer is written and the sandbox stopped: the process ends without the interpreter's teardown
    # (some 15 ms of CPU the caller would wait for).
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
