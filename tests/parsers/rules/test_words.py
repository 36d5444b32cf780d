"""Helper ``words``: what kind of message it is (a cancel, small talk, a plea, a remark)."""

from __future__ import annotations

import pytest

from genie_bot.parsers.rules.words import (addresses_the_agent, cancels, capitalised, closing_question, plea_for_help,
                                           remark, small_talk, thanks_only)

from ..support import TICKET, TRIP, loaded


@pytest.mark.parametrize("text, says", [
    ("ugh forget it", True), ("nevermind, I'll come back later", True), ("cancel my booking please", True),
    ("i don't want to enroll anymore", True), ("never mind, my id is 06123456", False), ("forget it?", False),
    ("cancel culture is weird", False)])
def test_cancels(text, says):
    assert cancels(text) is says


@pytest.mark.parametrize("text, says", [("Who are you?", True), ("hello", True), ("thanks, bye", True),
                                        ("Why do you need that?", True), ("Jane Doe", False),
                                        ("the library, 2nd floor", False)])
def test_addresses_the_agent(text, says):
    assert addresses_the_agent(text) is says


@pytest.mark.parametrize("text, says", [("ok great, thanks for your help", True), ("thank you", True),
                                        ("thanks, can you also book a table", False), ("thanks?", False)])
def test_thanks_only(text, says):
    assert thanks_only(text) is says


@pytest.mark.parametrize("text, says", [("help me please!", True), ("I need help with my enrollment", False),
                                        ("hi", False)])
def test_a_plea_for_help_says_nothing_of_what_is_wanted(text, says):
    assert plea_for_help(text) is says


@pytest.mark.parametrize("text, says", [("this is so frustrating", True), ("can you help", False),
                                        ("what time is it?", False), ("bye", False)])
def test_a_remark_is_no_question_request_or_farewell(text, says):
    assert remark(text) is says


@pytest.mark.parametrize("text, says", [("ok great", True), ("yes please", True), ("thanks!", True), ("no", True),
                                        ("ok add cs229 too", False), ("Jane Doe", False)])
def test_small_talk(text, says):
    assert small_talk(text) is says


def test_capitalised():
    assert capitalised("tyler jones") == "Tyler Jones"


def test_the_closing_question_is_recognised_by_anything_else():
    spec, _ = loaded(TRIP)
    assert closing_question(spec.tasks["Conversation"].fields["anything_else"])
    ticket, _ = loaded(TICKET)
    assert closing_question(ticket.tasks["Main"].fields["extra_details"])
    assert not closing_question(ticket.tasks["Main"].fields["full_name"])
