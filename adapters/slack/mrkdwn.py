"""Text between the engine's markdown and Slack's own formats.

Outgoing: the engine writes CommonMark-ish markdown; Slack renders "mrkdwn", where bold is
``*x*``, italics ``_x_``, strikes ``~x~``, links ``<url|text>``, there are no headings, and
``&``, ``<``, ``>`` must be escaped (anything else in angle brackets is a mention or a link).
A reply may quote what users typed, and nothing tells a value from the agent's own words, so
no markdown link becomes a Slack link with a label (``[free pizza](https://evil.example)``
stays as typed): the bot never shows a link whose target hides behind its text. A URL in
angle brackets stays a link, showing where it goes. Bidirectional controls are dropped
(:mod:`genie_bot.adapters.bidi`), so no value displays other than it reads.
Incoming: Slack sends mentions, channels and links (even an email address a user typed) as
``<...>`` tokens with HTML escapes, which the parser should see as plain text; user mentions
carry only the user's id, which :func:`to_plain` replaces by the name it is given.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from genie_bot.adapters.bidi import without_bidi_controls

_CODE = re.compile(r"(```.*?```|`[^`\n]+`)", re.S)
_FENCE_LANGUAGE = re.compile(r"^```[\w+-]+\n")
_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)[-*+]\s+(.*)$")
_INLINE = re.compile(
    r"<(?P<autolink>(?:https?|mailto):[^>\s]+)>"     # <https://...>
    r"|\*\*(?P<bold>.+?)\*\*|__(?P<bold2>.+?)__"      # **bold** __bold__
    r"|~~(?P<strike>.+?)~~"                           # ~~strike~~
    r"|(?<![*\w])\*(?P<italic>[^*\s](?:[^*\n]*[^*\s])?)\*(?![*\w])"  # *italic*
)
_SLACK_TOKEN = re.compile(r"<([^<>|]*)(?:\|([^<>]*))?>")
_USER_MENTION = re.compile(r"<@([UW][A-Z0-9]+)(?:\|[^<>]*)?>")


def escape(text: str) -> str:
    """Text shown literally in mrkdwn (user values, labels)."""
    return without_bidi_controls(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_mrkdwn(markdown: str) -> str:
    """The engine's markdown as Slack mrkdwn; code spans and blocks are kept as they are."""
    parts = _CODE.split(without_bidi_controls(markdown))
    return "".join(_code(part) if index % 2 else _prose(part) for index, part in enumerate(parts))


def _code(code: str) -> str:
    return escape(_FENCE_LANGUAGE.sub("```\n", code))  # Slack shows a language tag as code


def _prose(text: str) -> str:
    lines = []
    for line in text.split("\n"):
        if heading := _HEADING.match(line):
            line = f"*{_inline(heading.group(1))}*"
        elif bullet := _BULLET.match(line):
            line = f"{bullet.group(1)}• {_inline(bullet.group(2))}"
        else:
            line = _inline(line)
        lines.append(line)
    return "\n".join(lines)


def _inline(text: str) -> str:
    out, at = [], 0
    for match in _INLINE.finditer(text):
        out.append(escape(text[at:match.start()]))
        out.append(_convert(match))
        at = match.end()
    out.append(escape(text[at:]))
    return "".join(out)


def _convert(match: re.Match) -> str:
    groups = match.groupdict()
    if groups["autolink"] is not None:
        return f"<{_url(groups['autolink'])}>"
    if groups["strike"] is not None:
        return f"~{_inline(groups['strike'])}~"
    if groups["italic"] is not None:
        return f"_{_inline(groups['italic'])}_"
    return f"*{_inline(groups['bold'] or groups['bold2'])}*"


def _url(url: str) -> str:
    return escape(url).replace("|", "%7C")


def mentioned_users(text: str) -> list[str]:
    """The ids of the users a Slack message's text mentions."""
    return list(dict.fromkeys(_USER_MENTION.findall(text)))


def to_plain(text: str, drop_user: str | None = None, names: Mapping[str, str] | None = None) -> str:
    """A Slack message's text as the user wrote it; ``drop_user``'s mentions (the bot's) are removed,
    other users' mentions shown by the ``names`` given for their ids."""
    names = names or {}

    def plain(match: re.Match) -> str:
        target, label = match.group(1), match.group(2)
        if target.startswith("@"):
            user = target[1:]
            return "" if user == drop_user else f"@{label or names.get(user, user)}"
        if target.startswith("#"):
            return f"#{label or target[1:]}"
        if target.startswith("!"):  # <!here>, <!subteam^ID|@team>, <!date^...|fallback>
            return label or f"@{target[1:].split('^')[0]}"
        return label or target.removeprefix("mailto:")

    text = _SLACK_TOKEN.sub(plain, text)
    text = re.sub(r"[ \t]{2,}", " ", text).strip()
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
