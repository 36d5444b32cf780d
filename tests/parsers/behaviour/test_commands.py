"""Cancel, start over and goodbye, when the whole message is the command."""

from __future__ import annotations

import pytest

from ..support import (BOOK, COURSE_LIST, COURSES, LEAVE, LEAVE_SUMMARY, RESTAURANT, TICKET, TWO_COURSES,
                       Dialogue)


@pytest.mark.parametrize("text", [
    "cancel", "forget it", "ugh forget it", "nevermind", "stop", "quit",
    pytest.param("i don't want it anymore", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'i don't want it anymore' is not understood (no exitws())")),
    "i've changed my mind", "forget about it",
])
def test_a_cancel_drops_the_task_in_progress(text):
    dialogue = Dialogue(TICKET).do(*LEAVE)
    assert dialogue.parse(text).statements == "exitws()"


@pytest.mark.parametrize("point, text", [
    (LEAVE, "nevermind, I'll come back later"), (BOOK, "cancel my booking please"),
    pytest.param(TWO_COURSES, "i don't want to enroll anymore", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'i don't want to enroll anymore' mid-enrollment reads as "
                            "'# the request is already being handled'")),
])
def test_a_cancel_in_other_words(point, text):
    agent = RESTAURANT if point == BOOK else COURSES if point == TWO_COURSES else TICKET
    assert Dialogue(agent).do(*point).parse(text).statements == "exitws()"


@pytest.mark.parametrize("text", [
    "forget it?",
    pytest.param("cancel culture is weird", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'cancel culture is weird' mid-leave gives exitws()")),
])
def test_a_cancel_word_in_a_question_or_a_remark_is_no_cancel(text):
    assert "exitws" not in Dialogue(TICKET).do(*LEAVE).parse(text).statements


def test_a_cancel_with_nothing_open_cancels_nothing():
    assert Dialogue(RESTAURANT).parse("cancel").statements == "# nothing to cancel"


@pytest.mark.parametrize("text", ["never mind, my id is 06123456", "forget it, what about CS 107?"])
def test_a_cancel_clause_with_a_value_or_a_question_is_no_command(text):
    assert "exitws" not in Dialogue(TICKET).do(*LEAVE).parse(text).statements


def test_start_over_ends_the_task_and_opens_the_start_worksheet_again():
    dialogue = Dialogue(TICKET).do(*LEAVE)
    assert dialogue.parse("start over").statements == "exitws(main_0, confirmed=True)\nmain_1 = Main()"


def test_start_over_without_a_start_worksheet_only_ends_the_open_task():
    dialogue = Dialogue(RESTAURANT).do(*BOOK)
    assert dialogue.parse("start over").statements == "exitws(book_restaurant_0, confirmed=True)"
    assert Dialogue(RESTAURANT).parse("start over").statements == "# nothing to start over"


@pytest.mark.parametrize("text", ["thanks, bye", "ok thanks bye", "no, bye!"])
def test_a_goodbye_mid_task_ends_every_open_task_once_the_user_says_so(text):
    """A task holding what the user told is never dropped on a goodbye alone: the agent asks first."""
    dialogue = Dialogue(TICKET).do(*LEAVE)
    assert dialogue.parse(text).statements == "exitws(main_0)"
    assert [a.formal() for a in dialogue.reply(text).acts] == ["AskToCancel(main_0)"]
    assert [a.formal() for a in dialogue.reply("yes").acts] == ["Cancelled(main_0)"]


@pytest.mark.parametrize("text", ["that's it", "uh nope thats it", "thats all"])
def test_nothing_more_mid_task_drops_nothing(text):
    """"that's it" to "would you like a third course?" is no to the question, not goodbye to the enrollment."""
    dialogue = Dialogue(COURSES).do(*TWO_COURSES)
    assert dialogue.parse(text).statements == "courses_to_take_0.more_courses_2 = False"


@pytest.mark.parametrize("text", ["thanks, bye", "ok bye"])
def test_a_goodbye_at_a_summary_declines_it(text):
    dialogue = Dialogue(TICKET).do(*LEAVE_SUMMARY)
    assert dialogue.parse(text).statements == "main_0.confirmed = False"


def test_a_goodbye_with_nothing_open_is_only_a_farewell():
    assert Dialogue(RESTAURANT).parse("bye").statements == "# farewell"


@pytest.mark.parametrize("text", ["no thats it", "nope, that's all"])
def test_no_thats_it_to_a_yes_no_question_is_an_answer_not_a_goodbye(text):
    dialogue = Dialogue(COURSES).do(*TWO_COURSES)
    assert dialogue.parse(text).statements == "courses_to_take_0.more_courses_2 = False"


@pytest.mark.parametrize("text", ["yes", "CS 107", "I need help", "the library, 2nd floor"])
def test_ordinary_messages_are_no_commands(text):
    statements = Dialogue(COURSES).do(*COURSE_LIST).parse(text).statements
    assert not any(word in statements for word in ("exitws", "# nothing to", "# farewell", "confirmed ="))
