"""Values a message gives that no field took (``Parse.unplaced``), named in the reply rather than dropped.

The parser lists the values of the message that no reading it chose uses (a number, a name, an option).
Some are no values of the user's: words the agent's own tasks and fields use ("change the email"), a word
of a value a field holds (the "106a" that says which course "5 units for 106a" is about), a word of the
calendar beside a date the message set ("tonight"). The others are named: "I didn't know where to put
“lemonade”, so I left it out."
"""

from __future__ import annotations

import re

from ..language import english
from ..language.tokens import words
from ..language.words import content_words
from ..parse import Parse
from ..spec import AgentSpec
from ..state import DialogueState
from .display import join_words, record_name
from .wording import label

NOT_PLACED = "I didn't know where to put {said}, so I left {them} out."
NOT_CONTENT = frozenset((*english.FILLERS, *english.LEAD_INS, *english.COURTESY_TAILS, *english.PRONOUNS,
                         *english.PRO_FORMS))
_CALENDAR_WORDS = content_words(" ".join((*english.DATE_WORDS, *english.MONTHS, *english.MONTH_ABBREVIATIONS,
                                          *english.PARTS_OF_DAY)))
_DATED = re.compile(r"'\d{4}-\d{2}-\d{2}'|'\d{2}:\d{2}(?::\d{2})?'")
"""A date or a time the statements set: a word of the calendar left beside it is part of it ("tonight")."""


def not_placed(spec: AgentSpec, state: DialogueState, parse: Parse, reply: str) -> str:
    """"I didn't know where to put “lemonade”, so I left it out.": the values of the message no statement
    uses (``Parse.unplaced``), but words the agent's own tasks and fields use (a word of the request, not
    a value: "change", "email"), words of a value held (the "106a" of "5 units for 106a" says which course)
    and values the reply names already."""
    if not parse.understood:
        return ""  # the reply says the message was not understood
    agent_words = _agent_words(spec)
    said = reply.lower()
    dated = _DATED.search(parse.statements) is not None
    held = _held_words(state)
    left = [text for text in dict.fromkeys(parse.unplaced) if text.lower() not in said
            and not any(set(words(text)) <= value for value in held) and _a_value(text, agent_words, dated)]
    if not left:
        return ""
    said = join_words([f"“{_trimmed(t)}”" for t in left])
    return NOT_PLACED.format(said=said, them="it" if len(left) == 1 else "them")


def _trimmed(text: str) -> str:
    """The words of a value without the little words its span took on either side ("3 days ago on a")."""
    found = text.split()
    while found and found[-1].lower() in english.STOP_WORDS:
        found.pop()
    while found and found[0].lower() in english.STOP_WORDS:
        found.pop(0)
    return " ".join(found) or text.strip()


def _a_value(text: str, agent_words: frozenset[str], dated: bool) -> bool:
    """Whether an unplaced text is a value the user gave: a number, or words the agent's requests do not
    use, other than words of the calendar beside a date or time the message set."""
    if any(c.isdigit() for c in text):
        return True
    meaning = content_words(text) - agent_words - NOT_CONTENT
    return bool(meaning) and not (dated and meaning <= _CALENDAR_WORDS)


def _held_words(state: DialogueState) -> list[set[str]]:
    """The words of each text value the instances hold (a record by its name)."""
    out = []
    for instance in state.instances.values():
        for value in instance.values.values():
            text = record_name(value) if isinstance(value, dict) else value
            if isinstance(text, str):
                out.append(set(words(text)))
    return out


def _agent_words(spec: AgentSpec) -> frozenset[str]:
    """The words of the agent's tasks and fields: what a request says, not a value it gives (an option is a
    value: left out, it is named)."""
    texts = []
    for ws in spec.tasks.values():
        texts += [ws.description, ws.phrase or "", *ws.examples]
        for f in ws.fields.values():
            texts += [f.description, f.ask or "", label(f)]
    return content_words(" ".join(texts)) | content_words(" ".join(english.ORDINAL_WORDS))
