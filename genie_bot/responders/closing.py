"""The end of a conversation: once its task is done, "no thanks", "that's all" or "bye" close it.

After a submission the bot has said what it did and that the user may ask for more; a user who
answers that they need nothing more is told goodbye, not asked "anything else?" again nor told
they were not understood.
"""

from __future__ import annotations

import re

from ..acts import Act
from ..language import english
from ..language.tokens import phrase_pattern, words
from ..parse import Parse
from ..state import DialogueState

GOODBYE = "Goodbye, and come back any time."
CLOSED = f"Okay! {GOODBYE}"
THANKED = f"You're welcome! {GOODBYE}"
_CLOSING = re.compile(phrase_pattern(english.CLOSINGS), re.I)
_THANKS = re.compile(phrase_pattern(english.THANKS), re.I)
_NO_FIRST = re.compile(r"\W*" + phrase_pattern(english.NO_PHRASES), re.I)
_COMPANIONS = frozenset((*english.CLOSING_COMPANIONS, *english.STOP_WORDS, *english.FILLERS, *english.LEAD_INS,
                         *(w for phrase in (*english.YES_PHRASES, *english.COURTESY_TAILS) for w in phrase.split())))


def closing(state: DialogueState, acts: list[Act], user_text: str, parse: Parse) -> str | None:
    """The goodbye for a message that ends the conversation, or None: nothing is open, a task was done
    (or dropped) in it, the turn did nothing and the message says the user needs nothing more, and nothing
    else."""
    if acts or not state.instances or any(i.open for i in state.instances.values()):
        return None
    if any(line.strip() and not line.lstrip().startswith("#") for line in parse.statements.splitlines()):
        return None  # the message asked for something ("no, what was my code?")
    if not _CLOSING.search(user_text) or set(words(_CLOSING.sub(" ", user_text))) - _COMPANIONS:
        return None  # "no, i wanted something else" asks for more
    thanked = _THANKS.search(user_text) and not _NO_FIRST.match(user_text)  # "no thanks" thanks for nothing
    return THANKED if thanked else CLOSED
