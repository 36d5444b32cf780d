"""``parsers.extract``: typed values and message shapes in text."""

from __future__ import annotations

import pytest

from genie_bot.parsers import extract

from .support import COURSES, LEAVE_ANYTHING_ELSE, RESTAURANT, TICKET, TRIP, Dialogue, loaded

PEOPLE = loaded(RESTAURANT)[0].tasks["BookRestaurant"].fields["num_people"]
ARRIVAL = loaded(TRIP)[0].tasks["Trip"].fields["arrival_location"]
DEPARTURE = loaded(TRIP)[0].tasks["Trip"].fields["departure_location"]
EMAIL_PATTERN = loaded(TICKET)[0].tasks["Main"].fields["email"].validation.pattern


@pytest.mark.parametrize("text, said", [
    ("yes", True), ("yeah sure", True), ("yesss", True), ("okie", True), ("sure, CS 161", True), ("keep going", True),
    ("nope", False), ("no thats it", False), ("not really", False), ("that's all", False), ("no more", False),
    ("I think that's enough", False), ("maybe", None), ("CS 107", None), ("give me another one please", True),
    ("it conflicts with another class", None), ("corect", True), ("looks goood", True), ("incorect", False),
    ("coffee", None), ("Corey", None)])
def test_yes_no(text, said):
    assert extract.yes_no(text) is said


@pytest.mark.parametrize("text, declines, unknown", [("skip", True, False), ("pass", True, False),
                                                     ("I don't know", True, True), ("no idea", True, True),
                                                     ("I forgot it", False, True), ("jane doe", False, False),
                                                     ("nohing else", True, False), ("skp it", True, False),
                                                     ("something else", False, False), ("Notting Hill", False, False)])
def test_declines_and_says_unknown(text, declines, unknown):
    assert extract.declines(text) is declines and extract.says_unknown(text) is unknown


@pytest.mark.parametrize("text, farewell", [("thanks, bye", True), ("see ya", True), ("goodbye", True),
                                            ("bye bye", True), ("I have to go", False), ("by email", False)])
def test_is_farewell(text, farewell):
    assert extract.is_farewell(text) is farewell


@pytest.mark.parametrize("text, thanks", [("thx", True), ("thank u", True), ("thinking", False)])
def test_is_thanks(text, thanks):
    assert extract.is_thanks(text) is thanks


@pytest.mark.parametrize("text, clauses", [
    ("Jane Doe, jane.doe@stanford.edu", ["Jane Doe", "jane.doe@stanford.edu"]),
    ("I need it but not today", ["I need it", "not today"]),
    ("jane.doe@stanford.edu", ["jane.doe@stanford.edu"]),
])
def test_clauses(text, clauses):
    assert extract.clauses(text) == clauses


def test_joined_clauses_keep_the_original_punctuation():
    text = "the library, 2nd floor"
    assert extract.joined(text, extract.clause_spans(text)) == text


@pytest.mark.parametrize("text, loose, strict", [("3", [3.0], [3.0]), ("three people", [3.0], [3.0]),
                                                 ("a couple", [2.0], []), ("1,000", [1000.0], [1000.0]),
                                                 ("2.5", [2.5], [2.5])])
def test_numbers(text, loose, strict):
    assert extract.numbers(text) == loose and extract.numbers(text, loose=False) == strict


@pytest.mark.parametrize("text, with_noun, for_field", [("4 people", 4, 4), ("a party of six", 6, 6),
                                                        ("table for 4 at 7pm", None, 4), ("2", None, 2)])
def test_a_number_for_a_field(text, with_noun, for_field):
    assert extract.number_with_noun(text, PEOPLE) == with_noun
    assert extract.number_for(text, PEOPLE) == for_field


def test_pattern_values():
    assert extract.pattern_values("mail jane@x.edu or bob@y.org", EMAIL_PATTERN) == ["jane@x.edu", "bob@y.org"]
    assert extract.pattern_values("jane.doe@stanford,edu", EMAIL_PATTERN) == []


