"""What API functions receive (issue 36, item 5): plain values, and None for a declined optional field;
``NA`` is how the state spells a decline, never an API's argument."""

from __future__ import annotations

import datetime as dt

from genie_bot.agent import Agent
from genie_bot.spec import NA, load_agent

AGENT = """
    name: repairs
    description: Books bicycle repairs.
    tasks:
      - name: Repair
        description: Book a bicycle repair
        examples: [fix my bike]
        fields:
          - name: problem
            type: str
            description: what is wrong with the bike
          - name: pickup_code
            type: int
            description: the code of the bike locker
            required: false
          - name: confirm
            type: confirm
            description: whether to book it
        api: {function: book_repair, side_effects: true}
        actions: note_repair(code=self.pickup_code, problem=self.problem)
"""
API = """
    RECEIVED = []

    def book_repair(problem, pickup_code):
        RECEIVED.append(("book_repair", {"problem": problem, "pickup_code": pickup_code}))
        return {"ok": True}

    def note_repair(code, problem):
        RECEIVED.append(("note_repair", {"code": code, "problem": problem}))
"""


def test_a_declined_optional_field_reaches_the_api_and_code_called_apis_as_none(make_agent):
    spec = load_agent(make_agent(AGENT, API))
    bot = Agent(spec, clock=lambda: dt.datetime(2026, 11, 21, 12))
    state = bot.new_state()
    for message in ("fix my bike", "the chain is broken", "skip", "yes"):
        reply = bot.respond(state, message)
        state = reply.state
    assert state.instances["repair_0"].values["pickup_code"] == NA  # the state's spelling of a decline
    received = spec.apis["book_repair"].fn.__globals__["RECEIVED"]
    assert received == [("book_repair", {"problem": "the chain is broken", "pickup_code": None}),
                        ("note_repair", {"code": None, "problem": "the chain is broken"})]
