"""A ticket filed end to end through the engine (offline agent), ending with a Confirm click."""

from __future__ import annotations

from genie_bot.engine import Decision, Engine, Reply, SessionKey

KEY = SessionKey("slack", "T1", "C1", "1700000000.000100")
USER = "U1"
MESSAGES = ["I need help with joining a waitlist", "CS 224V", "winter",
            "the class is required for my major", "my name is Ann Lee", "ann@stanford.edu"]
PRIVATE = ("Ann Lee", "ann@stanford.edu", "CS 224V", "required for my major")
"""What the user wrote that must not reach a redacted log."""


async def file_ticket(engine: Engine, key: SessionKey = KEY) -> list[Reply]:
    """Send the messages, then click Confirm on the card; returns every reply."""
    replies: list[Reply] = []
    for index, text in enumerate(MESSAGES):
        replies += await engine.handle_message(key, USER, text, f"{key.thread}-m{index}")
    card = replies[-1].pending_action
    assert card is not None, replies[-1].text
    replies += await engine.handle_action(key, USER, card.id, Decision.CONFIRM, f"{key.thread}-click")
    return replies
