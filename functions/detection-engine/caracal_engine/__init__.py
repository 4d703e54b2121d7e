"""Caracal's detection engine: a panther-analysis-compatible runtime for Python and YAML detections."""
