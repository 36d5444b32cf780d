"""The knowledge parser: LLM-written SQL, validated and re-asked; free-text answers; documents; parameters."""

from __future__ import annotations

import pytest

from genie_bot.knowledge import KnowledgeStore
from genie_bot.knowledge.documents import DocumentIndex, chunk
from genie_bot.knowledge.llm_query import LLMKnowledge
from genie_bot.llm import make_client
from genie_bot.spec import load_agent
from genie_bot.state import KnowledgeAnswer

from .conftest import TODAY, make_settings

THAI_SEATTLE = "SELECT * FROM restaurants WHERE city = 'Seattle' AND cuisine = 'Thai' ORDER BY rating DESC"


@pytest.fixture(scope="module")
def restaurant_store(restaurant_spec) -> KnowledgeStore:
    return KnowledgeStore(restaurant_spec)


@pytest.fixture
def knowledge(server, restaurant_spec, restaurant_store) -> LLMKnowledge:
    return LLMKnowledge(restaurant_spec, make_client(make_settings(server)), restaurant_store, today=lambda: TODAY)


def ask(question: str, **params) -> KnowledgeAnswer:
    return KnowledgeAnswer(question=question, params=params)


def test_question_to_sql_to_rows_through_the_agent(server, script, restaurant_spec, chat_with):
    chat = chat_with(restaurant_spec)
    script.add("parser", "answer('best Thai restaurants in Seattle')")
    script.add("knowledge", f"```sql\n{THAI_SEATTLE}\n```")
    script.add("responder", "I searched for Thai restaurants in Seattle, best first: Siam Noodle Bar leads.")
    reply = chat.say("what are the best thai places in seattle?")

    prompt = script.prompt("knowledge")
    assert "CREATE TABLE restaurants (" in prompt
    assert "price TEXT,  -- the price range" in prompt
    assert "values: 'cheap', 'expensive', 'luxury', 'moderate'" in prompt
    assert "FREE TEXT: filter on what it says with answer(review, 'yes/no question') = 'Yes'" in prompt
    assert "Question: a quiet cheap place in Palo Alto for a date" in prompt  # the agent's few-shot examples
    assert "Question: best Thai restaurants in Seattle" in prompt and "Today is 2026-11-23" in prompt

    answer = chat.state.answer
    assert answer.query == THAI_SEATTLE + " LIMIT 20" and answer.status == "done"
    ratings = [r["rating"] for r in answer.result]
    assert {r["cuisine"] for r in answer.result} == {"Thai"} and ratings == sorted(ratings, reverse=True)
    assert reply.acts[0].formal().startswith(f"Report(answer('best Thai restaurants in Seattle'), "
                                             f"[{{'id': {answer.result[0]['id']}")
    assert f"Query that was run: {THAI_SEATTLE} LIMIT 20" in script.prompt("responder")


def test_unsafe_sql_is_asked_again_once_with_the_reason(server, script, knowledge):
    attack = "SELECT name FROM restaurants UNION SELECT sql FROM sqlite_master"
    script.add("knowledge", attack, THAI_SEATTLE)
    result = knowledge.query(ask("thai places in seattle"))
    assert result.query == THAI_SEATTLE + " LIMIT 20" and len(result.result) == 5
    repair = script.requests["knowledge"][1]["messages"]
    assert repair[-2] == {"role": "assistant", "content": attack}
    assert "only SELECT queries are allowed, not UNION" in repair[-1]["content"]


@pytest.mark.parametrize("attack, reason", [
    ("SELECT printf('%.*c', 500000000, 'x') AS x FROM restaurants", "'*' widths are not allowed in printf()"),
    ("SELECT " + "(" * 2000 + "1" + ")" * 2000 + " AS x FROM restaurants", "nested too deeply"),
])
def test_an_amplifying_or_deeply_nested_query_is_asked_again_with_the_reason(server, script, knowledge, attack, reason):
    script.add("knowledge", attack, THAI_SEATTLE)
    result = knowledge.query(ask("thai places in seattle"))
    assert reason in script.requests["knowledge"][1]["messages"][-1]["content"]
    assert result.query == THAI_SEATTLE + " LIMIT 20" and len(result.result) == 5


