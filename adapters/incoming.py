"""What every adapter does alike with what a user sends, before the engine sees it.

A bare mention of the bot ("@genie" and nothing else) is someone saying hello: the agent gets
a greeting, not an empty message it would apologise for not understanding. A message with
attachments and no text starts no turn (the agent reads text only); it is answered with a
short explanation instead.
"""

from __future__ import annotations

BARE_MENTION = "hello"
ATTACHMENTS_ONLY = "I can only read text, so I could not look at that attachment. Please type your message instead."


def spoken(text: str) -> str:
    """What the user said to the agent, given their message without the bot's mention."""
    return text.strip() or BARE_MENTION
