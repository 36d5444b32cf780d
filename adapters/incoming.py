"""What every adapter does alike with what a user sends, before the engine sees it.

A message with attachments and no text starts no turn (the agent reads text only); it is
answered with a short explanation instead. A bare mention of the bot ("@genie" and nothing
else) reaches the engine as the empty message it is: the agent greets, or asks its question
again (the parser reads an empty message as nothing said, never as a value).

An edit of a message the bot read starts no turn either: the bot reads a message once, when
it is sent, and it may have answered later messages since. Applying the new text would apply
the message twice ("add one more", edited to fix a typo, adds two) and out of order; ignoring
it silently would leave the user believing the change was taken. So the bot says so, once per
edit, and asks for the change as a new message (docs/messages.md).
"""

from __future__ import annotations

ATTACHMENTS_ONLY = "I can only read text, so I could not look at that attachment. Please type your message instead."

EDIT_NOT_APPLIED = ("I read each message once, when it is sent, so I did not take in your edit. "
                    "If something changed, please tell me in a new message.")
