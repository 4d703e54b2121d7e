"""The local detection worker: `python3 worker.py [--host-kv]`, JSON lines on stdin and stdout.

The protocol channel is a private copy of the original stdin and stdout: file descriptor 1 is
pointed at stderr and 0 at /dev/null, so nothing a detection prints or reads (even with os.write or
os.read) can corrupt the channel.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from caracal_engine.protocol import Worker  # noqa: E402 - needs the path above


def main() -> None:
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    responses = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull, encoding="utf-8")  # pylint: disable=consider-using-with - for the process lifetime
    sys.stdout = sys.stderr
    Worker(requests, responses, host_kv="--host-kv" in sys.argv[1:]).serve()


if __name__ == "__main__":
    main()
