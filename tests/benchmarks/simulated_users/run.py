"""Running simulated users against an agent offline, and what became of each."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from genie_bot.acts import Cancelled
from genie_bot.agent import Agent
from genie_bot.runtime.executor import ApiRequest
from genie_bot.scenarios.runner import private_ledger
from genie_bot.scenarios.stubs import StubbedApis
from genie_bot.spec import AgentSpec, load_agent
from genie_bot.state import DialogueState

from .checker import Difference, differences, instance_tree
from .goals import Goal, draw_goal
from .measures import Exchange, UnsaidValue, is_silent, near_wrong_summaries, snapshot, task_open
from .user import SimulatedUser

OUTCOMES = ("success", "wrong submission", "stalled", "abandoned", "crashed")
MAX_TURNS = 30
REPEATS_TO_STALL = 4
NUMERIC_RESULTS: dict[str, Any] = {"int": 100, "float": 100.0}


@dataclass
class Line:
    user: str
    agent: str
    acts: list[str]
    notes: list[str] = field(default_factory=list)
    """What the measures found in this turn (a silent turn, a near-wrong summary)."""


@dataclass
class UserRun:
    number: int
    goal: Goal
    outcome: str = "stalled"
    detail: str = ""
    turns: int = 0
    submitted: dict[str, Any] | None = None
    """The submitted values by field name (see :func:`submitted_tree`), when a submission was made."""
    transcript: list[Line] = field(default_factory=list)
    near_wrong: list[tuple[int, list[UnsaidValue]]] = field(default_factory=list)
    """(turn, values the user never said) for each near-wrong summary shown (see measures.py)."""
    silent: list[int] = field(default_factory=list)
    """The turns that were silent (see measures.py)."""


def api_stubs(spec: AgentSpec) -> dict[str, dict[str, Any]]:
    """A made-up result for every side-effecting API: each output field of its task gets an id (a
    number for a numeric field, like a price)."""
    stubs: dict[str, dict[str, Any]] = {}
    for task in spec.tasks.values():
        if task.api is not None and task.api.side_effects:
            outputs = [f for f in task.fields.values() if f.kind == "output"]
            stubs[task.api.function] = {f.name: NUMERIC_RESULTS.get(f.type.kind, f"SIM-{index + 1:05d}")
                                        for index, f in enumerate(outputs)}
    return stubs


def submission_of(goal: Goal, state: DialogueState, calls: list[ApiRequest]) -> dict[str, Any] | None:
    """What a turn's single submission of the goal's task held, by field name; None for none, several,
    or another task's."""
    instance = state.named(calls[0].instance) if len(calls) == 1 else None
    if instance is None or instance.worksheet != goal.worksheet:
        return None
    return submitted_tree(goal, calls[0].args, instance_tree(state, instance))


def judge_submission(spec: AgentSpec, goal: Goal, submitted: dict[str, Any] | None) -> tuple[str, list[Difference]]:
    """success when exactly one submission was made, of the goal's task, with the goal's values."""
    if submitted is None:
        return "wrong submission", []
    wrong = differences(spec, goal, submitted)
    return ("wrong submission" if wrong else "success"), wrong


def submitted_tree(goal: Goal, args: dict[str, Any], held: dict[str, Any]) -> dict[str, Any]:
    """The submitted values by the task's field names: an argument named after a field is that field;
    a record argument (``details: self.troubleshoot_details or ...``) is the nested field whose goal
    shares its keys. Fields not passed to the API keep the value the agent held."""
    tree = dict(held)
    for name, value in args.items():
        if name in goal.values:
            tree[name] = value
        elif isinstance(value, dict):
            for field_name, wanted in goal.values.items():
                if isinstance(wanted, Goal) and set(wanted.values) & set(value):
                    tree[field_name] = value
    return tree


