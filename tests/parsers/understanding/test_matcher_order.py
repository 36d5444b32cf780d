"""The matchers are independent: their order and their names change no parse.

Conversation tests of the example agents (``worksheets/*/tests``) and of the tuned domain
agents (``tests/domains/tuned/*/tests``) are replayed with the real offline agent; before each
user turn, the message is also parsed with ``understanding.MATCHERS`` shuffled and each matcher
wrapped in a function of another name, and the two parses must be the same. A seeded random
sample of the scenario files is replayed, 12 of each agent: 351 user messages, each parsed twice
more (two other orders), in about 15 seconds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from genie_bot.parse import Parse
from genie_bot.parsers import understanding
from genie_bot.scenarios import load_scenario, scenario_files
from genie_bot.scenarios.runner import private_ledger
from genie_bot.scenarios.stubs import StubbedApis
from genie_bot.spec import load_agent

from .chat import AGENT_DIRS, TODAY, agent_for

SCENARIOS_PER_AGENT = 12
ORDERS = 2
"""Other orders each message is parsed with."""
SEED = 35


def sampled() -> list[tuple[Path, Path]]:
    rng = random.Random(SEED)
    out = []
    for agent in AGENT_DIRS:
        files = scenario_files(agent)
        out += [(agent, path) for path in sorted(rng.sample(files, min(SCENARIOS_PER_AGENT, len(files))))]
    return out


def renamed(matchers: tuple[Callable, ...], rng: random.Random) -> tuple[Callable, ...]:
    """The matchers in another order, each wrapped in a function of another name."""
    def wrapped(matcher: Callable, name: str) -> Callable:
        def other(ctx):
            return matcher(ctx)
        other.__name__ = other.__qualname__ = name
        return other

    shuffled = list(matchers)
    while shuffled == list(matchers):
        rng.shuffle(shuffled)
    return tuple(wrapped(m, f"matcher_{rng.randrange(10 ** 6)}") for m in shuffled)


def seen(parse: Parse) -> tuple:
    """What a parse says: its statements, whether understood, what it tells the user, its margin."""
    return (parse.statements, parse.understood, parse.reason, parse.answers_question, parse.corrected, parse.unplaced,
            None if parse.margin is None else round(parse.margin, 9))


SCENARIOS = sampled()


def differences(agent_dir: Path, path: Path, orders: list[tuple[Callable, ...]],
                patch: pytest.MonkeyPatch) -> list[str]:
    """Replays the scenario; before each user turn, the messages whose parse with one of ``orders`` of the
    matchers differs from the parse with the real one."""
    spec = load_agent(agent_dir)
    scenario = load_scenario(path)
    today = scenario.today or TODAY
    agent = agent_for(spec, today)
    apis = StubbedApis(agent.runtime.executor, scenario.apis)
    out = []
    with private_ledger("genie-matcher-order-"):
        state = agent.new_state()
        for turn in scenario.turns:
            original = seen(agent.parser.parse(spec, state, turn.user, today))
            for order in orders:
                with patch.context() as patched:
                    patched.setattr(understanding, "MATCHERS", order)
                    other = seen(agent.parser.parse(spec, state, turn.user, today))
                if other != original:
                    out.append(f"{turn.user!r}: {original} -> {other} with {[m.__name__ for m in order]}")
            state = agent.respond(state, turn.user, executor=apis).state
    return out


@pytest.mark.parametrize("agent_dir, path", SCENARIOS, ids=[f"{a.name}/{p.stem}" for a, p in SCENARIOS])
def test_the_order_and_names_of_the_matchers_change_no_parse(agent_dir, path, monkeypatch):
    rng = random.Random(f"{SEED}:{path.name}")
    orders = [renamed(understanding.MATCHERS, rng) for _ in range(ORDERS)]
    names = [m.__name__ for m in understanding.MATCHERS]
    assert all([m.__name__ for m in order] != names and set(map(id, order)).isdisjoint(map(id, understanding.MATCHERS))
               for order in orders)
    found = differences(agent_dir, path, orders, monkeypatch)
    assert not found, "\n".join(found)


def test_the_replay_sees_a_parse_change(monkeypatch):
    """Without the matcher of values, a scenario that gives values is read otherwise: the comparison can fail."""
    agent, path = SCENARIOS[0]
    without_values = tuple(m for m in understanding.MATCHERS if m is not understanding.values.propose)
    assert differences(agent, path, [without_values], monkeypatch)


def test_the_sample_holds_a_few_hundred_messages_of_every_agent():
    messages = {agent.name: sum(len(load_scenario(p).turns) for a, p in SCENARIOS if a == agent)
                for agent in AGENT_DIRS}
    assert all(n >= 10 for n in messages.values()), messages
    assert 250 <= sum(messages.values()) <= 500, messages