@pytest.mark.parametrize("text, value", [("the library, 2nd floor", "the library, 2nd floor"),
                                         ("it's Jane Doe", "Jane Doe"), ("  Jane Doe.  ", "Jane Doe"),
                                         ("oh and we have a peanut allergy", "we have a peanut allergy"),
                                         ("also a high chair please", "a high chair"),
                                         ("oh, window seat", "window seat"), ("Oh Min-jun", "Oh Min-jun")])
def test_free_text_keeps_commas_and_drops_lead_ins(text, value):
    assert extract.free_text(text) == value


def test_role_phrases_by_the_prepositions_of_a_description():
    assert extract.role_prepositions(DEPARTURE) == ["from"]
    assert extract.role_phrase("I need to go to the park", ARRIVAL) == "park"
    assert extract.role_phrase("from the station to the park", DEPARTURE) == "station"


def test_statements_of_value():
    assert extract.statements_of_value("my name is Jane Doe") == [("name", "Jane Doe")]


@pytest.mark.xfail(strict=True, reason="'my name is J. R. Smith' states the name 'J' (cut at the first dot); "
                                       "volunteered at 'anything else?' it becomes full_name = 'J'")
def test_a_stated_name_with_initials_is_kept_whole():
    assert Dialogue(TICKET).do(*LEAVE_ANYTHING_ELSE).parse("no. my name is J. R. Smith").statements == \
        "main_0.extra_details = 'NA'\nmain_0.full_name = 'J. R. Smith'"


def test_content_words_and_stems():
    assert extract.content_words("I need help joining the waitlists") == {"join", "waitlist"}
    assert extract.stem("joining") == "join"


def test_mentions_a_field_by_its_distinctive_name_words():
    student_id = loaded(COURSES)[0].tasks["StudentInfo"].fields["student_id"]
    assert extract.mentions("my student id is 06123456", student_id)
    assert not extract.mentions("CS 107", student_id)


CURRENT = loaded(TICKET)[0].tasks["ChangeCourse"].fields["current_course"]  # "... enrolled in now"
NEW = loaded(TICKET)[0].tasks["ChangeCourse"].fields["new_course"]  # "... wants instead"


@pytest.mark.parametrize("text, current, new", [
    ("i'm in history 156 right now i want physics 148c instead", "history 156", "physics 148c"),
    ("i want to switch courses, i'd like cs 107 instead", None, "cs 107"),
    ("I'm currently in CS 106A", "CS 106A", None),
    ("i need help with a course in winter", None, None),  # "in" alone says nothing of where one is now
])
def test_the_course_one_is_in_now_and_the_one_wanted_instead(text, current, new):
    assert extract.role_phrase(text, CURRENT) == current and extract.role_phrase(text, NEW) == new


@pytest.mark.parametrize("text, number", [("thre", 3), ("there", 3), ("fiev", 5), ("sevn", 7), ("free", None),
                                          ("those", None)])
def test_a_one_word_number_mistyped(text, number):
    assert extract.number_for(text) == number



@pytest.mark.parametrize("text, one_blanked", [
    ("the thursday 5:30 one", True), ("the yin one please", True), ("the second one", True),
    ("a table for one", False), ("the table for one", False), ("party of one", False), ("just one", False),
])
def test_one_standing_for_a_thing_is_no_number(text, one_blanked):
    assert ("one" not in extract.without_pronoun_one(text)) == one_blanked


def test_an_optional_field_is_declined_by_naming_it():
    spec = loaded(RESTAURANT)[0]
    request = spec.tasks["BookRestaurant"].fields["special_request"]
    assert extract.declined_by_name("tonight at 8, no special requests", request)
    assert extract.declined_by_name("without any special request", request)
    assert not extract.declined_by_name("a special request: a high chair", request)