def test_two_bad_queries_give_an_error_result(server, script, knowledge):
    script.add("knowledge", "DROP TABLE restaurants", "SELECT * FROM restaurants; DELETE FROM restaurants")
    result = knowledge.query(ask("delete everything"))
    assert script.calls("knowledge") == 2
    assert set(result.result) == {"error"} and "exactly one statement" in result.result["error"]


def test_a_runaway_query_uses_the_question_s_whole_time_budget_and_is_not_run_again(server, script, restaurant_spec,
                                                                                    restaurant_store):
    """One budget per question: a query that used all of it is not followed by a repaired one that
    would get the timeout a second time."""
    knowledge = LLMKnowledge(restaurant_spec, make_client(make_settings(server)), restaurant_store,
                             today=lambda: TODAY, timeout=0.2)
    runaway = "SELECT COUNT(*) FROM restaurants a, restaurants b, restaurants c, restaurants d"
    script.add("knowledge", runaway, runaway)
    result = knowledge.query(ask("count everything four times over"))
    assert script.calls("knowledge") == 1
    assert "took longer than 0.2 s" in result.result["error"]


def test_a_database_error_is_asked_again(server, script, knowledge):
    script.add("knowledge", "SELECT * FROM restaurants WHERE stars > 4", "SELECT * FROM restaurants WHERE rating > 4.8")
    result = knowledge.query(ask("five star places"))
    assert "no such column: stars" in script.requests["knowledge"][1]["messages"][-1]["content"]
    assert result.result and all(r["rating"] > 4.8 for r in result.result)


def test_a_search_the_llm_cannot_make_is_answered_offline(server, script, knowledge):
    script.add("knowledge", {"status": 500})
    result = knowledge.query(ask("Thai places in Seattle"))
    assert "restaurants.city" in result.query and {r["cuisine"] for r in result.result} == {"Thai"}


def test_parameters_are_part_of_the_prompt(server, script, knowledge):
    script.add("knowledge", "SELECT * FROM restaurants WHERE city = 'Seattle' LIMIT 3")
    knowledge.query(ask("somewhere nice", city="Seattle", table="restaurants"))
    assert "- city = 'Seattle'" in script.prompt("knowledge")


# -- free text ------------------------------------------------------------------------------------------
KIDS = ("SELECT id, name FROM restaurants WHERE city = 'Seattle' AND cuisine = 'Thai' "
        "AND answer(review, 'is it good for kids?') = 'Yes'")


def test_free_text_predicate_reads_only_the_filtered_rows_and_caches(server, script, knowledge):
    script.add("knowledge", KIDS, *["No", "Yes, very.", "no", "Yes", "No"], KIDS)
    result = knowledge.query(ask("thai places in seattle good for kids"))
    free_text = script.requests["knowledge"][1:6]
    assert len(free_text) == 5  # the five Thai places in Seattle, not all 300 reviews
    assert "Question: is it good for kids?" in free_text[0]["messages"][0]["content"]
    assert free_text[0]["max_tokens"] == 30
    assert len(result.result) == 2

    again = knowledge.query(ask("thai places in seattle good for kids"))
    assert script.calls("knowledge") == 7 and again.result == result.result  # answers came from the cache


def test_free_text_budget_and_failures_never_include_unread_rows(server, script, knowledge):
    knowledge.free_text_budget = 2
    script.add("knowledge", KIDS, "Yes", {"status": 500})
    result = knowledge.query(ask("thai places in seattle good for kids"))
    assert script.calls("knowledge") == 3 and len(result.result) == 1


# -- documents ------------------------------------------------------------------------------------------
HANDBOOK = {
    "docs/leave.md": """
        # Leave

        Employees get 25 days of paid vacation per year. Unused days carry over until March.

        Parental leave is 16 weeks at full pay.
        """,
    "docs/expenses.md": """
        # Expenses

        Travel expenses are refunded within 30 days when the receipt is uploaded to the portal.

        Meals are refunded up to 50 dollars per day while travelling.
        """,
}
HELPDESK = """
name: helpdesk
description: Answers questions about the company handbook.
tasks:
  - name: Ticket
    description: open a helpdesk ticket
    fields:
      - {name: topic, type: str}
knowledge:
  - name: handbook
    description: the employee handbook (leave, expenses)
    documents: docs/*.md
"""


def test_chunking_keeps_paragraphs_and_bounds_size():
    text = "First paragraph.\n\nSecond one.\n\n" + "A long sentence here. " * 80
    passages = chunk(text, size=300)
    assert passages[0] == "First paragraph.\n\nSecond one."
    assert all(len(p) <= 300 for p in passages) and len(passages) > 3


