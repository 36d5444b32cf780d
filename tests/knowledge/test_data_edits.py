"""Data edits that take: an agent's version includes its data files' hashes, so a reload after a CSV
edit serves the new table and says so; ``knowledge prune`` never drops a table a live process still
reads (each process leases the tables it reads), and drops it once no process does."""

from __future__ import annotations

import gc
import time

import pytest

from genie_bot.cli import main
from genie_bot.knowledge import KnowledgeDatabase, KnowledgeStore
from genie_bot.knowledge.importer import TableSource, prune
from genie_bot.knowledge.readers import LEASE_SECONDS
from genie_bot.spec import load_agent
from tests.engine.conftest import pg_url, store_url  # noqa: F401 - the engine's database, SQLite and PostgreSQL
from tests.engine.support import SHOP_YAML, make_engine, run, write_shop

from .conftest import closing
from .test_import import ROWS, shop

EDITED = ROWS.replace("Blue Kettle,21", "Blue Kettle,24")


def physical(spec) -> str:
    (kb,) = spec.knowledge.values()
    return TableSource.of(kb).physical


def test_a_reload_after_a_csv_edit_serves_the_new_table_and_says_so(store_url, tmp_path):
    shop_dir = write_shop(tmp_path / "shop", SHOP_YAML + "knowledge:\n  - {name: Dishes, csv: menu.csv, "
                                                        "primary_key: dish}\n")
    (shop_dir / "menu.csv").write_text("dish,price\nPizza,9\nPasta,8\n", encoding="utf-8")

    async def scenario():
        async with make_engine(store_url, shop_dir) as engine:
            before = engine.registry.get("shop")
            unchanged = (await engine.reload()).lines()
            (shop_dir / "menu.csv").write_text("dish,price\nPizza,11\nPasta,8\n", encoding="utf-8")
            changed = (await engine.reload()).lines()
            after = engine.registry.get("shop")
            store = after.agent.runtime.executor.knowledge.store
            return before.version, after.version, unchanged, changed, store.rows("Dishes", where={"dish": "Pizza"})

    old, new, unchanged, changed, pizza = run(scenario())
    assert unchanged == [f"shop: {old} -> {old} (unchanged)"]
    assert old != new and changed == [f"shop: {old} -> {new} (new data in menu.csv; 0 live session(s) migrate on "
                                      "their next turn)"]
    assert pizza == [{"dish": "Pizza", "price": 11}]


def test_prune_keeps_what_a_live_process_reads_and_drops_it_once_none_does(make_agent, knowledge_url):
    """Three processes on one knowledge database: one still on the old CSV, one on the edited CSV, and
    the operator's ``knowledge prune`` naming the current agent only."""
    old_spec = shop(make_agent)
    new_spec = shop(make_agent, EDITED)
    with closing(KnowledgeDatabase(knowledge_url)) as old_process, \
            closing(KnowledgeDatabase(knowledge_url)) as new_process, \
            closing(KnowledgeDatabase(knowledge_url)) as operator:
        old_store = KnowledgeStore(old_spec, old_process)
        KnowledgeStore(new_spec, new_process)
        while_read = prune(operator, {physical(new_spec)})
        still_served = old_store.rows("products", where={"sku": "A-2"})
        del old_store  # the old process reloads: its store is collected and its lease ends at the next renewal
        gc.collect()
        old_process.readers.renew()
        once_released = prune(operator, {physical(new_spec)})
        catalogue = [entry["physical"] for entry in operator.catalogue()]

    assert while_read.dropped == [] and while_read.kept_live == {physical(old_spec): 1}
    assert still_served[0]["price"] == 21.0
    assert [entry.physical for entry in once_released.dropped] == [physical(old_spec)]
    assert once_released.kept_live == {} and catalogue == [physical(new_spec)]


def test_the_lease_of_a_process_that_died_ends_and_its_table_is_pruned(make_agent, knowledge_url):
    spec = shop(make_agent)
    with closing(KnowledgeDatabase(knowledge_url)) as dead, closing(KnowledgeDatabase(knowledge_url)) as operator:
        store = KnowledgeStore(spec, dead)  # then the process is killed: nothing renews or drops its lease
        soon = prune(operator, set(), now=time.time() + LEASE_SECONDS - 30)
        later = prune(operator, set(), now=time.time() + LEASE_SECONDS + 1)
        assert store.imported["products"].rows == 3
    assert soon.kept_live == {physical(spec): 1} and soon.dropped == []
    assert [entry.physical for entry in later.dropped] == [physical(spec)]


def test_knowledge_prune_says_what_it_kept_for_live_processes(make_agent, tmp_path, capsys: pytest.CaptureFixture[str]):
    url = f"sqlite:///{tmp_path / 'knowledge.sqlite3'}"
    directory = make_agent("""
        name: shop
        knowledge:
          - {name: products, csv: data/products.csv, primary_key: sku}
        """, files={"data/products.csv": ROWS})
    with closing(KnowledgeDatabase(url)) as serving:
        store = KnowledgeStore(load_agent(directory), serving)
        (directory / "data" / "products.csv").write_text(EDITED, encoding="utf-8")
        assert main(["knowledge", "load", str(directory), "--database", url]) == 0
        assert main(["knowledge", "prune", str(directory), "--database", url]) == 0
        assert store.rows("products", where={"sku": "A-2"})[0]["price"] == 21
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == (f"kept {store.imported['products'].physical}: 1 live process(es) still read it (a reload or a "
                       f"restart releases it)")
