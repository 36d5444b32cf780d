"""Bidirectional-text controls: characters that make text display other than it reads.

A value typed as ``Ann\u202eetalp\u202c`` shows up reversed ("Ann" then "plate" backwards), so a
confirmation card could show one thing while it submits another. The bot's own texts never
need these controls, so every reply leaves without them (the embeddings and overrides
U+202A..U+202E and the isolates U+2066..U+2069); text is then shown in its logical order.
"""

from __future__ import annotations

import re
from dataclasses import replace

from genie_bot.engine import Reply

_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def without_bidi_controls(text: str) -> str:
    return _CONTROLS.sub("", text)


def displayable(reply: Reply) -> Reply:
    """``reply`` without bidirectional controls in its text or its confirmation's title and values."""
    view = reply.pending_action
    if view is not None:
        view = replace(view, title=without_bidi_controls(view.title),
                       summary=[(without_bidi_controls(label), without_bidi_controls(value))
                                for label, value in view.summary])
    return replace(reply, text=without_bidi_controls(reply.text), pending_action=view)
