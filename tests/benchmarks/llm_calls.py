"""Benchmark: LLM calls and prompt tokens per turn, with the parser's fast path on and off.

Drives the example agents through scripted conversations. A scripted OpenAI-compatible
server plays the LLM: the parser role answers each turn's plausible statements (written
below, as a good parser would), the knowledge role answers the SQL the offline keyword
matcher builds for the question, and the responder role answers the templated reply it was
shown. Every call goes through the real ``openai`` client and is counted by the client's
account; tokens are the fake server's estimate (characters / 4) of the real prompts.

Also measures prompt growth over a 30-turn conversation: the parser prompt at turn 30
should be about the size of the one at turn 1 (goal: ratio <= 1.2), since the prompt holds
only the last exchange and the part of the state the turn can touch.

Run from the repository root: ``.venv/bin/python -m tests.benchmarks.llm_calls [--json]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from genie_bot.knowledge import KeywordQuery, KnowledgeStore
from genie_bot.runtime import KnowledgeResult
from genie_bot.agent import Agent, agent_components
from genie_bot.llm import LLMSettings
from genie_bot.rendering import record_text
from genie_bot.llm.settings import ROLES
from genie_bot.replay import read_trace
from genie_bot.spec import AgentSpec, load_agent
from genie_bot.state import DialogueState, KnowledgeAnswer
from tests.fakes.openai_server import ScriptedOpenAIServer

REPO = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2026, 11, 23, 10, 0)  # a Monday
Gold = str | Callable[[DialogueState], str]
"""The statements a good parser writes for a turn (a function of the state when they name a result)."""


def _first_result(instance: str) -> Callable[[DialogueState], str]:
    return lambda state: f"{instance} = BookRestaurant(restaurant={record_text(state.answer.result[0], 'restaurants')})"


TICKET_TRACE = REPO / "worksheets" / "ticket_submission" / "tests" / "bench.jsonl"
TICKET: list[tuple[str, Gold]] = [(line["user"], line["parse"]) for line in read_trace(TICKET_TRACE)]
TICKET_MORE: list[tuple[str, Gold]] = [
    ("I also need to take a leave of absence", "main_1 = Main(student_task='Leave of Absence')"),
    ("not yet", "leave_of_absence_0.form_status = 'Not Submitted'"),
    ("spring", "leave_of_absence_0.start_quarter = 'Spring'"),
    ("I'm going abroad for a family matter", "main_1.extra_details = \"I'm going abroad for a family matter\""),
    ("Ann Lee", "main_1.full_name = 'Ann Lee'"),
    ("ann@stanford.edu", "main_1.email = 'ann@stanford.edu'"),
    ("hmm, do I need to submit the form before the leave starts?", "# a question the agent has no source for"),
    ("no, hold on", "main_1.confirmed = False"),
    ("change the start quarter to winter", "leave_of_absence_0.start_quarter = 'Winter'"),
    ("yes, submit it", "main_1.confirmed = True"),
    ("what's the status of TKT-00002?", "ticket_status_1 = TicketStatus(ticket_id='TKT-00002')"),
    ("thanks", "# thanks"),
    ("I have a problem with my AP credits", "main_2 = Main(student_task='External Test Credits')"),
    ("AP", "external_test_credits_0.test_type = 'AP'"),
]
RESTAURANT: list[tuple[str, Gold]] = [
    ("find me a cheap Thai place in Seattle", "answer('cheap Thai restaurants in Seattle')"),
    ("is Jasmine Thai Kitchen good for kids?", "answer('is Jasmine Thai Kitchen good for kids?')"),
    ("ok, book it for 4 people next Friday at 7pm",
     "book_restaurant_0 = BookRestaurant(restaurant=restaurants(name='Jasmine Thai Kitchen'), num_people=4, "
     "date='2026-11-27', time='19:00')"),
    ("actually make it 5 people", "book_restaurant_0.num_people = 5"),
    ("yes", "book_restaurant_0.confirmed = True"),
    ("thanks!", "# thanks"),
    ("any highly rated Italian places in San Francisco?",
     "answer('highly rated Italian restaurants in San Francisco')"),
    ("book the first one", _first_result("book_restaurant_1")),
    ("tomorrow", "book_restaurant_1.date = '2026-11-24'"),
    ("8pm", "book_restaurant_1.time = '20:00'"),
    ("2", "book_restaurant_1.num_people = 2"),
    ("yes please", "book_restaurant_1.confirmed = True"),
]
COURSE: list[tuple[str, Gold]] = [
    ("I want to enroll in CS 224V and CS 229",
     "main_0.courses_to_take = CoursesToTake(course_0_details=Course(course_name='CS 224V'), "
     "course_1_details=Course(course_name='CS 229'))"),
    ("what does CS 224V cover?", "answer('what does CS 224V cover?')"),
    ("letter", "course_0.grade_type = 'Letter'"),
    ("3", "course_0.course_num_units = 3"),
    ("credit/no credit", "course_1.grade_type = 'Credit/No Credit'"),
    ("4 units", "course_1.course_num_units = 4"),
    ("no", "courses_to_take_0.more_courses_2 = False"),
    ("yes", "courses_to_take_0.confirm = True"),
    ("Ann Lee", "student_info_0.student_name = 'Ann Lee'"),
    ("06123456", "student_info_0.student_id = '06123456'"),
    ("ann@stanford.edu", "student_info_0.student_email_address = 'ann@stanford.edu'"),
    ("no", "student_info_0.is_international_student = False"),
    ("yes, submit it", "main_0.confirmed = True"),
]
SCENARIOS = {"ticket_submission": TICKET, "restaurant_reservation": RESTAURANT, "course_enrollment": COURSE}
LONG_AGENT, LONG_CONVERSATION = "ticket_submission", TICKET + TICKET_MORE


@dataclass
class TurnFigures:
    user: str
    parse_source: str
    calls: dict[str, int]
    prompt_tokens: dict[str, int]
    errors: list[str]


@dataclass
class RunFigures:
    agent: str
    fast_path: bool
    turns: list[TurnFigures] = field(default_factory=list)

    def per_turn(self, what: str, role: str | None = None) -> float:
        values = [sum(getattr(t, what).get(r, 0) for r in ([role] if role else ROLES)) for t in self.turns]
        return sum(values) / len(values)

    @property
    def fast_path_turns(self) -> int:
        return sum(t.parse_source == "fast-path" for t in self.turns)

    @property
    def error_turns(self) -> int:
        return sum(bool(t.errors) for t in self.turns)


class _ScriptedLLM:
    """The server's responder: answers each role as described in the module docstring."""

    def __init__(self, spec: AgentSpec):
        store = KnowledgeStore(spec) if spec.knowledge else None
        self.keywords = KeywordQuery(store) if store else None
        self.first_table = next(iter(store.tables.values())).name if store and store.tables else None
        self.statements = ""

    def __call__(self, body: dict[str, Any]) -> str:
        role = body["model"].removeprefix("bench-")
        prompt = body["messages"][-1]["content"]
        if role == "parser":
            return f"```python\n{self.statements}\n```"
        if role == "knowledge":
            question = re.search(r"^Question: (.*)$", prompt, re.M).group(1)
            found = self.keywords.query(KnowledgeAnswer(question)) if self.keywords else None
            return f"```sql\n{_written(found) if found and found.searched else f'SELECT * FROM {self.first_table} LIMIT 5'}\n```"
        return re.search(r"keeping every fact and question\):\n(.*)\n\nWrite the assistant", prompt, re.S).group(1)


