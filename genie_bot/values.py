"""JSON encoding of state values that reverses exactly.

JSON has no dates, times, tuples or references; they are written as single-key tagged
objects (``{"$date": "2026-11-27"}``) and read back as the same Python values.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from .spec.types import InstanceRef

# Tags for values JSON cannot hold natively. A plain dict whose only key happens to be a tag
# is wrapped in "$dict" so decoding never mistakes data for a tag.
_TAGS = ("$date", "$time", "$datetime", "$ref", "$tuple", "$dict")


def encode_value(value: Any) -> Any:
    """A JSON-compatible form of a state value that :func:`decode_value` reverses exactly."""
    if isinstance(value, InstanceRef):
        return {"$ref": value.name}
    if isinstance(value, dt.datetime):
        return {"$datetime": value.isoformat()}
    if isinstance(value, dt.date):
        return {"$date": value.isoformat()}
    if isinstance(value, dt.time):
        return {"$time": value.isoformat()}
    if isinstance(value, tuple):
        return {"$tuple": [encode_value(v) for v in value]}
    if isinstance(value, list):
        return [encode_value(v) for v in value]
    if isinstance(value, dict):
        encoded = {str(k): encode_value(v) for k, v in value.items()}
        return {"$dict": encoded} if len(encoded) == 1 and next(iter(encoded)) in _TAGS else encoded
    return value


def decode_value(value: Any) -> Any:
    if isinstance(value, list):
        return [decode_value(v) for v in value]
    if isinstance(value, dict):
        if len(value) == 1:
            tag, inner = next(iter(value.items()))
            if tag == "$ref":
                return InstanceRef(inner)
            if tag == "$datetime":
                return dt.datetime.fromisoformat(inner)
            if tag == "$date":
                return dt.date.fromisoformat(inner)
            if tag == "$time":
                return dt.time.fromisoformat(inner)
            if tag == "$tuple":
                return tuple(decode_value(v) for v in inner)
            if tag == "$dict":
                return {k: decode_value(v) for k, v in inner.items()}
        return {k: decode_value(v) for k, v in value.items()}
    return value
