"""What the runtime guarantees whatever a parser writes, as properties over generated parser
outputs (:mod:`.statement_sequences`), conversation after conversation:

* while a task is open and not waiting on a confirmation, every turn asks something or says
  why not (the one turn that asks nothing is the one a confirmation was declined in, and it
  asks what to change);
* a task is reported cancelled only after a statement that cancels it;
* no instance is reachable from two fields, and no field of a live instance holds one that
  was cancelled or dropped.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, note, settings
from hypothesis import strategies as st

from genie_bot.acts import Act, Cancelled, Say
from genie_bot.runtime import ApiRequest, LocalApiExecutor, Runtime
from genie_bot.runtime.assign import CANCELLED_REASON
from genie_bot.runtime.policy import DECLINED_TEXT
from genie_bot.spec import InstanceRef, load_agent
from genie_bot.state import DialogueState, InstanceStatus
from tests.conftest import WORKSHEETS

from .agents import GENIE_COURSE_AGENT, GENIE_COURSE_API, GENIE_POLICY
from .statement_sequences import StatementWriter

NOW = dt.datetime(2026, 11, 21, 12, 0)
TURNS = 12


def reported_cancelled(acts: list[Act]) -> set[str]:
    """Instances the turn tells the user were cancelled (by act, or by the reason a value was refused)."""
    told = {a.instance for a in acts if isinstance(a, Cancelled)}
    if any(getattr(a, "reason", None) == CANCELLED_REASON or (isinstance(a, Say) and a.text == CANCELLED_REASON)
           for a in acts):
        told.add("?")
    return told


def cancels(statements: str) -> bool:
    return "exitws(" in statements or ".confirmed = False" in statements


def check_turn(before: DialogueState, after: DialogueState, statements: str, acts: list[Act], cancelled_ever: bool):
    # a task is reported cancelled only after a statement that cancels it
    if reported_cancelled(acts):
        assert cancelled_ever, f"told the user a task was cancelled after {statements!r}: {acts}"
    newly_abandoned = [n for n, i in after.instances.items() if i.status == InstanceStatus.ABANDONED
                       and (n not in before.instances or before.instances[n].status != InstanceStatus.ABANDONED)]
    assert not newly_abandoned or cancels(statements), f"{newly_abandoned} cancelled by {statements!r}"

    # no instance reachable from two fields; live fields hold live instances, which know their place
    held: Counter[str] = Counter()
    for instance in after.instances.values():
        if instance.discarded:
            continue
        for field_name, value in instance.values.items():
            for ref in value if isinstance(value, list) else [value]:
                if isinstance(ref, InstanceRef):
                    held[ref.name] += 1
                    child = after.instances[ref.name]
                    assert not child.discarded, f"{instance.name}.{field_name} holds {child.status} {ref.name}"
                    assert child.parent == (instance.name, field_name), f"{ref.name} does not know its place"
    assert not [name for name, n in held.items() if n > 1], f"held twice: {held} after {statements!r}"

    # while a task is open and not waiting on a confirmation, every turn asks something or says why not:
    # the only turn that asks nothing is the one the user declined a confirmation in ("what would you
    # like to change?")
    open_tasks = [i.name for i in after.instances.values() if i.parent is None and i.status == InstanceStatus.ACTIVE]
    if open_tasks and not any(a.is_question for a in acts):
        assert Say(DECLINED_TEXT) in acts, f"{open_tasks} open, nothing asked after {statements!r}: {acts}"


class SucceedingApis(LocalApiExecutor):
    """The agents' APIs answered without running them: their ledgers would make a conversation
    behave differently the second time Hypothesis replays it."""

    def call_api(self, request: ApiRequest) -> Any:
        self.calls.append(request)
        return {"success": True}


class Scripted:
    """A counterexample Hypothesis drew, as explicit parser outputs: ``@example(data=Scripted(...))``
    replays them in place of generated ones, so every run checks it whatever Hypothesis draws."""

    def __init__(self, *outputs: str):
        self.outputs = outputs


def converse(spec, data) -> None:
    runtime = Runtime(spec, SucceedingApis(spec), clock=lambda: NOW)
    writer = StatementWriter(spec, lambda options: data.draw(st.sampled_from(list(options))))
    scripted = data.outputs if isinstance(data, Scripted) else None
    state = runtime.new_state()
    cancelled_ever = False
    for index in range(TURNS if scripted is None else len(scripted)):
        statements = writer.output(state) if scripted is None else scripted[index]
        cancelled_ever = cancelled_ever or cancels(statements)
        result = runtime.run_turn(state, statements)
        note(f"{statements}\n  -> {[a.formal() for a in result.acts]} {result.errors}")
        check_turn(state, result.state, statements, result.acts, cancelled_ever)
        state = result.state


@pytest.fixture(params=["genie_bot_policy", "reference_policy"])
def course_spec(request, make_agent):
    policy = GENIE_POLICY if request.param == "reference_policy" else ""
    return load_agent(make_agent(GENIE_COURSE_AGENT.format(policy=policy), GENIE_COURSE_API))


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
@example(data=Scripted(  # a new course put into the list of a cancelled enrollment reopened the list, which held
    # the cancelled second course
    "course_0 = Course(course_name='CS 1', grade_type='Letter', course_num_units=3)\n"
    "course_1 = Course(course_name='CS 2', grade_type='Letter', course_num_units=4)\n"
    "courses_to_take_0 = CoursesToTake(course_0_details=course_0, more_courses_1=True, course_1_details=course_1)\n"
    "main.courses_to_take = courses_to_take_0",
    "courses_to_take_0.confirm = True",
    "exitws(main, confirmed=True)",
    "courses_to_take_0.course_0_details = Course(course_name='CS 3', grade_type='Letter', course_num_units=3)"))
def test_the_invariants_hold_over_generated_course_enrollment_parses(course_spec, data):
    converse(course_spec, data)


@pytest.mark.parametrize("agent", ["course_enrollment", "ticket_submission", "restaurant_reservation"])
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_invariants_hold_over_generated_parses_of_the_example_agents(agent, data):
    converse(load_agent(WORKSHEETS / agent), data)
