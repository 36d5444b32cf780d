"""``parsers.repair``: dry runs of statements and the repair of an answer the LLM parse left out."""

from __future__ import annotations

from genie_bot.parsers.repair import dry_run, omission_repair
from genie_bot.parsers import RuleParser

from .support import BOOKING_PEOPLE, LEAVE_EMAIL, LEAVE_NAME, TICKET, TODAY, Dialogue, booking


def test_a_dry_run_reports_what_would_be_assigned_and_leaves_the_state_alone():
    dialogue = Dialogue(TICKET).do(*LEAVE_NAME)
    update = dry_run(dialogue.spec, dialogue.state, "main_0.full_name = 'Jane'", TODAY)
    assert update.assigned == [("main_0", "full_name")] and update.errors == []
    assert dialogue.values("main_0").get("full_name") is None


def test_a_dry_run_reports_errors_and_rejections():
    dialogue = Dialogue(TICKET).do(*LEAVE_EMAIL)
    update = dry_run(dialogue.spec, dialogue.state, "main_0.nonexistent = 'x'\nmain_0.email = 'x'", TODAY)
    assert "Main has no field 'nonexistent'" in update.errors[0]
    assert [(r.field, r.value) for r in update.rejected] == [("email", "x")]


def test_the_answer_to_the_question_asked_is_repaired_when_the_parse_wrote_nothing():
    dialogue = Dialogue(TICKET).do(*LEAVE_NAME)
    update = dry_run(dialogue.spec, dialogue.state, "", TODAY)
    assert omission_repair(dialogue.spec, dialogue.state, "Jane Doe", TODAY, "", update, RuleParser()) == \
        "main_0.full_name = 'Jane Doe'"


def test_no_repair_when_the_parse_asks_the_knowledge_base():
    dialogue = Dialogue(TICKET).do(*LEAVE_NAME)
    update = dry_run(dialogue.spec, dialogue.state, "", TODAY)
    assert omission_repair(dialogue.spec, dialogue.state, "Jane Doe", TODAY, "answer('who?')", update,
                           RuleParser()) is None


def test_no_repair_of_a_free_text_field_when_the_parse_wrote_something_else():
    dialogue = Dialogue(TICKET).do(*LEAVE_NAME)
    statements = "main_0.email = 'jane@stanford.edu'"
    update = dry_run(dialogue.spec, dialogue.state, statements, TODAY)
    assert omission_repair(dialogue.spec, dialogue.state, "Jane Doe", TODAY, statements, update, RuleParser()) is None


def test_a_typed_answer_left_out_is_repaired_beside_other_statements():
    dialogue = booking(*BOOKING_PEOPLE)
    statements = "book_restaurant_0.special_request = 'a quiet table'"
    update = dry_run(dialogue.spec, dialogue.state, statements, TODAY)
    assert omission_repair(dialogue.spec, dialogue.state, "4 of us, a quiet table", TODAY, statements, update,
                           RuleParser()) == "book_restaurant_0.num_people = 4"


def test_no_repair_when_the_field_was_assigned_or_rejected():
    dialogue = Dialogue(TICKET).do(*LEAVE_EMAIL)
    statements = "main_0.email = 'x'"
    update = dry_run(dialogue.spec, dialogue.state, statements, TODAY)
    assert omission_repair(dialogue.spec, dialogue.state, "jane@stanford.edu", TODAY, statements, update,
                           RuleParser()) is None
