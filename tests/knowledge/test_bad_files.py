"""Imports that succeed whole or fail with file:line, by the same rules on SQLite and PostgreSQL:
encodings (UTF-8 with or without a BOM), empty files, NUL bytes, headers, duplicate and missing
keys, over-long names and values, a file edited while it is imported; the same clear error from
``validate``, ``knowledge load`` and ``/genie reload``, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import event

from genie_bot.cli import main
from genie_bot.knowledge import KnowledgeStore
from genie_bot.knowledge import importer
from genie_bot.knowledge.importer import MAX_NAME_CHARS, TableInvalid, load_tables
from genie_bot.spec import load_agent
from genie_bot.spec.csv_file import MAX_COLUMN_NAME_BYTES
from tests.engine.conftest import pg_url, store_url  # noqa: F401 - the engine's database, SQLite and PostgreSQL
from tests.engine.support import SHOP_YAML, make_engine, run, write_shop

from .test_import import AGENT, ROWS, physical_tables

HEADER = ROWS.splitlines()[0]


def agent_with(make_agent, data: bytes) -> Path:
    """The shop agent of test_import with ``data`` as its products.csv, byte for byte."""
    directory = make_agent(AGENT.format(price_type="float"), files={"data/products.csv": "sku\n"})
    (directory / "data" / "products.csv").write_bytes(data)
    return directory


UNREADABLE = [
    pytest.param(ROWS.replace("Solid oak.", "Solid oak; café.").encode("latin-1"),
                 "products.csv:4:45: not UTF-8 (byte 0xe9): save the file as UTF-8", id="latin-1"),
    pytest.param(ROWS.encode("utf-16"), "products.csv:1:1: not UTF-8 (byte 0xff)", id="utf-16"),
    pytest.param(ROWS.replace("Solid oak.", "Solid\0oak.").encode(), "products.csv:4:36: a NUL character: text files hold none",
                 id="NUL"),
    pytest.param(b"", "products.csv:1:1: the file is empty: a table needs a header line naming its columns", id="empty"),
    pytest.param(b"\n\n", "products.csv:1:1: the file is empty", id="blank lines"),
    pytest.param(ROWS.replace("colour", "name", 1).encode(), "products.csv:1:1: two columns are named 'name'",
                 id="a column twice"),
    pytest.param(ROWS.replace(",colour,", ",,", 1).encode(), "products.csv:1:1: column 4 has no name", id="no name"),
    pytest.param(ROWS.replace("stock", "s" * (MAX_COLUMN_NAME_BYTES + 1), 1).encode(),
                 f"products.csv:1:1: the name of column 5 ('ssssssssssssssssssssssssssssss'…) is longer than "
                 f"{MAX_COLUMN_NAME_BYTES} bytes", id="a long column name"),
]


@pytest.mark.parametrize("data, said", UNREADABLE)
def test_validate_and_knowledge_load_say_what_a_csv_cannot_be_read_as(make_agent, tmp_path, capsys, data, said):
    directory = agent_with(make_agent, data)
    assert main(["validate", str(directory)]) == 1
    validated = capsys.readouterr()
    assert main(["knowledge", "load", str(directory), "--database", f"sqlite:///{tmp_path / 'k.sqlite3'}"]) == 1
    loaded = capsys.readouterr()
    for output in (validated, loaded):
        assert said in output.out + output.err and "Traceback" not in output.out + output.err


@pytest.mark.parametrize("bom", ["\ufeff", ""])
def test_utf8_with_or_without_a_byte_order_mark_is_the_same_table(make_agent, database, bom):
    spec = load_agent(agent_with(make_agent, (bom + ROWS).encode()))
    store = KnowledgeStore(spec, database)
    assert [c for c, _ in store.imported["products"].columns][0] == "sku"
    assert store.rows("products", where={"sku": "A-1"})[0]["name"] == "Red Kettle"


@pytest.mark.parametrize("rows, said", [
    (ROWS + "A-2,Second Blue Kettle,22,blue,1,\n", "products.csv:5: the primary key sku is 'A-2' again (as on line 3)"),
    (ROWS + ",Keyless Kettle,22,blue,1,\n", "products.csv:5: no value for the primary key sku"),
    (ROWS + f"A-9,{'Long' * 750},1,red,1,\n", f"products.csv:5: the name 'LongLongLong"),
])
def test_a_table_with_a_bad_record_is_not_imported_and_the_line_is_named(make_agent, database, rows, said):
    spec = load_agent(agent_with(make_agent, rows.encode()))
    with pytest.raises(TableInvalid) as refused:
        load_tables(database, spec)
    assert str(refused.value).split("/")[-1].startswith(said)
    assert database.catalogue() == [] and not {t for t in physical_tables(database) if t.startswith("k_")}


def test_a_100000_character_name_is_refused_before_it_is_read_as_words(make_agent, database, monkeypatch):
    """The work of an import is bounded by its file: no name longer than MAX_NAME_CHARS reaches the
    matching code (whose work grows faster than a name's length)."""
    lengths: list[int] = []
    name_words = importer.name_words
    monkeypatch.setattr(importer, "name_words", lambda said: lengths.append(len(said)) or name_words(said))
    spec = load_agent(agent_with(make_agent, (ROWS + f"A-9,{'x' * 100_000},1,red,1,\n").encode()))
    with pytest.raises(TableInvalid, match=f"products.csv:5: the name 'x+'… has 100,000 characters; a name has at "
                                           f"most {MAX_NAME_CHARS}"):
        load_tables(database, spec)
    assert lengths and max(lengths) <= MAX_NAME_CHARS


def test_long_texts_import_alike_on_both_databases_without_b_tree_indexes(make_agent, database):
    """A short text column with one 3,000-character value, a categorical one with one: imported on
    PostgreSQL too (whose B-tree entries are at most 2,704 bytes), neither indexed."""
    rows = HEADER + "\n" + "".join(f"A-{n},Kettle {n},1,{'red' if n % 2 else 'blue'},1,note\n" for n in range(40))
    rows += f"A-99,Odd Kettle,1,{'ochre ' * 500},1,note\n"
    spec = load_agent(agent_with(make_agent, rows.encode()))
    store = KnowledgeStore(spec, database)
    assert store.imported["products"].rows == 41 and "colour" not in store.imported["products"].values
    assert store.rows("products", where={"sku": "A-99"})[0]["colour"] == "ochre " * 500


def test_a_csv_edited_while_it_is_imported_is_not_imported_under_the_old_hash(make_agent, database):
    directory = agent_with(make_agent, ROWS.encode())
    spec = load_agent(directory)
    path = directory / "data" / "products.csv"

    def edit_in_place(conn, cursor, statement, *_):
        if statement.lstrip().upper().startswith("CREATE TABLE") and path.read_bytes() == ROWS.encode():
            with path.open("r+b") as fh:  # between the pass that reads the types and the one that reads the rows
                fh.seek(ROWS.index("21,"))
                fh.write(b"29")

    event.listen(database.writer, "before_cursor_execute", edit_in_place)
    with pytest.raises(TableInvalid, match="products.csv: the file changed since the agent was loaded, or while "
                                           "it was being imported: nothing was imported"):
        load_tables(database, spec)
    event.remove(database.writer, "before_cursor_execute", edit_in_place)
    assert database.catalogue() == []
    with pytest.raises(TableInvalid, match="the file changed since the agent was loaded"):
        load_tables(database, spec)  # still the spec loaded before the edit
    (loaded,) = load_tables(database, load_agent(directory))  # loaded again: the new bytes, under their hash
    assert loaded.imported and KnowledgeStore(load_agent(directory), database).rows(
        "products", where={"sku": "A-2"})[0]["price"] == 29.0


def test_a_reload_of_an_agent_whose_csv_cannot_be_imported_answers_with_the_line(store_url, tmp_path):
    shop = write_shop(tmp_path / "shop", SHOP_YAML + "knowledge:\n  - {name: Dishes, csv: menu.csv, primary_key: dish}\n")
    (shop / "menu.csv").write_text("dish,price\nPizza,9\nPasta,8\n", encoding="utf-8")

    async def scenario():
        async with make_engine(store_url, shop) as engine:
            (shop / "menu.csv").write_text("dish,price\nPizza,9\nPizza,8\n", encoding="utf-8")
            duplicate = await engine.reload()
            (shop / "menu.csv").write_bytes("dish,price\nPizza,9\nCrème,8\n".encode("latin-1"))
            unreadable = await engine.reload()
            return duplicate.lines(), unreadable.lines()

    duplicate, unreadable = run(scenario())
    assert duplicate[0] == unreadable[0] == "reload failed; the running versions keep serving:"
    assert duplicate[1].endswith("menu.csv:3: the primary key dish is 'Pizza' again (as on line 2)")
    assert "menu.csv:3:3: not UTF-8 (byte 0xe8)" in unreadable[1]


def test_a_header_alone_is_an_empty_table_on_both_databases(make_agent, database):
    store = KnowledgeStore(load_agent(agent_with(make_agent, (HEADER + "\n").encode())), database)
    assert store.imported["products"].rows == 0 and store.rows("products") == []
