"""Long replies within a platform's limits: shortened to a few messages, split at natural boundaries; and
replies as plain text, for a terminal that does not render markdown."""

from __future__ import annotations

from markdown_it import MarkdownIt

OMITTED = "_… {count} more lines not shown. Ask me to narrow it down._"
"""Ends the part of a long reply that is shown, in the engine's markdown."""


def pieces_of(text: str, limit: int, most: int) -> list[str]:
    """``text`` as at most ``most`` messages of at most ``limit`` characters each: shortened
    (:func:`shorten`) as much as it takes, then split (:func:`split_message`)."""
    budget = limit * most
    while True:
        pieces = split_message(shorten(text, budget), limit)
        if len(pieces) <= most or budget <= limit:
            return pieces
        budget -= limit // 2


def shorten(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters: when longer, its first lines and its last paragraph
    (usually the question that follows a list), with a line telling how many lines were left out.

    A reply is read in a chat, not paged through: a 400-row answer is a few messages saying how
    to narrow it down, not a burst of a dozen messages that the platform rate-limits.
    """
    if len(text) <= limit:
        return text
    head, gap, tail = text.rpartition("\n\n")
    if not gap or len(tail) > limit // 4:
        head, tail = text, ""
    lines = head.split("\n")
    budget = limit - len(tail) - len(OMITTED) - 16
    kept: list[str] = []
    used = 0
    for line in lines:
        used += len(line) + 1
        if used > budget:
            break
        kept.append(line)
    if not kept:  # one line longer than everything: cut it
        kept = [lines[0][:budget]]
    shown = "\n".join(kept).rstrip()
    if shown.count("```") % 2:
        shown += "\n```"
    note = OMITTED.format(count=len(lines) - len(kept) or 1)
    return "\n\n".join(part for part in (shown, note, tail) if part)


def split_message(text: str, limit: int) -> list[str]:
    """Pieces of ``text`` of at most ``limit`` characters, cut at a paragraph break in the second
    half of a piece, else at the last line break, so a line (a row of a list or table) is only cut
    when it is longer than a whole piece, then at a word; a fenced code block cut in two is
    closed and reopened."""
    if limit < 16:
        raise ValueError("limit is too small to split messages sensibly")
    pieces: list[str] = []
    rest = text
    while len(rest) > limit:
        window = rest[: limit - 4]  # room to close a code fence
        paragraph = window.rfind("\n\n")
        cut = paragraph if paragraph >= limit // 2 else window.rfind("\n")
        if cut <= 0:
            cut = window.rfind(" ")
        if cut <= 0:
            cut = len(window)
        piece, rest = rest[:cut].rstrip(), rest[cut:].lstrip("\n ")
        if piece.count("```") % 2:
            piece += "\n```"
            rest = "```\n" + rest
        pieces.append(piece)
    if rest.strip() or not pieces:
        pieces.append(rest)
    return pieces



_INLINE = MarkdownIt("commonmark")


def plain_text(markdown: str) -> str:
    """The engine's markdown for a terminal that does not render it: emphasis and code marks dropped,
    a link as its text and, when it differs, its address; lines (lists, paragraphs) kept as written.

    Only inline markdown is read (markdown-it-py, CommonMark), line by line, so a numbered or
    bulleted line stays as the reply wrote it.
    """
    return "\n".join(_plain_line(line) for line in markdown.split("\n"))


def _plain_line(line: str) -> str:
    out: list[str] = []
    link: tuple[str, int] | None = None  # the open link's address, and where its text starts in out
    for block in _INLINE.parseInline(line):
        for token in block.children or ():
            if token.type in ("text", "code_inline", "html_inline", "image"):
                out.append(token.content)
            elif token.type in ("softbreak", "hardbreak"):
                out.append("\n")
            elif token.type == "link_open":
                link = (str(token.attrs.get("href", "")), len(out))
            elif token.type == "link_close" and link is not None:
                href, start = link
                if href and href != "".join(out[start:]):
                    out.append(f" ({href})")
                link = None
    return "".join(out)
