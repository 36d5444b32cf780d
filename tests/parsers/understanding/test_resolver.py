"""The resolver on hand-made proposals: the best set of readings that fit together, ties, margins.

Proposals here are made by hand with evidence of known weights (a table of this test's own), for
the fields of a table being booked at Enoteca Vigna (the restaurant agent), so that what the
resolver chooses, and the margin it reports, can be worked out by hand.
"""

from __future__ import annotations

import itertools
import random

import pytest

from genie_bot.language.words import using
from genie_bot.parse import Parse
from genie_bot.parsers.understanding import context, lexicon
from genie_bot.parsers.understanding.context import Target
from genie_bot.parsers.understanding.proposals import LINES, VALUE, Proposal
from genie_bot.parsers.understanding.resolver import Choice, resolve
from genie_bot.parsers.understanding.weights import Weights
from genie_bot.parsers.understanding.writer import written

from .chat import BOOKING_PEOPLE, RESTAURANT, booking, spec_of

MARGIN = 0.5
WEIGHTS = Weights({f"w{n}": float(n) for n in range(1, 7)} | {"half": 0.5, "quarter": 0.25, "worthless": -1.0}, MARGIN)
"""Evidence ``wN`` weighs N; the margin under which a value is asked about instead of stored is 0.5."""
FIELDS = spec_of(RESTAURANT).tasks["BookRestaurant"].fields


def target(name: str) -> Target:
    return Target("book_restaurant_0", "BookRestaurant", FIELDS[name])


def value(field: str, val: object, *evidence: str, claims: tuple[int, ...] = ()) -> Proposal:
    t = target(field)
    return Proposal(VALUE, frozenset(evidence), frozenset(claims), frozenset({t.key}), target=t, value=val)


def whole(line: str, *evidence: str, claims: tuple[int, ...] = (0, 1, 2)) -> Proposal:
    return Proposal(LINES, frozenset(evidence), frozenset(claims), exclusive=True, lines=(line,))


def keys(choice: Choice) -> set[tuple]:
    return {p.key for p in choice.chosen}


def parse_of(text: str, proposals: list[Proposal]) -> Parse:
    """What the writer makes of the resolver's choice, for ``text`` said while the number of people is asked
    (the date and the time are held already)."""
    chat = booking(*BOOKING_PEOPLE)
    with using(lexicon(chat.spec)):
        ctx = context(chat.spec, chat.state, text, chat.today, None)
        return written(ctx, resolve(proposals, WEIGHTS))


# -- the best set that fits together -----------------------------------------------------------------------

def test_two_readings_that_fit_together_beat_one_reading_worth_more_than_either():
    people = value("num_people", 4, "w2", claims=(0,))
    time = value("time", "20:00", "w2", claims=(1,))
    both = value("special_request", "4 at 8", "w3", claims=(0, 1))
    assert keys(resolve([both, people, time], WEIGHTS)) == {people.key, time.key}


def test_one_reading_worth_more_than_the_two_it_overlaps_is_taken_alone():
    people = value("num_people", 4, "w1", claims=(0,))
    time = value("time", "20:00", "w1", claims=(1,))
    both = value("special_request", "4 at 8", "w3", claims=(0, 1))
    assert keys(resolve([people, time, both], WEIGHTS)) == {both.key}


def test_a_reading_of_the_whole_message_stands_alone():
    people = value("num_people", 4, "w2", claims=(0,))
    time = value("time", "20:00", "w2", claims=(1,))
    command = whole("exitws()", "w3")
    assert keys(resolve([people, time, command], WEIGHTS)) == {people.key, time.key}
    louder = whole("exitws()", "w5")
    assert keys(resolve([people, time, louder], WEIGHTS)) == {louder.key}


def test_a_reading_worth_nothing_is_never_chosen():
    assert resolve([value("num_people", 4, "worthless", claims=(0,))], WEIGHTS).chosen == ()
    assert resolve([value("num_people", 4, claims=(0,))], WEIGHTS).chosen == ()