def run_user(spec: AgentSpec, agent: Agent, number: int, seed: int, today: dt.date) -> UserRun:
    goal = draw_goal(spec, random.Random(f"goal:{seed}:{spec.name}:{number}"), today)
    user = SimulatedUser(spec, goal, random.Random(f"user:{seed}:{spec.name}:{number}"), today)
    run = UserRun(number, goal)
    apis = StubbedApis(agent.runtime.executor, api_stubs(spec))
    state = agent.new_state()
    run.transcript.append(Line("", agent.greeting(state), [a.formal() for a in state.last_acts]))
    message = user.opening(list(state.last_acts), state)
    last_question, repeats = None, 0
    for turn in range(1, MAX_TURNS + 1):
        run.turns = turn
        made_before = len(apis.calls)
        before, was_open = snapshot(state), task_open(spec, state)
        try:
            reply = agent.respond(state, message, executor=apis)
        except Exception as exc:  # a crash is an outcome to report, not a reason to stop the benchmark
            run.transcript.append(Line(message, f"<{type(exc).__name__}: {exc}>", []))
            run.outcome, run.detail = "crashed", f"{type(exc).__name__}: {exc}"
            return run
        state = reply.state
        line = Line(message, reply.text, [a.formal() for a in reply.acts])
        _measure(spec, run, user, turn, line, Exchange(was_open, before, snapshot(state), tuple(line.acts),
                                                       tuple(a.formal() for a in reply.acts if a.is_question),
                                                       reply.text), reply.acts, state)
        run.transcript.append(line)
        submitted = [c for c in apis.calls[made_before:] if c.side_effects]
        if submitted:
            run.submitted = submission_of(goal, state, submitted)
            run.outcome, wrong = judge_submission(spec, goal, run.submitted)
            run.detail = "; ".join(str(d) for d in wrong) or ("" if run.outcome == "success" else
                                                                f"{len(submitted)} submissions")
            return run
        if any(isinstance(a, Cancelled) for a in reply.acts) or _task_abandoned(state, goal):
            run.outcome, run.detail = "abandoned", "the task was cancelled"
            return run
        question = next((a.formal() for a in reply.acts if a.is_question), None)
        if question is not None:  # a turn without a question ("what would you like to change?") is no way out
            repeats = repeats + 1 if question == last_question else 1
            last_question = question
        if repeats >= REPEATS_TO_STALL:
            run.outcome, run.detail = "stalled", f"asked {repeats} times in a row: {question}{_held(spec, goal, state)}"
            return run
        message = user.reply(reply.acts, state)
    run.outcome, run.detail = "stalled", f"no submission after {MAX_TURNS} turns{_held(spec, goal, state)}"
    return run


def _measure(spec: AgentSpec, run: UserRun, user: SimulatedUser, turn: int, line: Line, exchange: Exchange,
             acts: list[Any], state: DialogueState) -> None:
    """Record the turn's near-wrong summaries and whether it was silent (before ``line`` is appended)."""
    previous = run.transcript[-1]
    if is_silent(exchange, tuple(previous.acts), previous.agent):
        run.silent.append(turn)
        line.notes.append("silent turn")
    for unsaid in near_wrong_summaries(spec, run.goal, acts, state, user.slips):
        run.near_wrong.append((turn, unsaid))
        line.notes.append("near-wrong summary: " + "; ".join(str(u) for u in unsaid))


def _held(spec: AgentSpec, goal: Goal, state: DialogueState) -> str:
    """Where what the agent holds for the task differs from the goal (set fields only), for a stall's detail."""
    roots = [i for i in state.instances.values() if i.worksheet == goal.worksheet and i.parent is None]
    if not roots:
        return "; the task was never started"
    wrong = [d for d in differences(spec, goal, instance_tree(state, roots[-1])) if d.got is not None]
    return f"; holds {'; '.join(str(d) for d in wrong)}" if wrong else ""


def _task_abandoned(state: DialogueState, goal: Goal) -> bool:
    roots = [i for i in state.instances.values() if i.worksheet == goal.worksheet and i.parent is None]
    return bool(roots) and all(i.discarded for i in roots)  # cancelled, or dropped for another


@dataclass
class AgentFigures:
    agent: str
    runs: list[UserRun]

    @property
    def counts(self) -> Counter[str]:
        return Counter(run.outcome for run in self.runs)

    def summary(self) -> dict[str, object]:
        counts = self.counts
        users = len(self.runs)
        successes = [r.turns for r in self.runs if r.outcome == "success"]
        return {
            "agent": self.agent, "users": users,
            "success_pct": round(100 * counts["success"] / users, 1) if users else 0.0,
            **{outcome.replace(" ", "_"): counts[outcome] for outcome in OUTCOMES},
            "near_wrong_summaries": sum(len(r.near_wrong) for r in self.runs),
            "users_with_near_wrong": sum(bool(r.near_wrong) for r in self.runs),
            "silent_turns": sum(len(r.silent) for r in self.runs),
            "users_with_silent": sum(bool(r.silent) for r in self.runs),
            "turns": sum(r.turns for r in self.runs),
            "mean_turns": round(sum(r.turns for r in self.runs) / users, 2) if users else 0.0,
            "mean_turns_success": round(sum(successes) / len(successes), 2) if successes else None,
        }


def simulate(agent_dir: Path, users: int, seed: int, today: dt.date) -> AgentFigures:
    """``users`` simulated users, each with a goal, against the agent in ``agent_dir`` (offline, on ``today``)."""
    spec = load_agent(agent_dir)
    agent = Agent(spec, clock=lambda: dt.datetime.combine(today, dt.time(12, 0)))
    with private_ledger("genie-simusers-"):
        runs = [run_user(spec, agent, number, seed, today) for number in range(users)]
    return AgentFigures(spec.name, runs)
