"""Records that share a name (a class held on several days), and records named by a short name.

The gym agent's schedule has several rows per class name ("Zumba" five times a week). A name
names them all: the rest of the message (a weekday, a date, a time) picks one; when nothing
does, none is guessed and they are listed for the user to choose from, and a description of one
of those listed ("the thursday 5:30 one") picks it. A short name ("spin" for Spin 45, "yin"
for Yin Yoga) names a class when no other class's name starts or ends that way.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ..support import Dialogue

GYM = str(Path(__file__).resolve().parents[2] / "domains" / "tuned" / "gym")
BOOKING = "book_class_0 = BookClass()"


def gym() -> Dialogue:
    return Dialogue(GYM)


def class_id(parse_statements: str) -> str | None:
    """The class_id the statements give the booking's class, if any."""
    marker = "'class_id': '"
    return parse_statements.split(marker)[1][:4] if marker in parse_statements else None


@pytest.mark.parametrize("text, expected", [
    ("book yin yoga on friday", "C118"),           # a weekday said: Yin Yoga runs on Friday once
    ("hey can i book spin on thursday", "C102"),   # a short name and a weekday
    ("book me into power yoga saturday at 9", "C115"),
    ("spin on sunday 7ish", "C103"),               # no verb: a class named is asked for
    ("cycle climb tmrw", "C108"),                  # tomorrow (2026-11-22) is a Sunday
    ("can i book climb on friday", "C106"),        # the end of a name is a short name of it
])
def test_a_name_shared_by_several_classes_is_told_apart_by_the_rest_of_the_message(text, expected):
    parse = gym().parse(text)
    assert class_id(parse.statements) == expected, parse.statements


@pytest.mark.parametrize("text", ["sign me up for zumba", "book zumba"])
def test_a_name_the_message_does_not_narrow_is_no_guess_but_a_list(text):
    parse = gym().parse(text)
    assert "class_session" not in parse.statements  # none of the five picked
    assert "answer('zumba')" in parse.statements   # they are shown


@pytest.mark.parametrize("text, expected", [
    ("the thursday 5:30 one", "C131"),
    ("the one on monday", "C128"),
    ("the 9 am one", "C129"),  # one at 09:00
    ("the friday one", None),  # none on a Friday: no guess
    ("the morning one", None),  # several: no guess
])
def test_a_description_of_one_of_the_classes_listed_picks_it(text, expected):
    dialogue = gym().do(BOOKING, "answer('zumba')")
    assert len(dialogue.state.answer.result) == 5
    assert class_id(dialogue.parse(text).statements) == expected


def test_a_question_about_a_shared_name_lists_every_namesake():
    dialogue = gym().do("answer('when is yin yoga')")
    assert sorted(r["class_id"] for r in dialogue.state.answer.result) == ["C117", "C118", "C119"]


def test_a_question_naming_a_class_is_no_booking():
    assert gym().parse("when is spin?").statements.startswith("answer(")
