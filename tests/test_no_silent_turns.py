"""Properties of every turn, over generated conversations: the bot is never silent and never
silently wrong.

Messages are drawn from what each agent's spec declares (its options and their synonyms, its
field labels, values in the forms people type them) and from what people say besides (yes, no,
thanks, "hmm", corrections, words that mean nothing to the agent), in any order. Whatever the
conversation, each turn must:

- not be silent: a turn that changes nothing while a task is open may not ask the same question
  again with nothing else said (the user would not know whether the message was read). Exempt
  are the same reply to the same words said twice in a row, small talk and requests for the
  task in progress answered in kind ("thanks" twice, "You're welcome!" twice; "Sure, we're on
  it.") and a question asked again with its reason ("This one is required, so I can't skip it");
- not be silently wrong: a value of the user's that the turn replaced by another is named in the
  reply (as "is now …" or on a summary marked changed), so a misreading shows before it is
  confirmed.

Failures print the conversation (Hypothesis shrinks it to the shortest that fails).
"""

from __future__ import annotations

import datetime as dt
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from genie_bot.agent import Agent
from genie_bot.parse import ALREADY_HANDLED, CHIT_CHAT
from genie_bot.responders.display import display_value
from genie_bot.responders.wording import label
from genie_bot.spec import NA, AgentSpec, InstanceRef, load_agent
from genie_bot.state import DialogueState
from tests.benchmarks.simulated_users.measures import Exchange, is_silent, snapshot, task_open
from tests.conftest import REPO, WORKSHEETS

AGENTS = (WORKSHEETS / "ticket_submission", WORKSHEETS / "course_enrollment", WORKSHEETS / "restaurant_reservation",
          REPO / "tests" / "domains" / "tuned" / "gym")
TODAY = dt.date(2026, 11, 27)
SAID_BESIDES = ("yes", "no", "yes please", "nope", "thanks", "thank you!", "hmm", "ok", "what?", "skip", "idk",
                "actually", "wait", "sorry", "the second one", "never mind that", "blue", "asdf qwerty", "2",
                "tomorrow", "next friday at 7pm", "jane doe", "jane@example.com", "that's it", "hello?")
"""What people say besides the agent's own words: answers, hesitations, noise."""


@cache
def spec_of(directory: Path) -> AgentSpec:
    return load_agent(directory)


def spec_words(spec: AgentSpec) -> list[str]:
    """Messages made of what the spec declares: each option as written, by its synonyms and label,
    each field's label, a correction naming it, and the tasks' examples."""
    out: list[str] = []
    for ws in spec.tasks.values():
        out += list(ws.examples)
        for f in ws.fields.values():
            if f.kind != "input":
                continue
            out.append(f"change the {label(f).lower()}")
            for member in f.values:
                out += [member, f"actually {member.lower()}", f"not {member.lower()}"]
                out += list(f.value_synonyms.get(member, ()))
    return sorted(set(out))


def messages(directory: Path) -> st.SearchStrategy[list[str]]:
    said = st.sampled_from(spec_words(spec_of(directory)) + list(SAID_BESIDES))
    return st.lists(said, min_size=1, max_size=8)


def replaced_values(spec: AgentSpec, before: DialogueState, after: DialogueState) -> list[tuple[str, str]]:
    """(label, value shown) of the user's values the turn replaced by another."""
    out = []
    for name, instance in after.instances.items():
        old = before.instances.get(name)
        if old is None or instance.worksheet not in spec.tasks:
            continue
        for f in spec.tasks[instance.worksheet].fields.values():
            was, now = old.values.get(f.name), instance.values.get(f.name)
            if (f.kind == "input" and f.type.kind != "confirm" and was not in (None, NA) and now not in (None, NA)
                    and was != now and not isinstance(now, InstanceRef) and not isinstance(was, InstanceRef)):
                out.append((label(f), display_value(now, f)))
    return out


def converse(directory: Path, said: list[str]) -> None:
    spec = spec_of(directory)
    agent = Agent(spec, clock=lambda: dt.datetime.combine(TODAY, dt.time(12)))
    state = agent.new_state()
    previous_acts = tuple(a.formal() for a in state.last_acts)
    previous_reply = agent.greeting(state)
    previous_text = ""
    transcript = [f"bot: {previous_reply}"]
    for text in said:
        reply = agent.respond(state, text)
        transcript += [f"user: {text}", f"bot: {reply.text}"]
        turn = Exchange(task_open(spec, state), snapshot(state), snapshot(reply.state),
                        tuple(a.formal() for a in reply.acts),
                        tuple(a.formal() for a in reply.acts if a.is_question), reply.text)
        conversation = "\n".join(transcript)
        exempt = (text == previous_text or reply.parse.statements in (CHIT_CHAT, ALREADY_HANDLED)
                  or any(getattr(a, "reason", None) for a in reply.acts))
        if not exempt:
            assert not is_silent(turn, previous_acts, previous_reply), f"a silent turn:\n{conversation}"
        for what, value in replaced_values(spec, state, reply.state):
            assert value in reply.text, f"the {what} became {value} unsaid:\n{conversation}"
        state, previous_acts, previous_reply, previous_text = reply.state, turn.acts, reply.text, text


PROPERTY = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@PROPERTY
@given(data=st.data())
@pytest.mark.parametrize("directory", AGENTS, ids=[a.name for a in AGENTS])
def test_an_agent_is_never_silent_or_silently_wrong(directory, data):
    converse(directory, data.draw(messages(directory), label="said"))
