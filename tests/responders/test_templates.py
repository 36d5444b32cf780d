"""``responders.templates``: the offline replies read as if a careful person wrote them."""

from __future__ import annotations

from genie_bot.parse import Parse
from genie_bot.responders import TemplateResponder
from genie_bot.responders.templates import NOT_UNDERSTOOD, not_understood, offer
from tests.parsers.support import (BOOKING_SUMMARY, COURSE_LIST, COURSES, LEAVE_EMAIL, LEAVE_SUMMARY, RESTAURANT, TICKET,
                                   TWO_COURSES, UNITS, WAITLIST, Dialogue, booking, loaded)

CODE_WORDS = ("SELECT", "_", "TroubleShoot", "main_0", "None", "answer(")


def say(dialogue: Dialogue, text: str) -> str:
    parse = dialogue.parse(text)
    result = dialogue.reply(text)
    return TemplateResponder().respond(dialogue.spec, dialogue.state, result.acts, text, parse)


def shows_no_code(reply: str) -> bool:
    return not any(word in reply for word in CODE_WORDS)


def test_an_email_refused_is_asked_again_with_the_reason():
    reply = say(Dialogue(TICKET).do(*LEAVE_EMAIL), "jane.doe@stanford,edu")
    assert reply == ("That does not look like an email address (for example jdoe@stanford.edu). "
                     "What is your university email address?")


def test_the_summary_lists_what_will_be_submitted():
    dialogue = Dialogue(TICKET).do(*LEAVE_SUMMARY[:-1])
    reply = say(dialogue, "jane@stanford.edu")
    assert reply.startswith("Here is what I have:\n• What you need help with: Leave of Absence\n")
    assert "• Submission date: Tuesday, November 3, 2026\n" in reply
    assert reply.endswith("Shall I go ahead and file a student services ticket? (yes / no)")
    assert shows_no_code(reply)


def test_the_course_list_question_shows_the_list():
    reply = say(Dialogue(COURSES).do(*TWO_COURSES), "no")
    assert "• First course: CS 224V, grading option: Letter, number of units: 3" in reply
    assert reply.endswith("Is this list of courses, with their grading options and units, correct?")


def test_a_knowledge_answer_is_sentences_not_sql():
    reply = say(Dialogue(COURSES).do(*UNITS), "who teaches CS 107?")
    assert "instructor: Emeka Kowalczyk" in reply and shows_no_code(reply)
    assert reply.endswith("How many units would you like to take it for?")


def test_a_search_lists_names():
    reply = say(Dialogue(RESTAURANT), "any good thai places in seattle?")
    assert reply.startswith("I found 5 restaurants") and "**Siam Cafe**" in reply and shows_no_code(reply)


def test_a_follow_up_question_stays_with_the_results_in_focus():
    dialogue = Dialogue(RESTAURANT)
    say(dialogue, "any good thai places in seattle?")
    reply = say(dialogue, "is it good for kids?")
    assert "Palo Alto" not in reply and "New York" not in reply


def test_a_question_about_the_booked_restaurant_then_the_question_again():
    reply = say(booking(), "what time does it close?")
    assert "**Enoteca Vigna**" in reply and "closing time: 23:00" in reply
    assert reply.endswith("For which date?")


def test_a_cancel_is_confirmed_in_plain_words():
    reply = say(Dialogue(TICKET).do(*LEAVE_SUMMARY), "forget it")
    assert reply == ("Do you want me to stop and drop your request to file a student services ticket? Nothing has "
                     "been submitted, and what you told me so far would be lost. (yes / no)")


def test_a_submission_says_the_worksheets_message_not_a_raw_result():
    dialogue = Dialogue(TICKET).do(*LEAVE_SUMMARY)
    reply = say(dialogue, "yes")
    assert reply.startswith("Your ticket TKT-") and "has been submitted" in reply
    assert "status:" not in reply and "Done." not in reply


def test_an_optional_question_says_it_can_be_skipped():
    dialogue = Dialogue(TICKET).do(*LEAVE_SUMMARY[:5])  # asks anything else
    assert "(You can say skip.)" in TemplateResponder().render(dialogue.spec, dialogue.state,
                                                               dialogue.state.last_acts[-1])


def test_an_enum_question_without_ask_lists_the_options():
    dialogue = Dialogue(TICKET).do("main_0.student_task = 'External Test Credits'")
    reply = TemplateResponder().render(dialogue.spec, dialogue.state, dialogue.state.last_acts[-1])
    assert reply == "What is the kind of external test? (AP, IB, A-Level or Other)"


def test_not_understood_says_so_then_asks_again():
    dialogue = Dialogue(COURSES).do(*COURSE_LIST)
    reply = TemplateResponder().respond(dialogue.spec, dialogue.state, dialogue.state.last_acts, "blorp",
                                        Parse("", understood=False))
    assert reply.startswith("Sorry, I didn't catch “blorp”.\n\n")


def test_a_long_message_not_understood_is_quoted_by_its_first_words():
    assert not_understood("the thing with the stuff from before, you know") == \
        "Sorry, I didn't catch “the thing with the stuff from…”."
    assert not_understood("") == NOT_UNDERSTOOD


def test_with_nothing_started_the_agent_says_what_it_can_do():
    assert offer(loaded(RESTAURANT)[0]) == ("I can book a table at a restaurant or answer questions about restaurants. "
                                           "What would you like to do?")


def test_the_troubleshoot_member_is_shown_in_words():
    dialogue = Dialogue(TICKET).do(*WAITLIST, "join_waitlist_0.course_name = 'CS 107'",
                                   "join_waitlist_0.quarter = 'Winter'", "main_0.extra_details = NA",
                                   "main_0.full_name = 'Jane Doe'")
    reply = say(dialogue, "jane@stanford.edu")
    assert "Trouble Shoot" not in reply and "What you need help with: Troubleshoot" in reply


def test_what_a_course_covers_is_answered_from_its_row():
    reply = say(Dialogue(COURSES).do(*UNITS), "what does CS 224N cover?")
    assert "Natural Language Processing with Deep Learning" in reply and "Neural approaches to language" in reply
    assert shows_no_code(reply)


def test_a_correction_refused_is_not_said_to_be_made():
    """"the time ... should be 4" when the restaurant opens at 17:00: the reason and the question, not
    "Got it: the time is now 7:30 PM" (the old value, kept)."""
    reply = say(booking(*BOOKING_SUMMARY), "oops, the time of the reservation should be 4")
    assert "is now" not in reply and "closed" in reply and reply.endswith("At what time?")