def test_the_same_reading_proposed_twice_is_one_reading_with_its_best_evidence():
    weak, strong = value("num_people", 4, "w1", claims=(0,)), value("num_people", 4, "w3", claims=(0,))
    for proposals in ([weak, strong], [strong, weak]):
        choice = resolve(proposals, WEIGHTS)
        assert choice.chosen == (strong,) and not choice.rivals


def test_the_same_reading_proposed_twice_over_other_words_is_chosen_whatever_the_order():
    people, people_elsewhere = value("num_people", 4, "w2", claims=(0,)), value("num_people", 4, "w2", claims=(1,))
    time = value("time", "20:00", "w2", claims=(1,))
    assert keys(resolve([people, people_elsewhere, time], WEIGHTS)) == keys(
        resolve([people_elsewhere, people, time], WEIGHTS))


def fits(chosen: tuple[Proposal, ...] | list[Proposal]) -> bool:
    return not any(a.conflicts(b) for a, b in itertools.combinations(chosen, 2))


def random_proposals(rng: random.Random) -> list[Proposal]:
    """Up to 9 readings of 4 words, each its own (no two alike: the same reading twice is tested on its own)."""
    out = []
    for n in range(rng.randint(2, 9)):
        if rng.random() < 0.15:
            out.append(whole(f"# line {n}", f"w{rng.randint(1, 6)}"))
            continue
        words = tuple(sorted(rng.sample(range(4), rng.randint(1, 2))))
        out.append(value(rng.choice(["num_people", "time", "date", "special_request"]), n,
                         *rng.sample(["w1", "w2", "w3", "w4", "half", "worthless"], rng.randint(1, 2)), claims=words))
    return out


@pytest.mark.parametrize("seed", range(60))
def test_the_chosen_set_fits_together_and_no_set_that_fits_is_worth_more(seed):
    proposals = random_proposals(random.Random(seed))
    choice = resolve(proposals, WEIGHTS)
    assert fits(choice.chosen)
    worth = [p for p in proposals if choice.scores[p] > 0]
    best = max(sum(choice.scores[p] for p in subset) for n in range(len(worth) + 1)
               for subset in itertools.combinations(worth, n) if fits(subset))
    assert sum(choice.scores[p] for p in choice.chosen) == pytest.approx(best)


@pytest.mark.parametrize("seed", range(30))
def test_the_order_proposals_come_in_changes_nothing(seed):
    rng = random.Random(seed)
    proposals = random_proposals(rng)
    reordered = proposals[::-1] if seed % 2 else rng.sample(proposals, len(proposals))
    a, b = resolve(proposals, WEIGHTS), resolve(reordered, WEIGHTS)
    assert [p.key for p in a.chosen] == [p.key for p in b.chosen]
    assert {p.key: m for p, m in a.margins.items()} == {p.key: m for p, m in b.margins.items()}
    assert {p.key: r.key for p, (r, _) in a.rivals.items()} == {p.key: r.key for p, (r, _) in b.rivals.items()}


# -- conflicts ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("a, b", [
    (value("num_people", 4, "w3", claims=(0,)), value("num_people", 5, "w2", claims=(1,))),  # one field, two values
    (value("num_people", 4, "w3", claims=(0,)), value("time", "16:00", "w2", claims=(0,))),  # the same words
    (value("num_people", 4, "w3", claims=(0,)), whole("# a remark", "w2", claims=(1,))),  # one reads the whole message
], ids=["one field", "same words", "whole message"])
def test_conflicting_readings_are_never_both_chosen(a, b):
    assert a.conflicts(b) and b.conflicts(a)
    for proposals in ([a, b], [b, a]):
        assert keys(resolve(proposals, WEIGHTS)) == {a.key}


# -- ties are ambiguities -------------------------------------------------------------------------------------

