"""Every message costs bounded work in the rule parser, which runs on every message (in LLM mode too)."""

from __future__ import annotations

import datetime as dt

import dateparser.search

from genie_bot.agent import Agent
from genie_bot.parsers.understanding import MAX_MESSAGE_CHARS, TOO_LONG
from genie_bot.parsers.understanding.analysis import dates
from genie_bot.spec import load_agent
from tests.conftest import WORKSHEETS

TODAY = dt.date(2026, 11, 21)


def test_a_message_over_the_limit_is_not_read_and_gets_a_polite_answer():
    spec = load_agent(WORKSHEETS / "restaurant_reservation")
    agent = Agent(spec, clock=lambda: dt.datetime(2026, 11, 21, 12))
    state = agent.new_state()
    reply = agent.respond(state, "book a table for 4 at Enoteca Vigna tomorrow. " * 1000)  # ~46,000 characters
    assert not reply.parse.understood and reply.parse.statements == ""
    assert reply.text.startswith(TOO_LONG)
    assert reply.state.instances == state.instances  # nothing was taken from it


def test_dates_are_searched_in_bounded_pieces_of_a_long_message(monkeypatch):
    searched: list[int] = []
    real = dateparser.search.search_dates

    def recording(text, *args, **kwargs):
        searched.append(len(text))
        return real(text, *args, **kwargs)

    monkeypatch.setattr("dateparser.search.search_dates", recording)  # imported by dates on first use
    text = ("I sent the form online last monday and nothing happened since. " * 40)[:MAX_MESSAGE_CHARS]
    found = dates.find_dates(text + " really", TODAY)  # a text the cache has not seen
    assert found and found[0].readings[0] == dt.date(2026, 11, 16)  # read by dateparser (a month's day is not)
    assert searched and max(searched) <= dates.MAX_SEARCHED_CHARS
    # a future and a past reading per clause, tried again when a count was read as a year
    assert len(searched) <= 2 * dates.MAX_SEARCHED_CLAUSES * dates.MAX_YEAR_RETRIES


def test_an_empty_message_is_answered_with_the_question_not_an_apology():
    spec = load_agent(WORKSHEETS / "ticket_submission")
    agent = Agent(spec, clock=lambda: dt.datetime(2026, 11, 21, 12))
    reply = agent.respond(agent.new_state(), "")
    assert reply.parse.understood and "sorry" not in reply.text.lower()
    assert reply.text.startswith("What can I help you with")
