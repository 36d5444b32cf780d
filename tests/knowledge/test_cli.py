"""``genie-bot knowledge load|list``, ``db upgrade --config`` importing, and genie.yaml's ``knowledge`` section."""

from __future__ import annotations

from pathlib import Path

import pytest

from genie_bot.agent import agent_builder
from genie_bot.cli import main
from genie_bot.config import ConfigInvalid, LlmConfig, load_config
from genie_bot.knowledge import KnowledgeDatabase
from genie_bot.spec import load_agent
from tests.conftest import WORKSHEETS

RESTAURANTS = WORKSHEETS / "restaurant_reservation"


def test_load_imports_once_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    url = f"sqlite:///{tmp_path / 'knowledge.sqlite3'}"
    assert main(["knowledge", "load", str(RESTAURANTS), "--database", url]) == 0
    assert main(["knowledge", "load", str(RESTAURANTS), "--database", url]) == 0
    first, again = capsys.readouterr().out.splitlines()
    assert first.startswith("restaurant_reservation: restaurants: 300 rows, imported in ")
    assert again.startswith("restaurant_reservation: restaurants: 300 rows, up to date (k_")
    assert main(["knowledge", "list", "--database", url]) == 0
    (listed,) = capsys.readouterr().out.splitlines()
    assert listed.startswith("k_") and "restaurants from restaurants.csv: 300 rows, imported " in listed


def test_a_bad_table_fails_the_load_naming_the_line(make_agent, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    agent = make_agent("""
        name: shop
        knowledge:
          - name: products
            csv: data/products.csv
            columns:
              price: {type: int}
        """, files={"data/products.csv": "name,price\nKettle,20\nTable,twenty\n"})
    assert main(["knowledge", "load", str(agent), "--database", f"sqlite:///{tmp_path / 'k.sqlite3'}"]) == 1
    assert "products.csv:3: column price holds 'twenty', not an int" in capsys.readouterr().err
    assert main(["knowledge", "load"]) == 2  # nothing to load: it says what to give
    assert "name the agent directories to load, or give --config genie.yaml" in capsys.readouterr().err


def test_db_upgrade_imports_the_configured_agents_where_genie_yaml_says(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str],
                                                                       monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("GENIE_KNOWLEDGE_URL")
    config = tmp_path / "genie.yaml"
    config.write_text(f"database: {{url: 'sqlite:///genie.sqlite3'}}\nagents: {{restaurants: {RESTAURANTS}}}\n"
                      "knowledge: {url: 'sqlite:///data/knowledge.sqlite3'}\n", encoding="utf-8")
    assert main(["db", "upgrade", "--config", str(config)]) == 0
    schema, knowledge = capsys.readouterr().out.splitlines()
    assert knowledge.startswith("knowledge: restaurants: restaurants: 300 rows, imported in ")
    entries = KnowledgeDatabase(f"sqlite:///{tmp_path / 'data' / 'knowledge.sqlite3'}").catalogue()
    assert [e["declared"] for e in entries] == ["restaurants"]  # relative to genie.yaml, not to the working directory


def test_the_knowledge_section(tmp_path: Path):
    path = tmp_path / "genie.yaml"
    agents = f"agents: {{restaurants: {RESTAURANTS}}}\n"
    path.write_text(f"database: {{url: 'postgresql://genie@db/genie'}}\n{agents}", encoding="utf-8")
    on_postgres = load_config(path, environ={})
    assert on_postgres.knowledge.url == "postgresql+psycopg://genie@db/genie"  # every machine reads it there
    assert load_config(path, environ={"GENIE_KNOWLEDGE_URL": "sqlite:///k.sqlite3"}).knowledge.url == "sqlite:///k.sqlite3"
    path.write_text(f"{agents}knowledge: {{url: 'sqlite:///k.sqlite3', read_url: 'postgresql://reader@db/genie'}}\n",
                    encoding="utf-8")
    settings = load_config(path, environ={}).knowledge
    assert settings.url == f"sqlite:///{tmp_path / 'k.sqlite3'}"
    assert settings.read_url == "postgresql+psycopg://reader@db/genie"
    path.write_text(f"{agents}knowledge: {{url: 'mysql://db/genie'}}\n", encoding="utf-8")
    with pytest.raises(ConfigInvalid, match="knowledge.url must be a URL such as sqlite:///var/knowledge.sqlite3"):
        load_config(path, environ={})
    path.write_text(agents, encoding="utf-8")
    assert load_config(path, environ={}).knowledge.url is None  # the process's default: a file in GENIE_DATA_DIR


def test_the_engine_builds_agents_on_the_configured_database(tmp_path: Path):
    database = KnowledgeDatabase(f"sqlite:///{tmp_path / 'deployment.sqlite3'}")
    agent = agent_builder(LlmConfig(parser="rules", responder="templates"), knowledge=database)(load_agent(RESTAURANTS))
    assert agent.runtime.executor.knowledge.store.database is database
    assert [e["declared"] for e in database.catalogue()] == ["restaurants"]


def test_prune_drops_the_tables_no_agent_uses_any_more(make_agent, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]):
    url = f"sqlite:///{tmp_path / 'knowledge.sqlite3'}"
    agent = make_agent("name: shop\nknowledge:\n  - name: products\n    csv: data/products.csv\n",
                       files={"data/products.csv": "name\nKettle\n"})
    assert main(["knowledge", "load", str(agent), str(RESTAURANTS), "--database", url]) == 0
    (agent / "data" / "products.csv").write_text("name\nKettle\nTable\n", encoding="utf-8")
    assert main(["knowledge", "load", str(agent), "--database", url]) == 0
    database = KnowledgeDatabase(url)
    old, new = sorted((e for e in database.catalogue() if e["declared"] == "products"), key=lambda e: e["rows"])
    capsys.readouterr()
    assert main(["knowledge", "prune", str(agent), str(RESTAURANTS), "--database", url]) == 0
    assert capsys.readouterr().out == f"dropped {old['physical']} (1 rows)\n"
    assert {e["physical"] for e in database.catalogue()} == {new["physical"]} | {
        e["physical"] for e in database.catalogue() if e["declared"] == "restaurants"}
    with database.reader.connect() as conn:
        names = {r[0] for r in conn.exec_driver_sql("SELECT name FROM sqlite_master")}
    assert not {n for n in names if n.startswith(old["physical"])}  # its table, view and name index too
