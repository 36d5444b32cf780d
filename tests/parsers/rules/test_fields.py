"""Helper ``fields``: what the spec says about a field or a worksheet that decides how a message is read."""

from __future__ import annotations

from genie_bot.parsers.rules.fields import fields_by_kind, has_pattern, has_pattern_value, is_free_text, top_level_tasks

from ..support import COURSES, RESTAURANT, TICKET, loaded

SPEC = loaded(TICKET)[0]
MAIN = SPEC.tasks["Main"].fields


def test_a_declared_format_is_its_own_evidence():
    assert has_pattern(MAIN["email"]) and not has_pattern(MAIN["full_name"])
    assert has_pattern_value("mail me at a@b.co", MAIN["email"])
    assert not has_pattern_value("mail me at a@b,co", MAIN["email"])


def test_free_text_is_a_text_field_without_a_format():
    assert is_free_text(MAIN["full_name"])
    assert not is_free_text(MAIN["email"]) and not is_free_text(MAIN["student_task"])


def test_top_level_tasks_are_those_no_worksheet_nests():
    assert [ws.name for ws in top_level_tasks(SPEC)] == ["Main", "TicketStatus"]
    assert [ws.name for ws in top_level_tasks(loaded(COURSES)[0])] == ["Main"]
    assert [ws.name for ws in top_level_tasks(loaded(RESTAURANT)[0])] == ["BookRestaurant"]


def test_fields_by_kind_counts_inputs_only():
    counts = fields_by_kind([SPEC.tasks["LeaveOfAbsence"], SPEC.tasks["Main"]])
    assert counts == {"enum": 4, "date": 1, "ref": 3, "str": 3, "confirm": 1}  # ticket_id, an output, is no str
