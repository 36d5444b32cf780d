"""The agent, parser and engine set-up shared by the engine tests (and their child processes)."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import os
import textwrap
from pathlib import Path
from typing import Any

from genie_bot.agent import Agent
from genie_bot.config import AgentConfig, Config, ConfirmationSettings, EngineSettings, SchedulerSettings
from genie_bot.engine import Engine, SessionKey
from genie_bot.engine.engine import utcnow
from genie_bot.parsers import Parse
from genie_bot.spec import AgentSpec
from genie_bot.store import Database, upgrade

SHOP_YAML = """
name: shop
description: Orders food.
start: Order
tasks:
  - name: Order
    description: order food
    fields:
      - {name: dish, type: enum, values: [Pizza, Pasta, Salad], description: the dish}
      - {name: count, type: int, description: how many}
      - {name: name, type: str, description: the name for the order}
      - {name: note, type: str, required: false, dont_ask: true}
      - {name: order_id, type: str, kind: output}
    api: {function: place_order, side_effects: true}
    actions: say(f"Order {self.order_id} placed")
  - name: Menu
    description: read the menu
    fields:
      - {name: section, type: enum, values: [Mains, Desserts]}
    api: menu
"""

SHOP_API = '''
"""Every call is appended to $GENIE_DATA_DIR/calls.jsonl, so tests count real executions."""
import json, os, time
from pathlib import Path


def _log(entry):
    path = Path(os.environ["GENIE_DATA_DIR"]) / "calls.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(entry) + "\\n")


def _maybe_block(variable):
    marker = os.environ.get(variable)
    if marker:
        Path(marker).touch()
        time.sleep(3600)


def place_order(dish, count, name, idempotency_key=None):
    _log({"api": "place_order", "dish": dish, "count": count, "name": name, "key": idempotency_key,
          "pid": os.getpid()})
    _maybe_block("SHOP_BLOCK_IN_ORDER")
    return {"order_id": f"{dish}-{count}-{name}"}


def menu(section):
    _maybe_block("SHOP_BLOCK_IN_MENU")
    return ["Margherita", "Carbonara"] if section == "Mains" else ["Tiramisu"]
'''


def write_shop(directory: Path, agent_yaml: str = SHOP_YAML, api: str = SHOP_API) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "agent.yaml").write_text(textwrap.dedent(agent_yaml).lstrip("\n"), encoding="utf-8")
    (directory / "api.py").write_text(api, encoding="utf-8")
    return directory


class StatementParser:
    """Messages that look like parser statements are used as they are; others go to the rule parser.

    Keeps the engine tests independent of how the rule parser reads free text, while a typed
    "yes" still goes through the real rule parser.
    """

    def __init__(self, fallback: Any):
        self.fallback = fallback

    def parse(self, spec: AgentSpec, state: Any, text: str, today: dt.date) -> Parse:
        if "=" in text or "(" in text or text.startswith("#"):
            return Parse(text, source="statements")
        return self.fallback.parse(spec, state, text, today)


def statement_parser(agent: Agent, llm: Any) -> StatementParser:
    """``llm.parser: tests.engine.support:statement_parser`` in a genie.yaml: what :func:`build_agent`
    does, for engines started as ``genie-bot run``."""
    return StatementParser(agent.parser)


def build_agent(spec: AgentSpec) -> Agent:
    agent = Agent(spec)
    agent.parser = StatementParser(agent.parser)
    return agent


def make_config(url: str, agent_dir: Path, **settings: Any) -> Config:
    engine = {k: settings.pop(k) for k in list(settings) if k in EngineSettings.__dataclass_fields__}
    confirmation = {k: settings.pop(k) for k in list(settings) if k in ConfirmationSettings.__dataclass_fields__}
    scheduler = {k: settings.pop(k) for k in list(settings) if k in SchedulerSettings.__dataclass_fields__}
    return Config(agents={"shop": AgentConfig("shop", agent_dir)}, default_agent="shop", database_url=url,
                  engine=EngineSettings(**engine), confirmation=ConfirmationSettings(**confirmation),
                  scheduler=SchedulerSettings(**scheduler), **settings)


def prepare_database(url: str) -> None:
    db = Database(url)
    try:
        upgrade(db)
    finally:
        db.dispose()


def make_engine(url: str, agent_dir: Path, **settings: Any) -> Engine:
    clock = settings.pop("clock", None)
    extra = {"clock": clock} if clock else {}
    return Engine(make_config(url, agent_dir, **settings), build_agent=build_agent, **extra)


def calls(data_dir: Path | None = None) -> list[dict]:
    path = (data_dir or Path(os.environ["GENIE_DATA_DIR"])) / "calls.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


class FakeClock:
    """The engine's clock, moved by hand: jobs and expiries are tested without waiting."""

    def __init__(self) -> None:
        self.now = utcnow()

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


KEY = SessionKey("slack", "T1", "C1", "1700000000.000100")
ORDER = ["order_0.dish = 'Pizza'", "order_0.count = 2", "order_0.name = 'Ann'"]
"""Fills the first order: the third message asks for confirmation."""
