"""The event classes detections import from the platform: `from panther_core import PantherEvent`."""

from caracal_engine.event import PantherEvent

__all__ = ["PantherEvent"]
