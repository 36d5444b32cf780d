"""Every LLM call of a turn, whichever role made it (parser, knowledge, responder).

An agent's LLM clients record each call in their :class:`~genie_bot.llm.account.Account`.
The engine gives those clients a :class:`MeteredAccount`, which also hands each call to the
metrics and to the turn being measured in the calling thread: a turn runs entirely in one
worker thread (its LLM calls are synchronous), so the calls seen in that thread while
:func:`measuring` is active are exactly that turn's calls, however many turns run at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..llm.account import Account, CallRecord
from ..llm.client import LLMClient
from ..store.traces import TraceRow

PARSER_ROLE = "parser"
_current = threading.local()


@dataclass
class TurnUsage:
    records: list[CallRecord] = field(default_factory=list)

    def add_to(self, trace: TraceRow) -> None:
        """Count the calls of the other roles in ``trace``, which already holds the parser's own count.

        The parse reports its calls itself (any parser can, metered or not), so the parser's
        records are not added twice.
        """
        others = [r for r in self.records if r.role != PARSER_ROLE]
        trace.llm_calls += len(others)
        trace.prompt_tokens += sum(r.prompt_tokens for r in others)
        trace.completion_tokens += sum(r.completion_tokens for r in others)


@contextmanager
def measuring(usage: TurnUsage) -> Iterator[TurnUsage]:
    """Attribute the LLM calls made in this thread to ``usage`` until the block ends."""
    previous = getattr(_current, "usage", None)
    _current.usage = usage
    try:
        yield usage
    finally:
        _current.usage = previous


class MeteredAccount(Account):
    """An account that also reports each call (to the metrics) and adds it to the measured turn."""

    def __init__(self, on_call: Callable[[CallRecord], None]):
        super().__init__()
        self.on_call = on_call

    def add(self, record: CallRecord) -> None:
        super().add(record)
        usage: TurnUsage | None = getattr(_current, "usage", None)
        if usage is not None:
            usage.records.append(record)
        self.on_call(record)


def llm_clients(agent: Any) -> list[LLMClient]:
    """The distinct LLM clients of ``agent``'s parser, responder and knowledge back-end."""
    holders = (agent.parser, agent.responder, getattr(agent.runtime.executor, "knowledge", None))
    clients = {id(c): c for c in (getattr(h, "client", None) for h in holders) if isinstance(c, LLMClient)}
    return list(clients.values())


def meter_llm_clients(agent: Any, on_call: Callable[[CallRecord], None]) -> None:
    """Give every LLM client of ``agent`` (parser, responder, knowledge backend) a metered account.

    Called right after the agent is built, before any call, so no record is lost.
    """
    for client in llm_clients(agent):
        client.account = MeteredAccount(on_call)
