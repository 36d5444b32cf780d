"""What every adapter does alike with what a user sends, before the engine sees it.

A message with attachments and no text starts no turn (the agent reads text only); it is
answered with a short explanation instead. A bare mention of the bot ("@genie" and nothing
else) reaches the engine as the empty message it is: the agent greets, or asks its question
again (the parser reads an empty message as nothing said, never as a value).
"""

from __future__ import annotations

ATTACHMENTS_ONLY = "I can only read text, so I could not look at that attachment. Please type your message instead."
