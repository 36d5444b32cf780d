"""Benchmark: scripted conversations against any OpenAI-compatible endpoint, turn by turn.

The conversations are the example agents' conversation tests that end in a side effect (a
ticket filed, an enrollment, a booking: ``submissions`` expected at the last turn). A
conversation *completes* when it made exactly the side effects its test expects (the acts
and replies are not held to the test's wording, which an LLM may vary). Each turn is
reported as one of:

- ``fast path``: the rule-based parse answered the question just asked, no LLM call;
- ``LLM accepted``: the LLM's statements were taken as written;
- ``re-asked``: the LLM was asked again with the interpreter's errors, and its parse taken;
- ``repaired``: the LLM's statements were completed by omission repair;
- ``fell back``: the rule-based parse was used after an LLM call (the call failed, or its
  parse changed nothing);
- ``rules``: offline mode, no LLM at all;

with its LLM calls, its latency, the responder's replies rejected by the output check (by
reason), and whether the reply the user saw shows code, internal names or prompt text.

Parsers (``--parser``): ``rules`` (offline, the baseline), ``llm`` (the endpoint the usual
LLM settings name: ``--llm-base-url``, ``--llm-model``, ``--llm-constrained``...,
``OPENAI_BASE_URL``, ``GENIE_LLM_CONFIG``), ``fake`` (the tests' scripted server: the parser
answers the rule-based parse in a code block, the responder the templated reply; the
figures every change must keep: calls per turn must not rise).

Run from the repository root, e.g. against llama.cpp's server::

    .venv/bin/python -m tests.benchmarks.llm_conversations --parser llm \\
        --llm-base-url http://127.0.0.1:8080/v1 --llm-model smollm2 --llm-timeout 120 --llm-retries 0
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from genie_bot.agent import Agent, agent_components, offline_components
from genie_bot.cli.llm_options import add_llm_arguments, llm_settings
from genie_bot.llm import LLMSettings
from genie_bot.llm.settings import ROLES
from genie_bot.parsers import RuleParser
from genie_bot.responders import TemplateResponder
from genie_bot.responders.output_check import reply_problem
from genie_bot.scenarios.format import Scenario, load_scenario
from genie_bot.scenarios.runner import private_ledger, scenario_files
from genie_bot.scenarios.stubs import StubbedApis
from genie_bot.spec import AgentSpec, load_agent
from tests.fakes.openai_server import ScriptedOpenAIServer

REPO = Path(__file__).resolve().parents[2]
AGENTS = ("ticket_submission", "course_enrollment", "restaurant_reservation")
SHOWN_TO_USERS = ("code", "internal names", "prompt text")
"""Output-check reasons that mean the user saw what was meant for the model."""


@dataclass
class TurnFigures:
    user: str
    outcome: str
    calls: int
    latency_ms: float
    llm_ms: float
    rejected: list[str]
    shown: str | None
    """What the reply the user saw shows (code, internal names, prompt text), if anything."""
    errors: int


@dataclass
class ConversationFigures:
    agent: str
    name: str
    expected_side_effects: int
    side_effects: int = 0
    turns: list[TurnFigures] = field(default_factory=list)

    @property
    def completed(self) -> bool:
        return self.side_effects == self.expected_side_effects


def conversations(agents: tuple[str, ...], limit: int | None) -> Iterator[tuple[AgentSpec, Scenario, int]]:
    """(spec, conversation test, side effects expected at its end) for the tests that end in one."""
    for name in agents:
        agent_dir = REPO / "worksheets" / name
        spec = load_agent(agent_dir)
        chosen = 0
        for path in scenario_files(agent_dir):
            scenario = load_scenario(path)
            expected = [t.expect["submissions"] for t in scenario.turns if "submissions" in t.expect]
            if expected and expected[-1] > 0 and (limit is None or chosen < limit):
                chosen += 1
                yield spec, scenario, expected[-1]


def outcome(parse: Any, offline: bool) -> str:
    if parse.source == "fast-path":
        return "fast path"
    if offline:
        return "rules"
    if parse.source != "llm":
        return "fell back"
    if parse.repaired:
        return "repaired"
    return "re-asked" if parse.reasked else "LLM accepted"


def run_conversation(agent: Agent, spec: AgentSpec, scenario: Scenario, expected: int, offline: bool,
                     fake: _FakeLLM | None) -> ConversationFigures:
    figures = ConversationFigures(spec.name, scenario.name, expected)
    apis = StubbedApis(agent.runtime.executor, scenario.apis)
    client = getattr(agent.parser, "client", None)
    rejections = getattr(agent.responder, "rejections", Counter())
    with private_ledger("genie-scenario-"):
        state = agent.new_state()
        for turn in scenario.turns:
            if fake is not None:
                fake.state = state
            mark = client.account.mark() if client else 0
            before = Counter(rejections)
            started = time.perf_counter()
            reply = agent.respond(state, turn.user, executor=apis)
            latency = (time.perf_counter() - started) * 1000
            records = client.account.since(mark) if client else []
            templated = TemplateResponder().respond(spec, reply.state, reply.acts, turn.user, reply.parse)
            problem = reply_problem(spec, reply.state, reply.acts, templated, reply.text)
            figures.turns.append(TurnFigures(
                turn.user, outcome(reply.parse, offline), len(records), round(latency, 1),
                round(sum(r.latency_ms for r in records), 1), list((rejections - before).elements()),
                problem if problem in SHOWN_TO_USERS else None, len(reply.errors)))
            state = reply.state
            print(f"    {_turn_line(figures.turns[-1])}", file=sys.stderr, flush=True)
    figures.side_effects = apis.side_effect_count
    return figures


class _FakeLLM:
    """The scripted server's answers: the rule-based parse as the parser's, the templated reply as the responder's."""

    def __init__(self, spec: AgentSpec, today: dt.date):
        self.spec, self.today = spec, today
        self.state: Any = None
        self.rules = RuleParser()

    def __call__(self, body: dict[str, Any]) -> str:
        role = body["model"].removeprefix("bench-")
        prompt = body["messages"][-1]["content"]
        if role == "parser":
            user = re.search(r"^User: (.*)$", prompt, re.M)
            text = user.group(1) if user else ""
            return f"```python\n{self.rules.parse(self.spec, self.state, text, self.today).statements}\n```"
        if role == "responder":
            return re.search(r"keeping every fact and question\):\n(.*)\n\nWrite the assistant", prompt, re.S).group(1)
        return "```sql\nSELECT 1\n```"


