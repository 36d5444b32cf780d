"""The offline search: what it looked for is kept with the query, and a long message makes a bounded query."""

from __future__ import annotations

import re

import pytest

from genie_bot.knowledge import KeywordQuery, KnowledgeStore
from genie_bot.knowledge.keyword_query import MAX_TERMS
from genie_bot.responders.knowledge_report import knowledge_report
from genie_bot.spec import load_agent
from genie_bot.state import KnowledgeAnswer, Searched
from tests.conftest import WORKSHEETS

SPEC = load_agent(WORKSHEETS / "restaurant_reservation")


def test_the_reply_says_what_the_query_kept_without_reading_its_sql():
    answer = KnowledgeAnswer("ethiopian food in boston", query="not SQL at all ((",
                             searched=Searched(("restaurants",), (("cuisine", "Ethiopian"), ("city", "Boston"))))
    assert knowledge_report(SPEC, answer, []) == "I couldn't find any restaurants with cuisine Ethiopian and city Boston."


def test_a_search_keeps_its_conditions_in_the_words_of_the_table():
    result = KeywordQuery(KnowledgeStore(SPEC)).query(KnowledgeAnswer("italian places in seattle"))
    assert set(result.searched.conditions) == {("city", "Seattle"), ("cuisine", "Italian")}
    assert result.searched.tables == ("restaurants",) and "FROM restaurants" in result.query
    answer = KnowledgeAnswer("italian places in seattle", query=result.query, searched=result.searched)
    assert knowledge_report(SPEC, answer, result.result).startswith("I found 4 restaurants with ")


def test_a_long_message_makes_a_query_no_longer_than_a_short_one():
    query = KeywordQuery(KnowledgeStore(SPEC))
    short = query.query(KnowledgeAnswer("quiet romantic places in seattle with vegetarian dishes")).query
    described = ("we want somewhere quiet and romantic with vegetarian dishes, friendly staff, great desserts, "
                 "cozy booths, candles, jazz, wine, outdoor seating, parking, ")
    long = query.query(KnowledgeAnswer((described * 20)[:2000] + " in seattle")).query
    assert len(re.findall(r"LIKE", long)) == len(re.findall(r"LIKE", short))  # MAX_TERMS words, whatever the length
    assert len(long) < 2 * len(short) and len(set(re.findall(r"'%(\w+)%'", long))) == MAX_TERMS


PLANTS = """
name: nursery
description: Tells about the plants of a nursery.
knowledge:
  - name: plants
    description: the plants for sale
    csv: data/plants.csv
    primary_key: plant_id
"""
PLANT_ROWS = "plant_id,name,kind,indoor,toxic\nP1,Snake Plant,succulent,yes,yes\nP2,Jade,succulent,yes,no\n" \
             "P3,Lavender,herb,no,no\nP4,Boston Fern,fern,yes,no\n"


@pytest.mark.parametrize("question, found", [
    ("which ones are indoor?", {"P1", "P2", "P4"}),
    ("anything thats not toxic", {"P2", "P3", "P4"}),
    ("indoor ones that are toxic?", {"P1"}),
    ("indoor plants that are not toxic", {"P2", "P4"}),
])
def test_a_yes_no_column_the_question_names_is_a_filter(make_agent, question, found):
    spec = load_agent(make_agent(PLANTS, files={"data/plants.csv": PLANT_ROWS}))
    result = KeywordQuery(KnowledgeStore(spec)).query(KnowledgeAnswer(question, table="plants"))
    assert {row["plant_id"] for row in result.result} == found
