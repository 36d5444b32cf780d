"""Telling whoever runs a turn that its thread is only waiting for an LLM.

A turn spends most of its time waiting for completions; the engine lets only a few turns
compute at once (:mod:`genie_bot.engine.admission`), and gives a turn's place to another while
it waits. :meth:`~genie_bot.llm.client.LLMClient.complete` waits inside :func:`waiting`; so
should any parser or responder that blocks on a model some other way. Outside an engine's turn
(tests, the console, benchmarks) it does nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

_here = threading.local()


@contextmanager
def waiting() -> Iterator[None]:
    """Wrap a blocking wait for a model: the turn running in this thread lets another compute meanwhile."""
    around: Callable[[], AbstractContextManager[Any]] | None = getattr(_here, "around", None)
    if around is None:
        yield
        return
    with around():
        yield


@contextmanager
def waits_in(around: Callable[[], AbstractContextManager[Any]]) -> Iterator[None]:
    """Until the block ends, every :func:`waiting` of this thread runs inside ``around()``."""
    previous = getattr(_here, "around", None)
    _here.around = around
    try:
        yield
    finally:
        _here.around = previous