def _written(found: KnowledgeResult) -> str:
    """The query a good LLM writes for what the offline search looked for: its table and conditions."""
    assert found.searched is not None
    where = " AND ".join(f"{column} = '{value.replace(chr(39), chr(39) * 2)}'"
                         for column, value in found.searched.conditions)
    return f"SELECT * FROM {found.searched.tables[0]}{f' WHERE {where}' if where else ''} LIMIT 10"


def run(agent_name: str, turns: list[tuple[str, Gold]], fast_path: bool) -> RunFigures:
    spec = load_agent(REPO / "worksheets" / agent_name)
    llm = _ScriptedLLM(spec)
    figures = RunFigures(agent_name, fast_path)
    with ScriptedOpenAIServer(responder=llm) as server:
        settings = LLMSettings.from_mapping({"base_url": server.base_url, "max_retries": 0, "fast_path": fast_path,
                                             "models": {r: f"bench-{r}" for r in ROLES}}, environ={})
        components = agent_components(spec, settings, clock=lambda: NOW)
        agent = Agent.from_components(components)
        account = components.client.account
        state = agent.new_state()
        for user, gold in turns:
            llm.statements = gold(state) if callable(gold) else gold
            mark = account.mark()
            reply = agent.respond(state, user)
            records = account.since(mark)
            figures.turns.append(TurnFigures(
                user, reply.parse.source, {r: sum(c.role == r for c in records) for r in ROLES},
                {r: sum(c.prompt_tokens for c in records if c.role == r) for r in ROLES}, reply.errors))
            state = reply.state
    return figures