def test_document_search_ranks_with_bm25(make_agent):
    index = DocumentIndex(load_agent(make_agent(HELPDESK, files=HANDBOOK)))
    (best, *_) = index.search("handbook", "how many vacation days do I get?")
    assert best.document == "leave.md" and "25 days" in best.text
    assert index.search("handbook", 'refund" OR x:y NEAR(') [0].document == "expenses.md"  # no FTS syntax leaks
    assert index.search("handbook", "???") == []


def test_documents_are_answered_with_citations(server, script, make_agent, chat_with):
    chat = chat_with(load_agent(make_agent(HELPDESK, files=HANDBOOK)))
    script.add("parser", "answer('how fast are travel expenses refunded?')")
    script.add("knowledge", "Travel expenses are refunded within 30 days [1].")
    script.add("responder", "Within 30 days, once the receipt is uploaded [1].")
    reply = chat.say("how fast do I get travel expenses back?")
    assert script.calls("knowledge") == 1  # documents only: no SQL step
    prompt = script.prompt("knowledge")
    assert "[1] (expenses.md §1)\n# Expenses\n\nTravel expenses are refunded within 30 days" in prompt
    (row,) = chat.state.answer.result
    assert row == {"answer": "Travel expenses are refunded within 30 days [1].", "sources": ["[1] expenses.md §1"]}
    assert chat.state.answer.query == "search(handbook, 'how fast are travel expenses refunded?')"
    assert reply.text.startswith("Within 30 days")


def test_the_llm_routes_a_question_to_documents_with_search(server, script, make_agent, tmp_path):
    files = {**HANDBOOK, "data/rooms.csv": "room,seats\nA,4\nB,10\n"}
    rooms = "  - name: rooms\n    csv: data/rooms.csv\n    columns: {room: the room, seats: {type: int}}\n"
    spec = load_agent(make_agent(HELPDESK + rooms, files=files))
    knowledge = LLMKnowledge(spec, make_client(make_settings(server)), KnowledgeStore(spec),
                             documents=DocumentIndex(spec), today=lambda: TODAY)
    script.add("knowledge", "search(handbook, 'parental leave weeks')", "16 weeks at full pay [1].",
               "SELECT room FROM rooms WHERE seats >= 8")
    result = knowledge.query(ask("how long is parental leave?"))
    assert "Document collections" in script.prompt("knowledge", 0) and "- handbook: the employee handbook" in \
        script.prompt("knowledge", 0)
    assert result.query == "search(handbook, 'parental leave weeks')"
    assert result.result[0]["sources"] == ["[1] leave.md §1"]
    assert knowledge.query(ask("a room for 8 people")).result == [{"room": "B"}]


def test_a_query_showing_some_columns_keeps_the_whole_rows_of_its_records(server, script, make_agent):
    """A record chosen from the answer is the whole row (issue 36, item 4): the result carries them."""
    rooms = ("  - name: rooms\n    csv: data/rooms.csv\n    primary_key: id\n"
             "    columns: {id: the code, name: the room, seats: {type: int}, floor: {type: int}}\n")
    spec = load_agent(make_agent(HELPDESK + rooms, files={**HANDBOOK, "data/rooms.csv": "id,name,seats,floor\n"
                                                                                        "R1,Aspen,4,1\nR2,Birch,10,2\n"}))
    knowledge = LLMKnowledge(spec, make_client(make_settings(server)), KnowledgeStore(spec), today=lambda: TODAY)
    script.add("knowledge", "SELECT id, name FROM rooms WHERE seats >= 8")
    result = knowledge.query(ask("a room for 8 people"))
    assert result.result == [{"id": "R2", "name": "Birch"}]
    assert result.records == {"rooms": [{"id": "R2", "name": "Birch", "seats": 10, "floor": 2}]}


def test_documents_without_an_llm_answer_return_the_passages(server, script, make_agent):
    spec = load_agent(make_agent(HELPDESK, files=HANDBOOK))
    knowledge = LLMKnowledge(spec, make_client(make_settings(server)), None, documents=DocumentIndex(spec))
    script.add("knowledge", {"status": 500})
    result = knowledge.query(ask("meal refunds"))
    assert result.result[0]["source"] == "expenses.md §1" and "50 dollars" in result.result[0]["passage"]


