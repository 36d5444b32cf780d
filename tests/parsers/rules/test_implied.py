"""Helper ``implied``: the enum member the details of a message imply."""

from __future__ import annotations

import pytest

from genie_bot.parsers.rules.implied import implied_member

from ..support import EXTERNAL, LEAVE, TICKET, Dialogue


def implied(point, instance, worksheet, field, text):
    dialogue = Dialogue(TICKET).do(*point)
    return implied_member(dialogue.reading(text), dialogue.state.instances[instance],
                          dialogue.spec.tasks[worksheet].fields[field])


@pytest.mark.parametrize("text", ["I already sent the form by email on oct 30th", "I emailed it"])
def test_the_details_of_a_sent_form_imply_it_was_submitted(text):
    assert implied(LEAVE, "leave_of_absence_0", "LeaveOfAbsence", "form_status", text) == "Submitted"


@pytest.mark.parametrize("text", ["starting in winter", "no idea"])
def test_details_every_member_shares_or_none_imply_nothing(text):
    assert implied(LEAVE, "leave_of_absence_0", "LeaveOfAbsence", "form_status", text) is None


def test_a_test_type_in_the_details_implies_external_test_credits():
    assert implied((), "main_0", "Main", "student_task",
                   "the university never received my IB scores") == "External Test Credits"


@pytest.mark.parametrize("text", ["my name is Jane", "I want to take time off starting winter"])
def test_no_single_member_is_implied(text):
    """A quarter is a detail of a leave and of a waitlist alike."""
    assert implied((), "main_0", "Main", "student_task", text) is None


def test_an_enum_no_field_depends_on_implies_nothing():
    assert implied(EXTERNAL, "external_test_credits_0", "ExternalTestCredits", "test_type", "IB") is None
