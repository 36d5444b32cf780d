"""An engine process of its own, for the crash tests: ``python -m tests.engine.child URL AGENT_DIR EVENT``.

EVENT is JSON: ``{"message": text, "event_id": id}`` or ``{"click": action_id, "event_id": id}``.
It prints the replies as one JSON line, unless it is killed first.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from genie_bot.engine import Decision

from .support import KEY, make_engine


async def main(url: str, agent_dir: str, event: dict) -> None:
    async with make_engine(url, Path(agent_dir)) as engine:
        print(json.dumps({"engine": engine.id}), flush=True)
        if "message" in event:
            replies = await engine.handle_message(KEY, "U1", event["message"], event["event_id"])
        else:
            replies = await engine.handle_action(KEY, "U1", event["click"], Decision.CONFIRM, event["event_id"])
        print(json.dumps([r.to_dict() for r in replies], default=str), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3])))
