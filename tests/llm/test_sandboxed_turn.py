"""An LLM-mode turn in the sandbox: the parser's trial runs of the LLM's parse and of the rules' go
to a worker as one call, and the statements chosen are then applied to that state in the turn's
own thread, having just been applied there cheaply: one sandbox call per turn. Statements not
checked on that very state still go to the sandbox."""

from __future__ import annotations

from typing import Any

from genie_bot.agent import Agent
from genie_bot.llm import make_client
from genie_bot.parsers.llm import LLMParser
from genie_bot.runtime.isolation import sandboxed
from genie_bot.runtime.sandbox import Sandbox, WorkerPool

from .conftest import NOW, make_settings


class CountedPool(WorkerPool):
    """A pool that lists what each call asked of its worker."""

    def __init__(self) -> None:
        super().__init__()
        self.kinds: list[str] = []

    def call(self, party: str, limits: Any, spec: Any, kind: str, payload: Any) -> tuple[Any, float]:
        self.kinds.append(kind)
        return super().call(party, limits, spec, kind, payload)


def test_an_llm_mode_turn_makes_one_sandbox_call(server, script, ticket_spec):
    agent = Agent(ticket_spec, clock=lambda: NOW)
    agent.parser = LLMParser(make_client(make_settings(server)), agent.parser, fast_path=False)
    pool = CountedPool()
    script.add("parser", "main_0.full_name = 'Ann Lee'", "main_0.full_name = 'Bo Li'")
    with sandboxed(Sandbox(pool=pool)):
        first = agent.respond(agent.new_state(), "my name is Ann Lee")
        assert first.parse.source == "llm" and pool.kinds == ["check"]
        second = agent.respond(first.state, "no, Bo Li")
    assert pool.kinds == ["check", "check"]
    assert second.state.instances["main_0"].values["full_name"] == "Bo Li"
    with sandboxed(Sandbox(pool=pool)):  # statements no parser checked on that state: applied in a worker
        agent.runtime.run_turn(second.state, "main_0.full_name = 'Cy Ng'")
    assert pool.kinds == ["check", "check", "apply"]
