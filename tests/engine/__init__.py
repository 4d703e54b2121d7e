"""Tests of the Python detection engine; puts the engine's folder on the import path."""

import os
import sys

ENGINE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "functions", "detection-engine")
if ENGINE_DIR not in sys.path:
    sys.path.insert(0, ENGINE_DIR)
