from hypothesis import given
from hypothesis import strategies as st

from genie_bot.adapters.text import split_message


def test_short_text_is_one_piece():
    assert split_message("hello", 100) == ["hello"]


def test_splits_at_paragraphs_then_words():
    text = "first paragraph " * 3 + "\n\n" + "second " * 10
    pieces = split_message(text, 60)
    assert pieces[0] == ("first paragraph " * 3).strip()
    assert all(len(p) <= 60 for p in pieces)
    assert " ".join(" ".join(pieces).split()) == " ".join(text.split())


def test_code_fences_are_closed_and_reopened():
    text = "```\n" + "\n".join(f"line {i}" for i in range(40)) + "\n```"
    pieces = split_message(text, 80)
    assert len(pieces) > 1 and all(p.count("```") % 2 == 0 for p in pieces)


@given(st.text(min_size=0, max_size=3000), st.integers(min_value=16, max_value=500))
def test_every_piece_fits_and_no_word_is_lost(text, limit):
    pieces = split_message(text, limit)
    assert all(len(p) <= limit for p in pieces)
    words = lambda s: [w for w in s.replace("```", " ").split()]  # noqa: E731
    assert words("".join(pieces)) == words(text) or words(" ".join(pieces)) == words(text)
