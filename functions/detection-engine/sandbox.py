"""A sandbox process for user code (see caracal_engine/sandbox.py); started by the host with `python3 -I -S -B`."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from caracal_engine.sandbox import main  # noqa: E402 - needs the path above

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
