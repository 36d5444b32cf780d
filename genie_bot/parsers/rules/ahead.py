"""Strategy: a short bare value that fits no typed question answers the free-text question asked next.

Asked for a date, "Ann Lee" is no date: the user is answering a question the agent has not
asked yet (a name), as happens when the user is ahead of the agent.
The reply goes to the first unfilled free-text input field of the asked instance whose
predicate holds (a ``dont_ask`` field included: one the user may give unasked); questions to
the agent, small talk, yes, no and long messages are not answers.
"""

from __future__ import annotations

import re

from ...acts import AskField
from ...runtime.policy import field_applies
from ...state import InstanceStatus
from .. import dates, extract
from ..person_names import names_a_person, person_name
from .about import MAX_SHORT_ANSWER_WORDS, declines
from .evidence import proposal, whole
from .fields import is_free_text
from .proposals import LATER_QUESTION, Proposal
from .reading import Reading
from .requested import only_asks_for_a_task
from .words import FILLER, SENTENCE, addresses_the_agent, names_only_a_field, small_talk


def propose(reading: Reading) -> list[Proposal]:
    """Matcher: a bare value that fits no typed question answers the free-text question asked next;
    weak evidence, read only when nothing better explains the message."""
    scratch = reading.fresh()
    found = answers_a_later_question(scratch)
    return [proposal(scratch, "ahead", found, LATER_QUESTION, claims=whole(reading), phase=6)] if found else []


def answers_a_later_question(reading: Reading) -> list[str]:
    act = reading.question
    instance = reading.state.instances.get(getattr(act, "instance", None) or "")
    if not isinstance(act, AskField) or instance is None or instance.status != InstanceStatus.ACTIVE:
        return []
    ws = reading.spec.tasks[instance.worksheet]
    asked = ws.fields.get(act.field)
    if asked is None or is_free_text(asked) or declines(reading, asked):
        return []
    text = reading.text.strip().rstrip("?.! ")  # "Wong?" is an unsure answer, not a question
    if (not text or len(text.split()) > MAX_SHORT_ANSWER_WORDS or FILLER.fullmatch(text)
            or SENTENCE.search(extract.without_lead_in(text)) or re.fullmatch(r"[\d\s.,:/#-]+", text)
            or addresses_the_agent(reading.text) or small_talk(reading.text) or extract.says_unknown(reading.text)
            or extract.yes_no(reading.text) is not None or extract.without_pronoun_one(text) != text
            or _a_typed_value(reading, text) or _a_day_attempted(asked.type.kind, text)
            or only_asks_for_a_task(reading) or names_only_a_field(reading.spec, text)):
        return []  # "the second one" points at a list, "tomorrow" is a date, "help with an order" asks for the task
    for f in ws.fields.values():
        if (f.kind == "input" and is_free_text(f) and f is not asked and instance.values.get(f.name) is None
                and field_applies(reading.spec, reading.state, instance, f, reading.today)):
            value = extract.role_phrase(text, f) or extract.free_text(text, f)
            name = person_name(value) if names_a_person(f) else value  # "an suv" is no driver's name
            return [reading.assign(instance, f, name)] if name is not None else []
    return []


_DAY_LEAD = re.compile(r"^(?:on|this|next|last|by|until|coming|this coming)\s+\S+$", re.I)


def _a_day_attempted(kind: str, text: str) -> bool:
    """Asked for a date, "on blursday" or "this frday" tries to say a day that was not understood: it
    is asked again, not filed as a note."""
    return kind in ("date", "datetime") and bool(_DAY_LEAD.match(text))


def _a_typed_value(reading: Reading, text: str) -> bool:
    """A date, a time, a record's name or a value of a table's column ("tomorrow", "Enoteca Vigna",
    "an suv"): a value of a typed field, or a description of records."""
    tables = [k.name for k in reading.spec.knowledge.values() if k.source == "table"]
    return bool(dates.find_times(text) or (dates.mentions_date(text) and dates.find_dates(text, reading.today))
                or any(reading.mentions(t) for t in tables)
                or (reading.knowledge is not None and any(reading.knowledge.column_values(t).find(text) for t in tables)))
