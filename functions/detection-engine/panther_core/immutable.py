"""`from panther_core.immutable import ImmutableCaseInsensitiveDict, ImmutableList, json_encoder`."""

from caracal_engine.immutable import ImmutableCaseInsensitiveDict, ImmutableList, json_encoder

__all__ = ["ImmutableCaseInsensitiveDict", "ImmutableList", "json_encoder"]
