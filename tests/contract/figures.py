"""Figures of issue 37's reply items, for the note: ``python -m tests.contract.figures [DOMAINS_DIR]``.

- turns whose message gives a number or a name that no field took and the reply does not name, over every
  conversation test of the example agents and of the agents in DOMAINS_DIR (a copy of
  ../shared/benchmarks/domains: their knowledge is imported where GENIE_DATA_DIR says);
- closings after a done task ("no thanks", "thats all, bye"...) not answered with a goodbye;
- re-asks after a validation message that say a sentence twice;
- "Sure, we're on it." to messages that ask nothing about progress, and to questions that do.

Measures whatever ``genie_bot`` is first on the path, so the same command gives the figures before a
change (``PYTHONPATH=<checkout of the base>``) and after.
"""

from __future__ import annotations

import datetime as dt
import re
import sys
from pathlib import Path

from genie_bot.agent import Agent
from genie_bot.language.tokens import words
from genie_bot.scenarios import scenario_files
from genie_bot.scenarios.format import load_scenario
from genie_bot.scenarios.runner import private_ledger
from genie_bot.scenarios.stubs import StubbedApis
from genie_bot.spec import load_agent

HERE = Path(__file__).parent
WORKSHEETS = HERE.parent.parent / "worksheets"
DENTAL = HERE / "agents" / "dental_clinic"
RESTAURANT = WORKSHEETS / "restaurant_reservation"
TODAY = dt.date(2026, 11, 28)
STUBS = {"book_restaurant": {"confirmation_code": "RES-1", "status": "booked"},
         "submit_ticket": {"ticket_id": "TKT-1", "status": "submitted"},
         "submit_enrollment": {"enrollment_id": "ENR-1"}, "book_appointment": {"booking_reference": "DC-1"}}
EXAMPLES = [WORKSHEETS / n for n in ("course_enrollment", "restaurant_reservation", "ticket_submission")]


def mentions(reply: str, said: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(said.lower())}(?![\w])", reply.lower()) is not None


def is_value(text: str) -> bool:
    return any(c.isdigit() for c in text) or text[:1].isupper()


def held(state) -> list[set[str]]:
    texts = [v.get("name") if isinstance(v, dict) else v for i in state.instances.values() for v in i.values.values()]
    return [set(words(t)) for t in texts if isinstance(t, str)]


def dropped_facts(agents: list[Path]) -> tuple[int, list[tuple[str, str, list[str]]]]:
    turns, out = 0, []
    for directory in agents:
        spec = load_agent(directory)
        for path in scenario_files(directory):
            scenario = load_scenario(path)
            today = scenario.today or TODAY
            agent = Agent(spec, clock=lambda: dt.datetime.combine(today, dt.time(12)))
            apis = StubbedApis(agent.runtime.executor, scenario.apis, real_side_effects=True)
            with private_ledger("figures-"):
                state = agent.new_state()
                for turn in scenario.turns:
                    reply = agent.respond(state, turn.user, executor=apis)
                    state, turns = reply.state, turns + 1
                    unsaid = [u for u in reply.parse.unplaced if is_value(u)
                              and not any(set(words(u)) <= h for h in held(state))
                              and not all(mentions(reply.text, w) for w in u.split() if is_value(w))]
                    if unsaid:
                        out.append((directory.name, turn.user, unsaid))
    return turns, out


def last_reply(directory: Path, messages: list[str]) -> str:
    agent = Agent(load_agent(directory), clock=lambda: dt.datetime.combine(TODAY, dt.time(12)))
    apis = StubbedApis(agent.runtime.executor, STUBS)
    state, text = agent.new_state(), ""
    for message in messages:
        reply = agent.respond(state, message, executor=apis)
        state, text = reply.state, reply.text
    return text


def says_twice(reply: str) -> bool:
    """Two sentences of one kind (questions, or statements) one of which says all the other says."""
    said = [s.strip().lower() for s in re.split(r"(?<=[.?!;])\s+", reply) if s.strip()]
    meant = [frozenset(words(s)) - {"a", "the", "to", "you", "would", "like", "what", "at"} for s in said]
    asks = [s.endswith("?") for s in said]
    return any(a and a <= b and asks[i] == asks[j] for i, a in enumerate(meant) for j, b in enumerate(meant) if i != j)


def main(domains: Path | None) -> None:
    agents = EXAMPLES + (sorted(p for p in domains.iterdir() if (p / "agent.yaml").is_file()) if domains else [DENTAL])
    turns, dropped = dropped_facts(agents)
    print(f"turns: {turns}; leaving a number or a name unplaced and unsaid: {len(dropped)}")
    for example in dropped:
        print("   ", example)
    table = ["book a table at lemongrass noodle bar for 4 tomorrow at 7pm"]
    booked = {RESTAURANT: [*table, "yes"],
              DENTAL: ["book a cleaning with dr kim on monday at 10am", "Ana Lopez", "650 555 0199", "no", "no", "yes"]}
    closings = ["no thanks", "nope thats it", "thats all, bye", "thanks!", "nah im good", "no"]
    replies = [last_reply(d, setup + [c]) for d, setup in booked.items() for c in closings]
    not_closed = sum("goodbye" not in r.lower() or "anything else" in r.lower() for r in replies)
    print(f"closings after a done task not answered with a goodbye: {not_closed} of {len(replies)}")
    reasks = [(WORKSHEETS / "course_enrollment", ["cs 106a", "letter", "7"]),
              (DENTAL, ["book a cleaning with dr kim on monday", "at 7pm"]),
              (DENTAL, ["book a cleaning with dr kim on monday", "dec 6"]),
              (RESTAURANT, ["book a table at lemongrass noodle bar for 4 tomorrow", "at 10pm"]),
              (RESTAURANT, ["book a table at lemongrass noodle bar tomorrow at 7pm", "45 people"])]
    doubled = [r for r in (last_reply(d, m) for d, m in reasks) if says_twice(r)]
    print(f"re-asks saying a sentence twice: {len(doubled)} of {len(reasks)}")
    for reply in doubled:
        print("   ", repr(reply))
    no_progress = [(RESTAURANT, table + ["i meant pls add a note that we'd like a table outside"]),
                   (RESTAURANT, table + ["wait the name on the reservation should be patel btw"]),
                   (DENTAL, ["book a cleaning", "i want to book an appointment for my son"]),
                   (DENTAL, ["book a cleaning", "book a dental appointment"])]
    on_it = sum("we're on it" in last_reply(d, m) for d, m in no_progress)
    asked = [last_reply(WORKSHEETS / "ticket_submission", ["i need help with a leave of absence", m])
             for m in ("any update?", "how's it going?")]
    answered = sum("we're on it" in r for r in asked)
    print(f"'Sure, we're on it.' to a message asking no progress: {on_it} of {len(no_progress)}; "
          f"to a question about progress: {answered} of {len(asked)}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else None)
