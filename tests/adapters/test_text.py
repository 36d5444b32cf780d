from hypothesis import given
from hypothesis import strategies as st

from genie_bot.adapters.text import shorten, split_message


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
    # Nothing is lost or reordered: the text without its spaces (and the fences a split adds) is the same. A
    # word longer than the limit is cut, so pieces are not compared word by word.
    squashed = lambda s: "".join(s.replace("```", "").split())  # noqa: E731
    assert squashed("".join(pieces)) == squashed(text)


ROWS = "\n".join(f"• Salad {i}: tomato, basil, mozzarella, olive oil, balsamic, salt, pepper" for i in range(400))


def test_rows_are_never_split_even_after_a_long_line():
    intro, row = "Salads with basil: " + "x" * 380, "• Caprese: " + ", ".join(["tomato", "basil", "mozzarella"] * 60)
    pieces = split_message(f"{intro}\n{row}\n{row}", 2000)
    assert pieces == [intro, row, row]


_line = st.text(st.characters(blacklist_characters="\n`", blacklist_categories=("Cs",)), min_size=1, max_size=300)


@given(st.lists(_line.map(str.strip).filter(bool), min_size=1, max_size=40))
def test_lines_shorter_than_a_piece_are_kept_whole(lines):
    pieces = split_message("\n".join(lines), 320)
    assert [line for piece in pieces for line in piece.split("\n")] == lines


def test_a_long_answer_is_shortened_to_its_first_rows_and_its_question():
    text = f"I found 400 salads:\n{ROWS}\n\nWhich one would you like?"
    short = shorten(text, 9000)
    shown = short.split("\n")
    assert len(short) <= 9000 and shown[-1] == "Which one would you like?"
    assert shown[0] == "I found 400 salads:" and all(line in ROWS for line in shown[1:-4])
    kept = len([line for line in shown if line.startswith("• Salad")])
    assert shown[-3] == f"_… {400 - kept} more lines not shown. Ask me to narrow it down._"


def test_short_text_is_not_shortened():
    assert shorten("hello\n\nworld", 100) == "hello\n\nworld"


@given(st.text(min_size=0, max_size=6000), st.integers(min_value=200, max_value=3000))
def test_shortened_text_fits(text, limit):
    assert len(shorten(text, limit)) <= limit
