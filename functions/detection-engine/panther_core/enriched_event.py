"""`from panther_core.enriched_event import PantherEvent`."""

from caracal_engine.event import PantherEvent

__all__ = ["PantherEvent"]
