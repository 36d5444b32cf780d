"""Knowledge tables that already live in a database (``database: URL``): read there, read-only, with their
names indexed in the knowledge database."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from genie_bot.knowledge import KeywordQuery, KnowledgeStore
from genie_bot.knowledge.importer import TableInvalid, load_tables
from genie_bot.knowledge.sql import run_select, validate_select
from genie_bot.spec import load_agent
from genie_bot.state import KnowledgeAnswer

from .conftest import postgres_schema

AGENT = """
name: shop
knowledge:
  - name: products
    database: ${{SHOP_DATABASE}}
    table: {table}
    primary_key: {key}
    columns:
      name: the product's name
      colour: its colour
  - name: notes
    csv: data/notes.csv
"""
ROWS = [("A-1", "Red Kettle", "red", 19.5), ("A-2", "Blue Kettle", "blue", 21.0), ("A-3", "The Oak Table", "brown", 250.0)]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def shop_database(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Another database holding a ``catalogue`` table, its URL in SHOP_DATABASE."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'shop.sqlite3'}"
        yield from _filled(url, monkeypatch)
        return
    with postgres_schema(request.getfixturevalue("postgres_url")) as url:
        yield from _filled(url, monkeypatch)


def _filled(url: str, monkeypatch: pytest.MonkeyPatch):
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE catalogue (sku VARCHAR(10) PRIMARY KEY, name TEXT, colour TEXT, "
                          "price NUMERIC(8, 2))"))
        conn.execute(text("INSERT INTO catalogue VALUES (:sku, :name, :colour, :price)"),
                     [dict(zip(("sku", "name", "colour", "price"), r)) for r in ROWS])
    monkeypatch.setenv("SHOP_DATABASE", url)
    yield engine
    engine.dispose()


def shop(make_agent, table: str = "catalogue", key: str = "sku"):
    return load_agent(make_agent(AGENT.format(table=table, key=key), files={"data/notes.csv": "topic\nreturns\n"}))


def test_a_table_in_a_database_is_read_there_and_named_through_the_index(make_agent, database, shop_database):
    spec = shop(make_agent)
    store = KnowledgeStore(spec, database)
    assert store.rows("products", where={"name": "blue kettle"}) == [
        {"sku": "A-2", "name": "Blue Kettle", "colour": "blue", "price": 21.0}]
    (kettle,) = store.record_names("products").find("the blue kettel please")  # a typo, found through the index
    assert kettle.record == {"sku": "A-2", "name": "Blue Kettle", "colour": "blue", "price": 21.0}
    assert store.column_values("products").columns["colour"] == ["brown", "blue", "red"]

    result = KeywordQuery(store).query(KnowledgeAnswer("anything red?", table="products"))
    assert "FROM catalogue" in result.query and [r["sku"] for r in result.result] == ["A-1"]

    query = validate_select("SELECT name FROM catalogue WHERE price > 20 ORDER BY price", ["catalogue", "notes"], 5)
    engine = store.engine_for_tables(query.tables)
    rows = run_select(engine, query.stored_in(store.physical_names(), engine.dialect.name), 1.0)
    assert rows == [{"name": "Blue Kettle"}, {"name": "The Oak Table"}]
    assert store.engine_for_tables({"catalogue", "notes"}) is None  # two databases: no query joins them
    with engine.connect() as conn, pytest.raises(Exception, match="readonly|read-only|read only"):
        conn.execute(text("DELETE FROM catalogue"))


def test_loading_indexes_the_names_again(make_agent, database, shop_database):
    spec = shop(make_agent)
    before = KnowledgeStore(spec, database).record_names("products").find("a green kettle")
    assert "A-4" not in [m.record["sku"] for m in before]  # at most the kettles "kettle" names
    with shop_database.begin() as conn:
        conn.execute(text("INSERT INTO catalogue VALUES ('A-4', 'Green Kettle', 'green', 22)"))
    outcomes = {o.worksheet: o for o in load_tables(database, spec)}
    assert outcomes["products"].imported and not outcomes["notes"].imported  # the CSV did not change
    assert outcomes["products"].describe().startswith("products: 4 rows, names indexed in ")
    (green,) = KnowledgeStore(spec, database).record_names("products").find("a green kettle")
    assert green.record["sku"] == "A-4"


@pytest.mark.parametrize("table, key, said", [
    ("nowhere", "sku", "products: there is no table nowhere in "),
    ("catalogue", "", "products: a table read in a database needs primary_key to name its records"),
])
def test_a_table_that_cannot_be_read_there_is_an_error_saying_why(make_agent, database, shop_database, table, key,
                                                                  said):
    spec = shop(make_agent, table, key or "null")
    with pytest.raises(TableInvalid, match=said):
        KnowledgeStore(spec, database)


def test_the_url_comes_from_the_environment(make_agent, database, monkeypatch):
    monkeypatch.delenv("SHOP_DATABASE", raising=False)
    with pytest.raises(TableInvalid, match=r"the database URL \$\{SHOP_DATABASE\} names \$\{SHOP_DATABASE\}, which is "
                                           r"not set"):
        KnowledgeStore(shop(make_agent), database)


def test_a_table_comes_from_a_csv_or_a_database_not_both(make_agent):
    from genie_bot.spec import check_agent

    directory = make_agent("""
        name: shop
        knowledge:
          - name: products
            csv: data/products.csv
            database: sqlite:///shop.sqlite3
          - name: orders
            database: 42
        """, files={"data/products.csv": "name\nKettle\n"})
    _, problems = check_agent(directory)
    assert [str(p).split(": ", 1)[1] for p in problems] == [
        "a table comes from a csv file or lives in a database, not both",
        "database must be the URL of the database that holds the table, e.g. postgresql://reader@db/catalogue or "
        "${CATALOGUE_URL}"]
