"""The SQL validator: one read-only SELECT over declared tables, with a bounded LIMIT; guarded execution."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import text

from genie_bot.knowledge import KnowledgeStore
from genie_bot.knowledge.sql import (MAX_QUERY_CHARS, QueryBudget, QueryTimeout, SafeQuery, UnsafeQuery, run_select,
                                     validate_select)

TABLES = ["restaurants"]


@pytest.mark.parametrize("sql, reason", [
    ("DROP TABLE restaurants", "only SELECT"),
    ("DELETE FROM restaurants", "only SELECT"),
    ("UPDATE restaurants SET rating = 5", "only SELECT"),
    ("INSERT INTO restaurants (id) VALUES (1)", "only SELECT"),
    ("CREATE TABLE x (a INT)", "only SELECT"),
    ("SELECT * INTO copy FROM restaurants", "INTO"),
    ("SELECT * FROM restaurants; DROP TABLE restaurants", "exactly one statement"),
    ("SELECT 1; SELECT 2", "exactly one statement"),
    ("PRAGMA table_info(restaurants)", "only SELECT"),
    ("ATTACH DATABASE '/tmp/evil.db' AS evil", "only SELECT"),
    ("SELECT * FROM restaurants -- AND price = 'cheap'", "comments"),
    ("SELECT * FROM restaurants /* hidden */ WHERE 1 = 1", "comments"),
    ("SELECT name FROM restaurants UNION SELECT sql FROM sqlite_master", "UNION"),
    ("SELECT name FROM restaurants UNION ALL SELECT name FROM restaurants", "UNION"),
    ("SELECT * FROM sqlite_master", "unknown table 'sqlite_master'"),
    ("SELECT * FROM restaurants JOIN sqlite_schema ON 1 = 1", "unknown table 'sqlite_schema'"),
    ("SELECT name, (SELECT group_concat(sql) FROM sqlite_master) FROM restaurants", "unknown table"),
    ("SELECT * FROM (SELECT * FROM sqlite_temp_master)", "unknown table"),
    ("SELECT * FROM main.restaurants", "qualified table names"),
    ("SELECT * FROM evil.restaurants", "qualified table names"),
    ("SELECT * FROM pragma_table_info('restaurants')", "unknown table"),
    ("SELECT * FROM users", "unknown table 'users'"),
    ("SELECT load_extension('/tmp/evil.so')", "load_extension is not allowed"),
    ("SELECT readfile('/etc/passwd')", "readfile is not allowed"),
    ("SELECT randomblob(1000000000)", "randomblob is not allowed"),
    ("VACUUM", "only SELECT"),
    ("", "exactly one statement"),
])
def test_unsafe_queries_are_rejected_with_a_reason(sql, reason):
    with pytest.raises(UnsafeQuery, match=reason):
        validate_select(sql, TABLES, 20)


@pytest.mark.parametrize("sql, expected", [
    ("SELECT * FROM restaurants WHERE city = 'Seattle'", "SELECT * FROM restaurants WHERE city = 'Seattle' LIMIT 20"),
    ("select * from Restaurants limit 500", "SELECT * FROM Restaurants LIMIT 20"),
    ("SELECT * FROM restaurants LIMIT 3", "SELECT * FROM restaurants LIMIT 3"),
    ("SELECT COUNT(*) FROM restaurants;", "SELECT COUNT(*) FROM restaurants LIMIT 20"),
    ("WITH top AS (SELECT * FROM restaurants WHERE rating > 4.5) SELECT name FROM top",
     "WITH top AS (SELECT * FROM restaurants WHERE rating > 4.5) SELECT name FROM top LIMIT 20"),
    ("SELECT * FROM restaurants WHERE name = 'a -- b; DROP TABLE x'",
     "SELECT * FROM restaurants WHERE name = 'a -- b; DROP TABLE x' LIMIT 20"),
])
def test_safe_queries_pass_with_a_bounded_limit(sql, expected):
    assert validate_select(sql, TABLES, 20).sql == expected


def test_free_text_predicate_is_allowed_and_noticed():
    query = validate_select("SELECT name FROM restaurants WHERE answer(review, 'kids?') = 'Yes'", TABLES, 20)
    assert query.uses_free_text and query.tables == frozenset({"restaurants"})
    assert not validate_select("SELECT name FROM restaurants", TABLES, 20).uses_free_text


@pytest.fixture(scope="module")
def store(restaurant_spec) -> KnowledgeStore:
    return KnowledgeStore(restaurant_spec)


def stored(store: KnowledgeStore, sql: str, limit: int) -> SafeQuery:
    """``sql`` validated to run on the store: reading the tables where the knowledge database keeps them."""
    return validate_select(sql, TABLES, limit).stored_in(store.physical_names(), "sqlite")


def test_a_query_reads_the_stored_tables_under_their_declared_names(store):
    query = stored(store, "SELECT r.name FROM restaurants r JOIN restaurants ON restaurants.id = r.id WHERE r.id = 1", 5)
    assert query.sql == "SELECT r.name FROM restaurants AS r JOIN restaurants ON restaurants.id = r.id WHERE r.id = 1 LIMIT 5"
    view = store.physical_names()["restaurants"]
    assert query.executed == (f"SELECT r.name FROM {view} AS r JOIN {view} AS restaurants ON restaurants.id = r.id "
                              "WHERE r.id = 1 LIMIT 5")
    assert run_select(store.engine, query, 1.0) == [{"name": "The Oak Spoon"}]
    assert query.searched.tables == ("restaurants",) and query.searched.conditions == (("id", "1"),)


def test_execution_returns_rows_and_a_long_query_times_out(store):
    rows = run_select(store.engine, stored(store, "SELECT name FROM restaurants WHERE id = 1", 5), 1.0)
    assert rows == [{"name": "The Oak Spoon"}]
    slow = stored(store, "SELECT COUNT(*) FROM restaurants a, restaurants b, restaurants c, restaurants d", 5)
    with pytest.raises(QueryTimeout):
        run_select(store.engine, slow, 0.2)
    assert run_select(store.engine, stored(store, "SELECT COUNT(*) AS n FROM restaurants", 5), 1.0) == \
        [{"n": 300}]  # the connection is usable again, without the handler


def test_the_queries_of_one_question_share_one_time_budget(store):
    budget = QueryBudget(0.2)
    slow = stored(store, "SELECT COUNT(*) FROM restaurants a, restaurants b, restaurants c, restaurants d", 5)
    with pytest.raises(QueryTimeout):
        run_select(store.engine, slow, budget)
    with pytest.raises(QueryTimeout, match="the queries of this question took longer than 0.2 s"):
        run_select(store.engine, stored(store, "SELECT 1 AS x FROM restaurants", 5), budget)
    assert budget.left <= 0


def test_a_query_longer_than_the_bound_is_refused_before_it_is_parsed():
    huge = "SELECT printf('" + "%d" * 60_000 + "', 1) AS x FROM restaurants"
    with pytest.raises(UnsafeQuery, match=f"the query is too long \\({len(huge)} characters, at most {MAX_QUERY_CHARS}\\)"):
        validate_select(huge, TABLES, 20)


def test_time_in_user_functions_does_not_count_against_the_timeout(store):
    def slow_function(review, question):
        time.sleep(0.4)
        return "Yes"

    query = stored(store, "SELECT id FROM restaurants WHERE id <= 3 AND answer(review, 'q') = 'Yes'", 10)
    rows = run_select(store.engine, query, 1.0, {"answer": (2, slow_function)})  # 1.2 s in the function
    assert [r["id"] for r in rows] == [1, 2, 3]
    view = store.physical_names()["restaurants"]
    with store.engine.connect() as conn, pytest.raises(Exception, match="no such function|function raised"):
        conn.execute(text(f"SELECT answer(review, 'q') FROM {view}"))  # unusable after the query


def test_the_store_is_unchanged_by_rejected_queries(store):
    for attack in ("DROP TABLE restaurants", "DELETE FROM restaurants", "SELECT 1; DELETE FROM restaurants"):
        with pytest.raises(UnsafeQuery):
            validate_select(attack, TABLES, 5)
    with store.engine.connect() as conn:
        assert conn.execute(text(f"SELECT COUNT(*) FROM {store.physical_names()['restaurants']}")).scalar() == 300
        with pytest.raises(Exception, match="readonly|read-only|query_only"):  # nor could they change it
            conn.execute(text(f"DELETE FROM {store.imported['restaurants'].physical}"))


@pytest.mark.parametrize("sql, reason", [
    ("SELECT printf('%.*c', 500000000, 'x') FROM restaurants", "'\\*' widths"),
    ("SELECT printf('%500000000c', 'x') FROM restaurants", "at most 100"),
    ("SELECT format('%.999999d', 1) FROM restaurants", "at most 100"),
    ("SELECT printf(name, 1) FROM restaurants", "literal format"),
    ("SELECT replace(name, 'a', name) FROM restaurants", "replace is not allowed"),
    ("SELECT zeroblob(500000000) FROM restaurants", "zeroblob is not allowed"),
    ("SELECT hex(hex(hex(name))) FROM restaurants", "hex is not allowed"),
    ("SELECT lpad(name, 500000000) FROM restaurants", "not allowed"),
    ("SELECT json_group_array(name) FROM restaurants", "not allowed"),
    ("SELECT " + "(" * 2000 + "1" + ")" * 2000 + " FROM restaurants", "nested too deeply"),
    ("SELECT * FROM restaurants WHERE id IN " + "(SELECT id FROM restaurants WHERE id IN " * 70 + "(1)" + ")" * 70,
     "nested too deeply"),
])
def test_amplifying_functions_and_deep_nesting_are_refused_with_a_reason(sql, reason):
    with pytest.raises(UnsafeQuery, match=reason):
        validate_select(sql, TABLES, 20)


def test_ordinary_functions_stay_allowed():
    sql = ("SELECT upper(name), lower(cuisine), substr(name, 1, 3), printf('%d stars', rating), count(*), "
           "round(avg(rating), 1), group_concat(name) FROM restaurants WHERE lower(city) LIKE '%sea%' GROUP BY 1")
    assert validate_select(sql, TABLES, 20).sql.endswith("LIMIT 20")


def test_a_value_larger_than_the_bound_is_never_made_even_past_the_validator(store):
    """The bound below the validator: SQLite will not make a string over MAX_VALUE_BYTES."""
    from genie_bot.knowledge.sql import MAX_VALUE_BYTES, SafeQuery

    unchecked = SafeQuery(f"SELECT printf('%.*c', {MAX_VALUE_BYTES * 5}, 'x') AS big", frozenset(), False)
    assert run_select(store.engine, unchecked, 60.0) == [{"big": None}]
    assert run_select(store.engine, stored(store, "SELECT COUNT(*) AS n FROM restaurants", 5), 1.0) == [{"n": 300}]


def test_a_result_larger_than_the_bound_is_refused_while_it_is_read(store):
    from genie_bot.knowledge.sql import MAX_RESULT_BYTES, ResultTooLarge, SafeQuery

    per_row = MAX_RESULT_BYTES // 100  # 300 rows of this are three times the bound
    view = store.physical_names()["restaurants"]
    wide = SafeQuery(f"SELECT printf('%.{per_row}c', 'x') AS padding FROM {view}", frozenset(), False)
    with pytest.raises(ResultTooLarge, match="fewer rows or columns"):
        run_select(store.engine, wide, 60.0)
