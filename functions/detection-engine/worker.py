"""The local detection worker: `python3 worker.py [--host-kv]`, JSON lines on stdin and stdout.

The protocol channel is a private copy of the original stdout; file descriptor 1 is pointed at
stderr, so nothing a detection prints (even with os.write) can corrupt the channel.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from caracal_engine.protocol import Worker  # noqa: E402 - needs the path above


def main() -> None:
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    Worker(sys.stdin, channel, host_kv="--host-kv" in sys.argv[1:]).serve()


if __name__ == "__main__":
    main()
