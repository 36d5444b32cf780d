"""A large table: every record named in messages through the name index, exactly; searches ranked in bounds.

The large table is the restaurant agent's scaled to 30,000 rows (tests/benchmarks/scaled_restaurants:
well past the 20,000 names the index once stopped at), with namesakes of the middle row added at
the end; each test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import pytest

from genie_bot.knowledge import KnowledgeDatabase, KnowledgeStore
from genie_bot.knowledge.mentions import Mention
from genie_bot.parsers import RuleParser
from genie_bot.runtime import LocalApiExecutor, Runtime
from genie_bot.spec import load_agent
from tests.benchmarks.scaled_restaurants import names_at, scaled_agent

from .conftest import closing, postgres_schema

ROWS = 30_000
TODAY = dt.date(2026, 11, 21)
WHERE = {"first": 0, "second": 1, "middle": ROWS // 2, "last but one": ROWS - 2, "last": ROWS - 1}


@pytest.fixture(scope="module")
def large_agent(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 30,000-row agent, with two namesakes of the middle row appended: a longer name it
    starts, and a name one letter away."""
    directory = scaled_agent(ROWS, tmp_path_factory.mktemp("large") / "restaurants")
    (_, middle), = names_at(directory, [WHERE["middle"]])
    table = directory / "data" / "restaurants.csv"
    with table.open(newline="", encoding="utf-8") as fh:
        last = list(csv.DictReader(fh))[-1]
    with table.open("a", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(last))
        for offset, name in enumerate((f"{middle} Express", _one_letter_changed(middle)), 1):
            writer.writerow({**last, "id": str(int(last["id"]) + offset), "name": name})
    return directory


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, large_agent: Path, tmp_path_factory: pytest.TempPathFactory):
    """The large table imported once per module into a SQLite file, or a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('names') / 'knowledge.sqlite3'}"
        with closing(KnowledgeDatabase(url)) as database:
            yield KnowledgeStore(load_agent(large_agent), database)
        return
    with postgres_schema(request.getfixturevalue("postgres_url")) as url, closing(KnowledgeDatabase(url)) as database:
        yield KnowledgeStore(load_agent(large_agent), database)


def _one_letter_changed(name: str) -> str:
    words = name.split()
    words[1] = words[1][:-1] + ("x" if words[1][-1] != "x" else "y")
    return " ".join(words)


def named(store: KnowledgeStore, text: str) -> list[tuple[int, float, str]]:
    mentions: list[Mention] = store.record_names(next(iter(store.tables))).find(text)
    return [(m.record["id"], m.score, text[m.start:m.end]) for m in mentions]


def rows(agent: Path) -> dict[str, tuple[int, str]]:
    return dict(zip(WHERE, names_at(agent, list(WHERE.values()))))


@pytest.mark.parametrize("where", WHERE)
def test_every_row_is_named_by_its_exact_name(store, large_agent, where):
    row_id, name = rows(large_agent)[where]
    assert named(store, f"book a table at {name} for 4 tomorrow") == [(row_id, 100.0, name)]
    assert named(store, f"what about {name.lower()}?") == [(row_id, 100.0, name.lower())]


@pytest.mark.parametrize("where", ["middle", "last"])
def test_a_row_is_named_with_a_typo_in_its_name(store, large_agent, where):
    row_id, name = rows(large_agent)[where]
    words = name.split()
    longest = max(range(len(words)), key=lambda i: len(words[i]))
    word = words[longest]
    typos = {"swapped": word[:1] + word[2] + word[1] + word[3:], "missing": word[:2] + word[3:],
             "doubled": word[:2] + word[2] + word[2:]}
    for kind, typo in typos.items():
        said = " ".join([*words[:longest], typo, *words[longest + 1:]])
        (found,) = named(store, f"a table at {said} please")
        assert found[0] == row_id and found[1] < 100, (kind, said, found)


def test_an_exact_name_wins_over_its_namesakes(store, large_agent):
    middle_id, middle = rows(large_agent)["middle"]
    express, near = f"{middle} Express", _one_letter_changed(middle)
    (by_name,) = named(store, f"book {middle} for two")
    assert by_name[:2] == (middle_id, 100.0)
    (longer,) = named(store, f"book {express} for two")
    assert longer[1] == 100.0 and longer[0] == ROWS + 1 and longer[2] == express
    (one_letter,) = named(store, f"book {near} for two")
    assert one_letter[1] == 100.0 and one_letter[0] == ROWS + 2


@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_a_booking_naming_any_row_books_that_row(store, large_agent, where):
    spec = store.spec
    row_id, name = rows(large_agent)[where]
    state = Runtime(spec, LocalApiExecutor(spec)).new_state()
    statements = RuleParser(store).parse(spec, state, f"book a table at {name} for 4 people tomorrow at 7pm",
                                         TODAY).statements
    assert f"restaurant={{'id': {row_id}, 'name': {name!r}" in statements, statements


def test_names_as_written_win_over_names_read_without_the(make_agent, database):
    """'salt tavern' is the row called Salt Tavern, though The Salt Tavern comes first; names of
    more than six words are found whole."""
    spec = load_agent(make_agent("""
        name: places
        knowledge:
          - name: places
            csv: data/places.csv
            primary_key: id
        """, files={"data/places.csv": "id,name\n1,The Salt Tavern\n2,Salt Tavern\n"
                                        "3,The Very Long Name Of A Small Cafe On The Corner\n"}))
    store = KnowledgeStore(spec, database)
    assert named(store, "the salt tavern") == [(1, 100.0, "the salt tavern")]
    assert named(store, "salt tavern") == [(2, 100.0, "salt tavern")]
    long_name = "the very long name of a small cafe on the corner"
    assert named(store, f"is {long_name} open?") == [(3, 100.0, long_name)]


def test_a_search_describing_rows_finds_those_that_use_its_words_first(store):
    from genie_bot.knowledge import KeywordQuery
    from genie_bot.state import KnowledgeAnswer

    result = KeywordQuery(store).query(KnowledgeAnswer("any quiet places in palo alto?"))
    assert result.searched.conditions == (("city", "Palo Alto"),)
    assert len(result.result) == 10 and {r["city"] for r in result.result} == {"Palo Alto"}
    assert all("quiet" in r["review"].lower() and "not quiet" not in r["review"].lower() for r in result.result)