@contextmanager
def _agent(kind: str, spec: AgentSpec, scenario: Scenario, settings: LLMSettings) -> Iterator[tuple[Agent, Any]]:
    today = scenario.today or dt.date.today()
    clock = lambda: dt.datetime.combine(today, dt.time(12))  # noqa: E731
    if kind == "rules":
        yield Agent.from_components(offline_components(spec, clock)), None
    elif kind == "llm":
        yield Agent.from_components(agent_components(spec, settings, clock=clock)), None
    else:
        fake = _FakeLLM(spec, today)
        with ScriptedOpenAIServer(responder=fake) as server:
            fake_settings = LLMSettings.from_mapping({"base_url": server.base_url, "max_retries": 0,
                                                      "models": {r: f"bench-{r}" for r in ROLES}}, environ={})
            agent = Agent.from_components(agent_components(spec, fake_settings, clock=clock))
            fake.rules = agent.parser.rules  # with the agent's knowledge store
            yield agent, fake


def benchmark(kind: str, settings: LLMSettings, agents: tuple[str, ...] = AGENTS,
              limit: int | None = None) -> list[ConversationFigures]:
    results = []
    for spec, scenario, expected in conversations(agents, limit):
        with _agent(kind, spec, scenario, settings) as (agent, fake):
            results.append(run_conversation(agent, spec, scenario, expected, kind == "rules", fake))
        print(f"  {spec.name}/{scenario.name}: {'completed' if results[-1].completed else 'not completed'}",
              file=sys.stderr, flush=True)
    return results


def summary(results: list[ConversationFigures]) -> dict[str, Any]:
    turns = [t for c in results for t in c.turns]
    latencies = [t.latency_ms for t in turns] or [0.0]
    return {
        "conversations": len(results), "completed": sum(c.completed for c in results), "turns": len(turns),
        "outcomes": dict(Counter(t.outcome for t in turns)),
        "calls_per_turn": round(sum(t.calls for t in turns) / max(1, len(turns)), 2),
        "turn_latency_ms": {"median": round(statistics.median(latencies)), "max": round(max(latencies))},
        "responder_rejections": dict(Counter(r for t in turns for r in t.rejected)),
        "replies_showing_code_or_prompt_text": sum(t.shown is not None for t in turns),
        "turns_with_errors": sum(bool(t.errors) for t in turns),
    }


def _table(results: list[ConversationFigures]) -> str:
    lines = []
    for c in results:
        lines.append(f"{c.agent}/{c.name}: {'completed' if c.completed else 'NOT completed'} "
                     f"({c.side_effects}/{c.expected_side_effects} side effects)")
        lines.extend(f"  {_turn_line(t)}" for t in c.turns)
    return "\n".join(lines)


def _turn_line(t: TurnFigures) -> str:
    extra = "".join([f" rejected: {', '.join(t.rejected)}" if t.rejected else "", f" SHOWS {t.shown}" if t.shown else ""])
    return f"{t.outcome:<13} {t.calls} call(s) {t.latency_ms:>8.0f} ms  {t.user[:50]!r}{extra}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parser", choices=("rules", "llm", "fake"), default="fake")
    parser.add_argument("--agents", default=",".join(AGENTS), help="comma-separated example agents")
    parser.add_argument("--limit", type=int, help="at most this many conversations per agent")
    parser.add_argument("--turns", action="store_true", help="print every turn")
    parser.add_argument("--json", type=Path, help="write every figure here")
    add_llm_arguments(parser)
    args = parser.parse_args(argv)
    settings = llm_settings(args)
    if args.parser == "llm" and not settings.enabled:
        print("--parser llm: no LLM configured (--llm-base-url, OPENAI_BASE_URL...)", file=sys.stderr)
        return 2
    results = benchmark(args.parser, settings, tuple(args.agents.split(",")), args.limit)
    if args.turns:
        print(_table(results))
    figures = summary(results)
    print(json.dumps({"parser": args.parser, **({"llm": settings.describe()} if args.parser == "llm" else {}),
                      **figures}, indent=1))
    if args.json:
        args.json.write_text(json.dumps({"summary": figures, "conversations": [asdict(c) for c in results]},
                                        indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
