"""Splitting long replies within a platform's message size limit, at natural boundaries."""

from __future__ import annotations


def split_message(text: str, limit: int) -> list[str]:
    """Pieces of ``text`` of at most ``limit`` characters, cut at paragraph, line, then word
    boundaries when possible; a fenced code block cut in two is closed and reopened."""
    if limit < 16:
        raise ValueError("limit is too small to split messages sensibly")
    pieces: list[str] = []
    rest = text
    while len(rest) > limit:
        window = rest[: limit - 4]  # room to close a code fence
        cut = max(window.rfind("\n\n"), window.rfind("\n"))
        if cut < limit // 2:
            cut = window.rfind(" ")
        if cut < limit // 2:
            cut = len(window)
        piece, rest = rest[:cut].rstrip(), rest[cut:].lstrip("\n ")
        if piece.count("```") % 2:
            piece += "\n```"
            rest = "```\n" + rest
        pieces.append(piece)
    if rest.strip() or not pieces:
        pieces.append(rest)
    return pieces
