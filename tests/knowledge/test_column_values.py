"""Values of a table's categorical columns named in a message, and values that are a number with
a word ("5 gallon"), whose number counts nothing."""

from __future__ import annotations

from genie_bot.knowledge.column_values import ColumnValues

SIZES = ColumnValues({"size": ["1 quart", "1 gallon", "5 gallon", "12 oz"], "finish": ["matte", "satin"]})


def test_a_number_with_the_word_of_a_value_is_that_value():
    text = "cloud white 5 gallon x2"
    assert [text[s:e] for s, e in SIZES.numbered(text)] == ["5 gallon"]  # not the "x2" after it
    other = "two cans, 12 oz each"
    assert [other[s:e] for s, e in SIZES.numbered(other)] == ["12 oz"]


def test_a_count_of_something_else_is_no_value():
    assert SIZES.numbered("3 gallons please") == []  # "3 gallon" is no size
    assert SIZES.numbered("for 4 tomorrow") == []
    assert ColumnValues({"finish": ["matte"]}).numbered("5 gallon") == []  # no value is a number


def test_values_named_by_their_words():
    assert SIZES.find("the satin one, a quart") == {"finish": "satin", "size": "1 quart"}