def report(fast_path_runs: list[RunFigures], long_run: RunFigures) -> dict[str, Any]:
    rows = []
    for run_figures in fast_path_runs:
        rows.append({
            "agent": run_figures.agent, "fast_path": run_figures.fast_path, "turns": len(run_figures.turns),
            "fast_path_turns": run_figures.fast_path_turns, "error_turns": run_figures.error_turns,
            "calls_per_turn": round(run_figures.per_turn("calls"), 2),
            **{f"{r}_calls_per_turn": round(run_figures.per_turn("calls", r), 2) for r in ROLES},
            "prompt_tokens_per_turn": round(run_figures.per_turn("prompt_tokens")),
            "parser_prompt_tokens_per_turn": round(run_figures.per_turn("prompt_tokens", "parser")),
        })
    first, last = long_run.turns[0].prompt_tokens["parser"], long_run.turns[-1].prompt_tokens["parser"]
    longest = max(t.prompt_tokens["parser"] for t in long_run.turns)
    growth = {"agent": long_run.agent, "turns": len(long_run.turns), "parser_prompt_tokens_turn_1": first,
              f"parser_prompt_tokens_turn_{len(long_run.turns)}": last, "ratio": round(last / first, 3),
              "max_ratio": round(longest / first, 3), "error_turns": long_run.error_turns}
    return {"scenarios": rows, "long_conversation": growth}


def benchmark() -> dict[str, Any]:
    runs = [run(name, turns, fast_path) for name, turns in SCENARIOS.items() for fast_path in (False, True)]
    return report(runs, run(LONG_AGENT, LONG_CONVERSATION, fast_path=False))


def _print(figures: dict[str, Any]) -> None:
    header = (f"{'agent':<24}{'fast path':>10}{'turns':>7}{'fast':>6}{'calls/turn':>12}{'parser':>8}{'knowl.':>8}"
              f"{'resp.':>7}{'tokens/turn':>13}{'parser tok.':>13}{'errors':>8}")
    print(header)
    for row in figures["scenarios"]:
        print(f"{row['agent']:<24}{'on' if row['fast_path'] else 'off':>10}{row['turns']:>7}{row['fast_path_turns']:>6}"
              f"{row['calls_per_turn']:>12.2f}{row['parser_calls_per_turn']:>8.2f}"
              f"{row['knowledge_calls_per_turn']:>8.2f}"
              f"{row['responder_calls_per_turn']:>7.2f}{row['prompt_tokens_per_turn']:>13,}"
              f"{row['parser_prompt_tokens_per_turn']:>13,}{row['error_turns']:>8}")
    growth = figures["long_conversation"]
    last_key = next(k for k in growth if k.startswith("parser_prompt_tokens_turn_") and not k.endswith("_1"))
    print(f"\nlong conversation ({growth['agent']}, {growth['turns']} turns, fast path off): parser prompt tokens "
          f"turn 1 = {growth['parser_prompt_tokens_turn_1']:,}, turn {growth['turns']} = {growth[last_key]:,}, "
          f"ratio {growth['ratio']:.3f} (largest turn: {growth['max_ratio']:.3f}x turn 1); goal <= 1.2")
    print("tokens: the scripted server's estimate, characters / 4, of the real prompts")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as data_dir:
        os.environ["GENIE_DATA_DIR"] = data_dir  # the example APIs' submissions ledger
        figures = benchmark()
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        _print(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
