"""A person's name as an answer, and what is no name."""

from __future__ import annotations

import pytest

from ..support import LEAVE_NAME, TICKET, Dialogue

FULL_NAME = "main_0.full_name = "


def name_given(text: str) -> list[str]:
    """What ``text`` gives the full name, asked for it."""
    return [s for s in Dialogue(TICKET).do(*LEAVE_NAME).said(text) if s.startswith(FULL_NAME)]


@pytest.mark.parametrize("text, name", [
    ("Jane Doe", "Jane Doe"), ("tyler jones", "tyler jones"),
    pytest.param("José de la Cruz", "José de la Cruz", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'José de la Cruz' gives full_name = 'Cruz'")),
    ("Jane Doe and I study physics", "Jane Doe"), ("Jane Doe, jane@stanford.edu", "Jane Doe"),
    pytest.param("J. R. Smith", "J. R. Smith", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'J. R. Smith' gives full_name = 'J R Smith' (the dots dropped)")),
    pytest.param("Dr. Lee", "Dr. Lee", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'Dr. Lee' gives full_name = 'Dr Lee' (the dot dropped)")),
    ("Mary-Kate O'Neil.", "Mary-Kate O'Neil"), ("Jane Doe please", "Jane Doe"), ("oh Jones", "Jones"),
    ("yes, Jane Doe", "Jane Doe"), ("it's Jane Doe", "Jane Doe"), ("  Jane Doe.  ", "Jane Doe"),
    pytest.param("Oh Min-jun", "Oh Min-jun", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'Oh Min-jun' gives full_name = 'Min-jun' ('Oh' taken for an interjection)")),
])
def test_the_name_a_reply_gives(text, name):
    assert name_given(text) == [f"{FULL_NAME}{name!r}"]


@pytest.mark.parametrize("text", [
    pytest.param("this is so frustrating", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: asked for the name, 'this is so frustrating' gives full_name = 'frustrating'")),
    "an international student", "06123456",
    pytest.param("Jane lives in Palo Alto", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: asked for the name, 'Jane lives in Palo Alto' gives full_name = 'Palo Alto'")),
    "what do you need it for?", "Um, ok thanks", "Oh great!",
])
def test_a_sentence_or_a_description_is_no_name(text):
    assert name_given(text) == []
