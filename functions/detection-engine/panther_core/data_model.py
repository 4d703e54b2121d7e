"""`from panther_core.data_model import DataModel`."""

from caracal_engine.event import DataModel

__all__ = ["DataModel"]
