"""Handing a turn's replies to the platform, and telling the engine's outbox how it went."""

from __future__ import annotations

import logging
from collections.abc import Awaitable

from genie_bot.engine import Engine, SessionKey

log = logging.getLogger(__name__)


async def deliver(engine: Engine, key: SessionKey, event_id: str, posting: Awaitable[None]) -> bool:
    """Await ``posting`` (the replies of ``event_id`` going out), then take them out of the outbox.

    If posting fails (the platform is down, or kept answering "rate limited"), they stay in the
    outbox and the engine posts them again later, with backoff: a reply is never silently lost.
    Returns whether they were posted.
    """
    try:
        await posting
    except Exception:  # noqa: BLE001 - whatever went wrong, the outbox tries again
        log.exception("posting the replies of %s in %s failed; they stay in the outbox", event_id, key)
        await engine.delivery_failed(key, event_id)
        return False
    await engine.delivered(key, event_id)
    return True
