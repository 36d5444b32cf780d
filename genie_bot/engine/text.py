"""Text as platforms deliver it, made storable and readable before anything keeps it."""

from __future__ import annotations


def well_formed(text: str) -> str:
    """``text`` with each lone UTF-16 surrogate replaced by U+FFFD (JSON may carry one, as in
    ``"help \\ud83d with a waitlist"``, which neither database nor platform takes back) and each
    pair of surrogates joined into the character it encodes."""
    if text.isascii():
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
