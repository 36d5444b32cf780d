"""The enum member the details of a message imply."""

from __future__ import annotations

import pytest

from ..support import EXTERNAL, LEAVE, TICKET, Dialogue


def said_of(point: tuple[str, ...], target: str, text: str) -> list[str]:
    """The statements of ``text`` that set ``target`` (``instance.field``)."""
    return [s for s in Dialogue(TICKET).do(*point).said(text) if s.startswith(f"{target} =")]


@pytest.mark.parametrize("text", ["I already sent the form by email on oct 30th", "I emailed it"])
def test_the_details_of_a_sent_form_imply_it_was_submitted(text):
    assert said_of(LEAVE, "leave_of_absence_0.form_status", text) == ["leave_of_absence_0.form_status = 'Submitted'"]


@pytest.mark.parametrize("text", ["starting in winter", "no idea"])
def test_details_every_member_shares_or_none_imply_nothing(text):
    assert said_of(LEAVE, "leave_of_absence_0.form_status", text) in ([], ["leave_of_absence_0.form_status = 'NA'"])


def test_a_test_type_in_the_details_implies_external_test_credits():
    assert said_of((), "main_0.student_task", "the university never received my IB scores") == [
        "main_0.student_task = 'External Test Credits'"]


@pytest.mark.parametrize("text", ["my name is Jane", "I want to take time off starting winter"])
def test_no_single_member_is_implied(text):
    """A quarter is a detail of a leave and of a waitlist alike: only the words asking for a leave choose it."""
    expected = ["main_0.student_task = 'Leave of Absence'"] if "time off" in text else []
    assert said_of((), "main_0.student_task", text) == expected


def test_an_enum_no_field_depends_on_implies_nothing():
    assert said_of(EXTERNAL, "external_test_credits_0.issue", "IB") == []