# -- required parameters ----------------------------------------------------------------------------------
DINER = """
name: diner
description: Finds dishes by city.
tasks:
  - name: Order
    description: order a dish
    fields:
      - {name: dish, type: str}
knowledge:
  - name: dishes
    description: dishes and the cities serving them
    csv: data/dishes.csv
    primary_key: name
    columns:
      name: the dish name
      city: {description: the city to search in, required: true}
"""


def test_a_missing_required_parameter_is_asked_before_any_query(server, script, make_agent, chat_with):
    dishes = {"data/dishes.csv": "name,city\nMargherita,Rome\nRamen,Tokyo\n"}
    chat = chat_with(load_agent(make_agent(DINER, files=dishes)))
    script.add("parser", "answer('which dishes can I get?')", "answer.city = 'Rome'")
    script.add("responder", "In which city?", "Margherita.")
    reply = chat.say("which dishes can I get?")
    assert [a.formal() for a in reply.acts] == ['AskField(answer, city, "the city to search in")']
    assert script.calls("knowledge") == 0
    script.add("knowledge", "SELECT name FROM dishes WHERE city = 'Rome'")
    reply = chat.say("in Rome please, near the station")
    assert "- city = 'Rome'" in script.prompt("knowledge")
    assert chat.state.answer.result == [{"name": "Margherita"}]


def test_several_collections_without_tables_let_the_llm_choose(server, script, make_agent):
    two = HELPDESK + "  - name: policies\n    description: security policies\n    documents: policies/*.md\n"
    files = {**HANDBOOK, "policies/passwords.md": "Passwords are rotated every 90 days."}
    spec = load_agent(make_agent(two, files=files))
    knowledge = LLMKnowledge(spec, make_client(make_settings(server)), None, documents=DocumentIndex(spec))
    script.add("knowledge", "search(policies, 'password rotation')", "Every 90 days [1].", {"status": 500})
    result = knowledge.query(ask("how often do passwords change?"))
    assert "Tables:" not in script.prompt("knowledge", 0) and "- policies: security policies" in \
        script.prompt("knowledge", 0)
    assert result.result == [{"answer": "Every 90 days [1].", "sources": ["[1] passwords.md §1"]}]
    assert "unavailable" in knowledge.query(ask("anything")).result["error"]


@pytest.mark.postgres
def test_queries_run_on_a_postgresql_knowledge_database(server, script, restaurant_spec, postgres_url):
    """The same SQL on the tables imported into PostgreSQL: rows, what was looked for, a timeout; answer()
    needs SQLite's functions, so the LLM is asked again with the reason."""
    from genie_bot.knowledge import KnowledgeDatabase
    from genie_bot.knowledge.sql import QueryTimeout, run_select, validate_select
    from tests.knowledge.conftest import closing, postgres_schema

    with postgres_schema(postgres_url) as url, closing(KnowledgeDatabase(url)) as database:
        store = KnowledgeStore(restaurant_spec, database)
        knowledge = LLMKnowledge(restaurant_spec, make_client(make_settings(server)), store, today=lambda: TODAY)
        script.add("knowledge", f"```sql\n{THAI_SEATTLE}\n```")
        result = knowledge.query(ask("thai places in seattle"))
        ratings = [r["rating"] for r in result.result]
        assert result.query == THAI_SEATTLE + " LIMIT 20" and {r["cuisine"] for r in result.result} == {"Thai"}
        assert ratings == sorted(ratings, reverse=True) and len(ratings) == 5
        assert result.searched.conditions == (("city", "Seattle"), ("cuisine", "Thai"))

        kids = "SELECT name FROM restaurants WHERE review LIKE '%KIDS%'"  # SQLite's LIKE, which ignores case
        script.add("knowledge", "SELECT name FROM restaurants WHERE answer(review, 'good for kids?') = 'Yes'", kids)
        result = knowledge.query(ask("good for kids"))
        assert "answer() is not available with this knowledge database" in \
            script.requests["knowledge"][-1]["messages"][-1]["content"]
        assert result.query == kids + " LIMIT 20" and len(result.result) == 20

        slow = validate_select("SELECT COUNT(*) FROM restaurants a, restaurants b, restaurants c, restaurants d",
                               ["restaurants"], 5).stored_in(store.physical_names(), "postgresql")
        with pytest.raises(QueryTimeout):
            run_select(store.engine, slow, 0.2)
