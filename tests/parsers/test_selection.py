"""``parsers.selection``: the worksheets an LLM parser prompt shows when an agent declares many."""

from __future__ import annotations

import pytest

from genie_bot.parsers.selection import relevant_worksheets

from .support import COURSES, LEAVE, TICKET, Dialogue

TICKET_NESTED = ["Main", "TroubleShoot", "ChangeCourse", "JoinWaitlist", "LeaveOfAbsence", "ExternalTestCredits"]


def test_few_worksheets_are_all_shown_in_declaration_order():
    dialogue = Dialogue(TICKET)
    assert relevant_worksheets(dialogue.spec, dialogue.state, "anything", 20) == dialogue.spec.worksheet_names()


def test_the_start_worksheet_is_shown_with_every_worksheet_it_nests():
    dialogue = Dialogue(TICKET).do(*LEAVE)
    assert relevant_worksheets(dialogue.spec, dialogue.state, "my AP scores", 4) == TICKET_NESTED


def test_knowledge_tables_are_left_out_unless_used_or_named():
    dialogue = Dialogue(COURSES)
    assert relevant_worksheets(dialogue.spec, dialogue.state, "I want to enroll", 4) == [
        "Main", "CoursesToTake", "Course", "StudentInfo"]


@pytest.mark.xfail(strict=True, reason="when the start worksheet and its nested ones already fill the limit, the "
                                       "task the message asks for (TicketStatus for 'status of my ticket') is left out")
def test_the_task_the_message_asks_for_is_shown():
    dialogue = Dialogue(TICKET)
    assert "TicketStatus" in relevant_worksheets(dialogue.spec, dialogue.state, "status of my ticket", 6)
