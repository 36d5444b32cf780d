"""Readings the resolver may not choose together, and names typed as people type them."""

from __future__ import annotations

import pytest

from genie_bot.language.words import using
from genie_bot.parsers import understanding
from genie_bot.parsers.understanding.proposals import VALUE, Proposal

from .chat import TICKET, Chat


def _new_part_targets(chat: Chat, *fields: str):
    """The targets of ``fields`` in the forms the next message may open, read against the chat's state."""
    with using(understanding.lexicon(chat.spec)):
        ctx = understanding.context(chat.spec, chat.state, "x", chat.today, None)
        return [next(t for t in ctx.targets if t.field.name == f) for f in fields]


def test_values_that_need_different_choices_of_one_field_are_never_chosen_together():
    """"the issue is Wrong Credits" applies to external test credits, "Change Course" to a course problem: both at
    once would be a ticket of two kinds."""
    chat = Chat(TICKET)
    credits, course = _new_part_targets(chat, "issue", "issue_type")
    assert credits.needs and course.needs
    wrong_credits = Proposal(VALUE, frozenset({"value"}), frozenset({1}), frozenset({credits.key}), target=credits,
                             value="Wrong Credits")
    change_course = Proposal(VALUE, frozenset({"value"}), frozenset({2}), frozenset({course.key}), target=course,
                             value="Change Course")
    assert wrong_credits.needs_another_choice(change_course) and wrong_credits.conflicts(change_course)
    assert not wrong_credits.needs_another_choice(wrong_credits)


@pytest.mark.parametrize("typed", ["ines lindqvist", "Ines Lindqvist", "tyler jones"])
def test_a_name_typed_in_lower_case_is_a_name(typed):
    chat = Chat(TICKET).do("main_0.student_task = 'Leave of Absence'", "leave_of_absence_0.form_status = 'Not Submitted'",
                           "leave_of_absence_0.start_quarter = 'Winter'", "main_0.extra_details = 'NA'")
    assert chat.asked.startswith("AskField(main_0, full_name")
    assert chat.parse(typed).statements == f"main_0.full_name = {typed!r}"
