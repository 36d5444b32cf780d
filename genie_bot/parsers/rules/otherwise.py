"""Strategy: a remark that answers nothing, to a question whose enum marks a member for that.

An enum member described with "otherwise" is the answer to a reply that names no member
("that's interesting" to "shall we go on, or do you want more detail?" goes on).
"""

from __future__ import annotations

from ...acts import AskField
from .. import enums
from .about import declines
from .evidence import proposal, whole
from .proposals import OTHERWISE, Proposal
from .reading import Reading
from .words import CHITCHAT, FILLER, remark


def propose(reading: Reading) -> list[Proposal]:
    """Matcher: a remark to a question whose options mark one for anything else; weak evidence."""
    scratch = reading.fresh()
    found = otherwise(scratch)
    return [proposal(scratch, "otherwise", found, OTHERWISE, claims=whole(reading), phase=6)] if found else []


def otherwise(reading: Reading) -> list[str]:
    act = reading.question
    instance = reading.state.instances.get(getattr(act, "instance", None) or "")
    if not isinstance(act, AskField) or instance is None or not remark(reading.text) \
            or CHITCHAT.match(reading.text) or FILLER.fullmatch(reading.text.strip()):
        return []
    f = reading.spec.tasks[instance.worksheet].fields.get(act.field)
    if f is None or f.type.kind != "enum" or declines(reading, f):
        return []
    value = enums.otherwise_value(f)
    return [] if value is None else [reading.assign(instance, f, value)]
