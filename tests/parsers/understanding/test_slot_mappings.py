"""The slot mappings: the table in the docs is the parser's own, and a few of its rules end to end.

``docs/how-the-bot-talks.md`` shows :func:`~genie_bot.parsers.understanding.slots.mapping_table` between
two marker comments; the test fails when they differ and prints the table to paste there.
"""

from __future__ import annotations

import pytest

from genie_bot.language.words import using
from genie_bot.parsers.understanding import lexicon
from genie_bot.parsers.understanding.field_classes import PERSON, field_class
from genie_bot.parsers.understanding.slots import mapping_table
from genie_bot.parsers.understanding.spec_index import index_of
from tests.conftest import REPO

from .chat import (BOOKING_PEOPLE, CAR_RENTAL, LEAVE_ANYTHING_ELSE, MAINTENANCE, RESTAURANT, TICKET, Chat, booking,
                   lines, spec_of)

DOC = REPO / "docs" / "how-the-bot-talks.md"
BEGIN, END = "<!-- slot-mappings: begin -->", "<!-- slot-mappings: end -->"
HEADER = ("field class", "when", "what fills it")


def markdown_table(rows: list[tuple[str, str, str]]) -> str:
    def row(cells: tuple[str, ...]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    return "\n".join([row(HEADER), "|---|---|---|", *(row(r) for r in rows)])


def documented() -> str:
    """The table between the markers ("" when the markers are missing)."""
    text = DOC.read_text(encoding="utf-8")
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        return ""
    return text.split(BEGIN, 1)[1].split(END, 1)[0].strip()


def test_the_docs_show_the_slot_mappings_the_parser_uses():
    expected = markdown_table(mapping_table())
    assert documented() == expected, (
        f"docs/how-the-bot-talks.md (\"Which words fill which fields\") shows other slot mappings than "
        f"slots.mapping_table(); paste this between {BEGIN} and {END} (one of each):\n\n{expected}\n")


def test_the_table_has_a_row_for_every_rule_and_no_cell_breaks_a_row():
    table = markdown_table(mapping_table()).splitlines()
    assert len(table) == len(mapping_table()) + 2
    assert all(line.count(" | ") == 2 for line in table[2:])


# -- free text fills only the field just asked, or a field the message names -----------------------------------

def test_free_text_is_not_taken_by_a_field_neither_asked_nor_named():
    parse = booking().parse("friday, window seat please")
    assert parse.statements == "book_restaurant_0.date = '2026-11-27'"


@pytest.mark.parametrize("text", ["friday, the special request is a window seat",
                                  "friday. special request: a window seat"])
def test_free_text_fills_a_field_the_message_names(text):
    assert lines(booking().parse(text)) == ["book_restaurant_0.date = '2026-11-27'",
                                            "book_restaurant_0.special_request = 'a window seat'"]


def test_free_text_fills_the_field_just_asked():
    chat = Chat(TICKET).do(*LEAVE_ANYTHING_ELSE)
    said = "my advisor already signed it"
    assert chat.parse(said).statements == f"main_0.extra_details = {said!r}"


@pytest.mark.parametrize("text, note", [("winter, my advisor already signed it", None),
                                        ("winter. note: my advisor already signed it", "my advisor already signed it")])
def test_free_text_said_to_another_question_fills_a_free_text_field_only_when_named(text, note):
    chat = Chat(TICKET).do(*LEAVE_ANYTHING_ELSE[:-1])
    assert chat.asked.startswith("AskField(leave_of_absence_0, start_quarter,")
    expected = ["leave_of_absence_0.start_quarter = 'Winter'"] + ([f"main_0.extra_details = {note!r}"] if note else [])
    assert lines(chat.parse(text)) == expected


# -- a person's name field takes the name, not the sentence ---------------------------------------------------

@pytest.mark.parametrize("text, name", [
    ("sure, it's Jenna Ortiz, thanks", "Jenna Ortiz"),
    ("im Jenna Ortiz", "Jenna Ortiz"),
    ("my name is jane doe", "jane doe"),
])
def test_a_persons_name_field_takes_the_name_not_the_sentence(text, name):
    chat = Chat(TICKET).do(*LEAVE_ANYTHING_ELSE, "main_0.extra_details = NA")
    assert chat.parse(text).statements == f"main_0.full_name = {name!r}"


def test_a_name_and_an_email_in_one_sentence_fill_their_own_fields():
    chat = Chat(TICKET).do(*LEAVE_ANYTHING_ELSE, "main_0.extra_details = NA")
    assert lines(chat.parse("my name is Jane Doe and my email is jdoe@stanford.edu")) == [
        "main_0.full_name = 'Jane Doe'", "main_0.email = 'jdoe@stanford.edu'"]


@pytest.mark.xfail(strict=True, reason="issue 35: 'the resident's full name' and 'the main driver's full name' are "
                                       "classed as names of things, not of persons (their owner word is no user noun)")
@pytest.mark.parametrize("agent, task, field", [(MAINTENANCE, "MaintenanceRequest", "resident_name"),
                                                (CAR_RENTAL, "RentCar", "driver_name")])
def test_a_full_name_field_is_a_persons_name(agent, task, field):
    spec = spec_of(agent)
    with using(lexicon(spec)):
        assert field_class(spec.tasks[task].fields[field], index_of(spec)) == PERSON


def test_a_residents_name_said_with_the_unit_fills_both():
    assert lines(Chat(MAINTENANCE).parse("Luis García from 12F")) == [
        "maintenance_request_0.resident_name = 'Luis García'", "maintenance_request_0.unit = '12F'"]


# -- a number field takes a number that belongs to no other entity --------------------------------------------

def test_a_count_takes_the_number_no_date_time_phone_or_amount_explains():
    parse = booking().parse("on the 3rd at 7:30pm for 4, my number is 415-555-0142, about $40 each")
    assert lines(parse) == ["book_restaurant_0.date = '2026-12-03'", "book_restaurant_0.time = '19:30:00'",
                            "book_restaurant_0.num_people = 4"]
    assert set(parse.unplaced) == {"415-555-0142", "$40"}  # said, and no field of the task takes them


@pytest.mark.parametrize("text", ["on the 3rd at 7:30pm", "dec 3 at 7:30pm, call 415-555-0142"])
def test_the_digits_of_a_date_a_time_or_a_phone_give_no_count(text):
    assert "num_people" not in booking().parse(text).statements


def test_the_one_number_of_a_request_is_its_count():
    chat = Chat(RESTAURANT)
    statements = chat.parse("a table for 4 at Enoteca Vigna").statements
    assert "num_people=4" in statements and "'name': 'Enoteca Vigna'" in statements


def test_a_bare_number_answers_the_count_asked():
    assert booking(*BOOKING_PEOPLE).parse("4").statements == "book_restaurant_0.num_people = 4"
