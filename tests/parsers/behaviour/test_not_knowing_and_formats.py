"""Not knowing a field the message names declines that field, asked or not; not knowing what was asked
declines it however long the message; digits only one field's format fits go to that field; a field named
in one sentence takes the value the next one gives ("I remembered my PIN. It is 5380"). The STAR bank agent,
whose customers say all of these."""

from __future__ import annotations

import pytest

from ..support import Dialogue

BANK = "star/bank_fraud_report"
REPORT = ("conversation_0 = Conversation(report=FraudReport(fraud_report='money is missing'))",)  # full_name
NAMED = REPORT + ("fraud_report_0.full_name = 'Jane Doe'",)  # account_number
PIN = NAMED + ("fraud_report_0.account_number = '85731890'",)  # pin
DOB = PIN + ("fraud_report_0.pin = NA",)  # date_of_birth


def test_forgetting_another_field_declines_it_not_the_one_asked():
    dialogue = Dialogue(BANK).do(*REPORT)
    assert "full_name" in dialogue.asked
    assert dialogue.said("I forgot my PIN") == ["fraud_report_0.pin = 'NA'"]


def test_values_and_a_field_not_known_in_one_message():
    said = Dialogue(BANK).do(*REPORT).said("Sarah Brown. My account number is 68318931, but I  forgot your PIN.")
    assert sorted(said) == ["fraud_report_0.account_number = '68318931'", "fraud_report_0.full_name = 'Sarah Brown'",
                            "fraud_report_0.pin = 'NA'"]


@pytest.mark.parametrize("text", ["I cannot remember it for the life of me!", "Oh, gosh.  I don't think I remember it.",
                                  "I can not think of it sorry", "Don't get mad at me. I don't remember it"])
def test_not_knowing_what_was_asked_in_a_long_message_declines_it(text):
    assert Dialogue(BANK).do(*PIN).said(text) == ["fraud_report_0.pin = 'NA'"]


def test_digits_only_one_field_s_format_fits_go_to_it_unasked():
    said = Dialogue(BANK).do(*REPORT).said("Katarina Miller 351531510 I can't remember my pin")
    assert "fraud_report_0.account_number = '351531510'" in said and "fraud_report_0.pin = 'NA'" in said


def test_four_digits_no_year_could_be_are_no_date():
    assert Dialogue(BANK).do(*PIN).said("I remember it now, 5380") == ["fraud_report_0.pin = '5380'"]


def test_a_field_named_in_one_sentence_takes_the_value_of_the_next():
    dialogue = Dialogue(BANK).do(*DOB)
    assert "date_of_birth" in dialogue.asked
    assert dialogue.said("Oh wait I just remembered my PIN.  It is 5380.") == ["fraud_report_0.pin = '5380'"]


def test_thanks_alone_to_anything_else_is_no():
    dialogue = Dialogue(BANK).do(*PIN, "fraud_report_0.pin = '7402'")
    assert "anything_else" in dialogue.asked
    assert dialogue.said("Thanks again") == ["conversation_0.anything_else = False"]


@pytest.mark.parametrize("text, place", [
    ("My hot date is near Broadway and Main.  If I get close I'll know where I am.", "Broadway and Main"),
    ("I'll try the bus again.  I am supposed to go to 5th and Main.  Once I get there, I think I am good.",
     "5th and Main"),
    ("somewhere near the Hospital. I think I can remember once I get there.", "Hospital"),
])
def test_a_place_asked_for_is_the_phrase_in_its_role_of_a_longer_reply(text, place):
    dialogue = Dialogue("star/trip_directions").do("conversation_0 = Conversation()")
    assert "arrival_location" in dialogue.asked
    assert f"trip_0.arrival_location = '{place}'" in dialogue.said(text)
