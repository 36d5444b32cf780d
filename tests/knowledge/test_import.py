"""Importing CSV tables into the knowledge database: once per content, typed, all or nothing, read-only after."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from sqlalchemy import event, text

from genie_bot.knowledge import KnowledgeDatabase, KnowledgeStore
from genie_bot.knowledge.importer import TableInvalid, TableSource, ensure_imported, load_tables
from genie_bot.knowledge.mentions import MAX_NAME_WORDS
from genie_bot.spec import load_agent

AGENT = """
name: shop
knowledge:
  - name: products
    csv: data/products.csv
    primary_key: sku
    columns:
      sku: {{type: str}}
      name: {{type: str}}
      price: {{type: {price_type}}}
      colour: {{type: str}}
      stock: {{}}
      notes: {{type: str, free_text: true}}
"""
ROWS = """sku,name,price,colour,stock,notes
A-1,Red Kettle,19.5,red,3,"Boils fast, whistles."
A-2,Blue Kettle,21,blue,,
A-3,The Oak Table,250,brown,1,Solid oak.
"""


def shop(make_agent, rows: str = ROWS, price_type: str = "float"):
    return load_agent(make_agent(AGENT.format(price_type=price_type), files={"data/products.csv": rows}))


def physical_tables(database: KnowledgeDatabase) -> set[str]:
    with database.writer.connect() as conn:
        if database.dialect == "sqlite":
            rows = conn.execute(text("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"))
        else:
            rows = conn.execute(text("SELECT table_name FROM information_schema.tables "
                                     "WHERE table_schema = current_schema()"))
        return {r[0] for r in rows}


def test_a_table_is_imported_once_typed_and_read_back_as_declared(make_agent, database):
    spec = shop(make_agent)
    (first,) = load_tables(database, spec)
    assert first.imported and first.table.rows == 3
    assert dict(first.table.columns) == {"sku": "str", "name": "str", "price": "float", "colour": "str",
                                         "stock": "int", "notes": "str"}  # stock inferred: every value an int
    (again,) = load_tables(database, spec)
    assert not again.imported and again.table == first.table  # the same content: nothing to do
    store = KnowledgeStore(spec, database)
    assert store.tables["products"].name == "products"
    assert store.rows("products", where={"name": "blue kettle"}) == [
        {"sku": "A-2", "name": "Blue Kettle", "price": 21.0, "colour": "blue", "stock": None, "notes": None}]
    assert store.column_values("products").columns == {"colour": ["brown", "blue", "red"]}  # longest first


def test_a_changed_csv_is_a_new_table_beside_the_old_one(make_agent, database):
    old = shop(make_agent)
    (before,) = load_tables(database, old)
    new = shop(make_agent, ROWS + "A-4,Green Kettle,22,green,5,\n")
    (after,) = load_tables(database, new)
    assert after.imported and after.table.physical != before.table.physical and after.table.rows == 4
    assert {before.table.physical, after.table.physical} <= physical_tables(database)  # processes still on the old
    assert KnowledgeStore(old, database).rows("products", limit=10)[-1]["sku"] == "A-3"
    assert KnowledgeStore(new, database).rows("products", limit=10)[-1]["sku"] == "A-4"


def test_a_changed_declaration_is_a_new_table_too(make_agent):
    digests = {TableSource.of(shop(make_agent, price_type=t).knowledge["products"]).digest for t in ("float", "str")}
    assert len(digests) == 2


@pytest.mark.parametrize("rows, said", [
    (ROWS.replace("19.5", "cheap"), "products.csv:2: column price holds 'cheap', not a float"),
    (ROWS.replace("A-2,Blue Kettle,21,blue,,", "A-2,Blue Kettle,21,blue,,,extra"),
     "products.csv:3: 7 values for 6 columns"),
])
def test_a_bad_table_is_an_error_naming_the_place_and_nothing_is_imported(make_agent, database, rows, said):
    spec = shop(make_agent, rows)
    with pytest.raises(TableInvalid, match=said.replace(".", r"\.")):
        load_tables(database, spec)
    assert database.catalogue() == []
    assert not {t for t in physical_tables(database) if t.startswith("k_")}


def test_the_row_number_column_is_reserved(make_agent, database):
    spec = load_agent(make_agent("name: shop\nknowledge:\n  - name: products\n    csv: data/products.csv\n",
                                 files={"data/products.csv": "_genie_row,name\n1,Kettle\n"}))
    with pytest.raises(TableInvalid, match=r"products\.csv:1: the column name _genie_row is reserved"):
        load_tables(database, spec)


def test_a_name_too_long_to_be_found_is_an_error_not_a_silent_cut(make_agent, database):
    long_name = " ".join(["word"] * (MAX_NAME_WORDS + 1))
    spec = shop(make_agent, ROWS + f"A-9,{long_name},1,red,1,\n")
    with pytest.raises(TableInvalid, match=f"products.csv:5: the name .* has {MAX_NAME_WORDS + 1} words"):
        load_tables(database, spec)


def test_a_table_declared_without_a_csv_is_empty_with_its_columns(make_agent, database):
    spec = load_agent(make_agent("""
        name: shop
        knowledge:
          - name: orders
            columns:
              id: {type: int}
              customer: {type: str}
        """))
    store = KnowledgeStore(spec, database)
    assert store.rows("orders") == [] and list(store.tables["orders"].c.keys()) == ["id", "customer"]


def test_opening_a_store_reads_the_catalogue_not_the_table(make_agent, database):
    spec = shop(make_agent)
    load_tables(database, spec)
    statements: list[str] = []
    event.listen(database.reader, "before_cursor_execute", lambda *a: statements.append(a[2]))
    store = KnowledgeStore(spec, database)
    store.column_values("products")
    store.distinct_values("products", "colour", 8)
    assert statements and all("genie_knowledge_tables" in s for s in statements), statements


def test_processes_cannot_write_through_the_store(make_agent, database):
    store = KnowledgeStore(shop(make_agent), database)
    with store.engine.connect() as conn:
        with pytest.raises(Exception, match="readonly|read-only|read only"):
            conn.execute(text(f"DELETE FROM {store.imported['products'].physical}"))


def test_processes_importing_the_same_table_at_once_import_it_once(make_agent, knowledge_url):
    spec = shop(make_agent)
    (source,) = [TableSource.of(kb) for kb in spec.knowledge.values()]
    databases = [KnowledgeDatabase(knowledge_url) for _ in range(3)]  # as three processes would have
    barrier = threading.Barrier(len(databases))
    outcomes = []

    def start(database: KnowledgeDatabase) -> None:
        barrier.wait()
        outcomes.append(ensure_imported(database, source))

    threads = [threading.Thread(target=start, args=(d,)) for d in databases]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(o.imported for o in outcomes) == [False, False, True]
    assert len({o.table.physical for o in outcomes}) == 1 and outcomes[0].table == outcomes[2].table
    for database in databases:
        database.dispose()


def test_the_default_database_is_a_file_in_the_data_directory(make_agent, tmp_path: Path, monkeypatch):
    from genie_bot.knowledge.database import KNOWLEDGE_URL_ENV, default_url

    monkeypatch.delenv(KNOWLEDGE_URL_ENV)
    monkeypatch.setenv("GENIE_DATA_DIR", str(tmp_path / "data"))
    assert default_url() == f"sqlite:///{tmp_path / 'data' / 'knowledge.sqlite3'}"
    with pytest.raises(ValueError, match="not an in-memory database"):
        KnowledgeDatabase("sqlite://")


def test_names_and_short_texts_have_trigram_indexes_that_like_queries_read(make_agent, database):
    """On SQLite an LLM's ``LIKE '%...%'`` on them reads the FTS5 trigram table (the same rows as a
    scan); on PostgreSQL, ILIKE reads the pg_trgm GIN indexes by itself."""
    from genie_bot.knowledge.sql import run_select, validate_select

    store = KnowledgeStore(shop(make_agent, ROWS + "A-4,Kettle Descaler,4,white,9,\n"), database)
    assert store.imported["products"].trigram == ("sku", "name")  # not colour (categorical) nor notes (free text)
    query = validate_select("SELECT p.sku FROM products p WHERE p.name LIKE '%KETTLE%' AND name NOT LIKE '%scaler' "
                            "AND sku NOT LIKE '%-2' ORDER BY sku", ["products"], 10)
    stored = query.stored_in(store.physical_names(), database.dialect, store.trigram_tables())
    assert stored.executed.count("_trigram") == (database.dialect == "sqlite")  # NOT LIKE reads no index
    assert run_select(store.engine, stored, 1.0) == [{"sku": "A-1"}]
    everything = query.stored_in(store.physical_names(), database.dialect)
    assert run_select(store.engine, everything, 1.0) == [{"sku": "A-1"}]


@pytest.mark.postgres
def test_a_read_only_role_is_granted_what_each_import_makes(make_agent, postgres_url):
    """knowledge.read_url names a role that may only read: every import grants it SELECT, and a
    process connected as that role reads the tables and cannot write them."""
    import uuid

    from sqlalchemy import create_engine

    from .conftest import closing, postgres_schema

    role = f"genie_reader_{uuid.uuid4().hex[:8]}"
    admin = create_engine(postgres_url.replace("postgresql://", "postgresql+psycopg://", 1))
    with admin.begin() as conn:
        conn.execute(text(f"CREATE ROLE {role} LOGIN"))
    try:
        with postgres_schema(postgres_url) as url:
            host = url.split("@", 1)[1]
            with closing(KnowledgeDatabase(url, read_url=f"postgresql+psycopg://{role}@{host}")) as database:
                store = KnowledgeStore(shop(make_agent), database)
                assert store.rows("products", where={"sku": "A-1"})[0]["name"] == "Red Kettle"
                with store.engine.connect() as conn:
                    assert conn.exec_driver_sql("SELECT current_user").scalar() == role
                    with pytest.raises(Exception, match="permission denied|read-only"):
                        conn.execute(text(f"DELETE FROM {store.imported['products'].physical}"))
    finally:
        with admin.begin() as conn:
            conn.execute(text(f"DROP OWNED BY {role}"))
            conn.execute(text(f"DROP ROLE {role}"))
        admin.dispose()
