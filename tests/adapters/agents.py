"""Test agents whose replies are what a busy day brings: a 400-row answer, rows longer than a message."""

from __future__ import annotations

from typing import Any

from tests.engine.support import build_agent

ROWS = [f"• Salad {i}: tomato, basil, mozzarella, olive oil, balsamic vinegar" for i in range(400)]


class LongResponder:
    """Lists 400 salads before the reply to any message that ends with ``# long``: a long knowledge answer."""

    def __init__(self, inner: Any):
        self.inner = inner

    def respond(self, spec: Any, state: Any, acts: Any, text: str, parse: Any, changed: Any = ()) -> str:
        reply = self.inner.respond(spec, state, acts, text, parse)
        return "I found 400 salads:\n" + "\n".join(ROWS) + "\n\n" + reply if text.endswith("# long") else reply


def long_agent(spec: Any) -> Any:
    agent = build_agent(spec)
    agent.responder = LongResponder(agent.responder)
    return agent
