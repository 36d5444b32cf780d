"""Issue 37.1's property: a message with content no field took never gets a reply that says nothing
about it. Over generated conversations on the example agents and the copied dental agent, every number
or capitalised name the parser left unplaced (``Parse.unplaced``) is either named in the reply or part
of a value a field holds (the "106a" that says which course).

Run against a responder that does not name unplaced values, it fails at once ("its for my daughter Emma
Ruiz, shes 7" to the ticket agent: "Got it: the full name is Emma Ruiz." and no word of the 7)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from genie_bot.language.tokens import words
from tests.contract.chat import COURSES, DENTAL, RESTAURANT, TICKETS, Chat
from tests.contract.test_every_part_accounted import mentions

SAID = ("book a table at lemongrass noodle bar", "for 4 tomorrow at 7pm, 2 of us are kids", "room 204 at the hotel",
        "its for my daughter Emma Ruiz, shes 7", "my dog Max is 45 lb", "cs 106a for 5 units", "12345678",
        "call me at 650 555 0199", "yes", "no", "thanks", "change the time to 8pm", "3 weeks ago",
        "tooth 14 hurts since tuesday", "lunch with Raj from globex, 45 bucks", "i need help with a leave of absence",
        "book a cleaning with dr kim on monday", "letter grade, 4 units", "ann@stanford.edu", "Ann Lee",
        "i want 2 courses: cs 109 and cs 161", "no thats all", "any update?")
"""Messages as people type them, many with a value beside the one asked for."""


def held_words(chat: Chat) -> list[set[str]]:
    out = []
    for instance in chat.state.instances.values():
        for value in instance.values.values():
            text = value.get("name") if isinstance(value, dict) else value
            if isinstance(text, str):
                out.append(set(words(text)))
    return out


def is_a_value(text: str) -> bool:
    return any(c.isdigit() for c in text) or text[:1].isupper()


@pytest.mark.parametrize("agent", [COURSES, RESTAURANT, TICKETS, DENTAL], ids=lambda p: Path(p).name)
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(messages=st.lists(st.sampled_from(SAID), min_size=1, max_size=6))
def test_no_unplaced_value_goes_unsaid(agent, messages):
    chat = Chat(agent)
    for number, message in enumerate(messages, 1):
        reply = chat.say(message)
        assert chat.last is not None
        held = held_words(chat)
        for text in chat.last.parse.unplaced:
            if is_a_value(text) and not any(set(words(text)) <= h for h in held):
                values = [w for w in text.split() if is_a_value(w)]
                assert all(mentions(reply, w) for w in values), \
                    f"turn {number} of {messages}: {text!r} unsaid in {reply!r}"