def test_a_tie_between_two_values_of_one_field_is_asked_about_and_nothing_is_stored():
    four, five = value("num_people", 4, "w2", claims=(0,)), value("num_people", 5, "w2", claims=(2,))
    for proposals in ([four, five], [five, four]):
        choice = resolve(proposals, WEIGHTS)
        ((chosen, (rival, margin)),) = choice.rivals.items()
        assert {chosen.key, rival.key} == {four.key, five.key} and margin == 0
        parse = parse_of("4 or 5", proposals)
        assert not parse.understood and "num_people" not in parse.statements
        assert parse.reason == "Did you mean 4 or 5?"


def test_a_tie_between_two_fields_for_the_same_words_asks_which_field():
    people, time = value("num_people", 8, "w2", claims=(0,)), value("time", "20:00", "w2", claims=(0,))
    for proposals in ([people, time], [time, people]):
        parse = parse_of("8", proposals)
        assert not parse.understood and not parse.statements
        assert parse.reason.startswith("Is ") and "number of people" in parse.reason.lower()


def test_a_tie_is_not_broken_by_which_matcher_proposed_a_reading():
    """A proposal carries nothing of the matcher that made it (its key is what it means); what could still
    break a tie is the order readings come in: either order, the tie is the same question and nothing is stored."""
    assert not any("matcher" in name for name in Proposal.__dataclass_fields__)
    four, five = value("num_people", 4, "w2", claims=(0,)), value("num_people", 5, "w2", claims=(2,))
    parses = [parse_of("4 or 5", order) for order in ([four, five], [five, four])]
    assert {(p.understood, p.statements, p.reason) for p in parses} == {(False, "", "Did you mean 4 or 5?")}


def test_a_value_ahead_by_less_than_the_margin_is_asked_about_and_by_more_is_stored():
    close = [value("num_people", 4, "w2", "quarter", claims=(0,)), value("num_people", 5, "w2", claims=(2,))]
    parse = parse_of("4 or 5", close)
    assert parse.understood is False and parse.reason == "Did you mean 4 or 5?"
    clear = [value("num_people", 4, "w3", claims=(0,)), value("num_people", 5, "w2", claims=(2,))]
    parse = parse_of("4 or 5", clear)
    assert (parse.understood, parse.statements) == (True, "book_restaurant_0.num_people = 4")


# -- the margin -----------------------------------------------------------------------------------------------

def test_the_margin_is_the_gap_to_the_runner_up():
    best, runner_up = value("num_people", 4, "w5", claims=(0,)), value("num_people", 5, "w2", claims=(2,))
    choice = resolve([best, runner_up], WEIGHTS)
    assert choice.margins == {best: pytest.approx(3.0)} and not choice.rivals
    assert parse_of("4 or 5", [best, runner_up]).margin == pytest.approx(3.0)


def test_the_margin_of_a_value_without_a_rival_is_all_it_is_worth():
    only = value("num_people", 4, "w4", claims=(0,))
    assert parse_of("4", [only]).margin == pytest.approx(4.0)


def test_the_parse_reports_the_smallest_margin_of_its_values():
    people = value("num_people", 4, "w5", claims=(0,))
    other_people = value("num_people", 5, "w3", claims=(0,))
    time = value("time", "20:00", "w4", claims=(2,))
    other_time = value("time", "20:30", "w1", claims=(2,))
    choice = resolve([people, other_people, time, other_time], WEIGHTS)
    assert choice.margins == {people: pytest.approx(2.0), time: pytest.approx(3.0)}
    parse = parse_of("4 at 8", [people, other_people, time, other_time])
    assert parse.margin == pytest.approx(2.0)
    assert sorted(parse.statements.splitlines()) == ["book_restaurant_0.num_people = 4",
                                                     "book_restaurant_0.time = '20:00'"]


def test_a_parse_without_values_has_no_margin():
    assert parse_of("hi", [whole("# chit-chat", "w1", claims=(0,))]).margin is None
