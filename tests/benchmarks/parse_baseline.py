"""The rule parser's cost per utterance, against a stored baseline that only goes down: a slower parse fails CI.

``python -m tests.benchmarks.parse_baseline [--check | --ratchet | --update [--reason TEXT]] [--repeat 7] [--json OUT]``

A fixed list of conversations with the three example agents (:data:`CONVERSATIONS`) is played
offline, each message parsed in the state the conversation has reached; each parse's CPU time
is the median of ``--repeat`` plays, each with a new knowledge store (no name lookup cached
from the play before). Times are stored and compared as ratios to a fixed calibration workload
(:func:`calibration_work`: pure Python of the kind the parser does) measured in the same run,
before and after the parses, so the baseline holds on a faster or slower machine: a machine
twice as slow takes twice as long for both, and the ratio stays; a parser twice as slow doubles it.

``--check`` (run by ``.ci/run``) fails when an utterance costs more than the baseline's
``limit`` times its ratio (beyond ``slack`` calibration units, below which timings are noise)
in the first measurement and again in a second one of the utterances over it, with
:data:`CONFIRM_REPEAT` times as many plays (a shared machine's neighbour can slow one
utterance's few plays by more than the limit; a slower parse is slower in both),
when the calibration workload is not the one the baseline was measured with, and when any
version of the baseline raised the one before it without a recorded reason
(:mod:`.parse_ratchet`; ``--ratchet`` checks only that, without timing anything).
``--update`` rewrites the baseline (``parse_baseline.json`` beside this file): when the new
figures let some parse cost more than the committed baseline, it refuses unless ``--reason``
says why, and then records the reason with the figures before and after in
``parse_baseline_raises.json``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import inspect
import json
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from tests.conftest import WORKSHEETS

from . import parse_ratchet as ratchet

BASELINE = Path(__file__).with_name("parse_baseline.json")
RAISES = Path(__file__).with_name("parse_baseline_raises.json")
TODAY = dt.date(2026, 11, 21)
LIMIT = 1.5
"""A parse may cost this many times its baseline (stored in the baseline: raising it is a raise)."""
SLACK = 0.02
CONFIRM_REPEAT = 3
"""How many times ``--repeat`` plays measure again the utterances the first measurement put over the limit."""
"""Calibration units (about 0.1 ms) a parse may grow by whatever its baseline: timer and cache noise."""
CONVERSATIONS: dict[str, list[list[str]]] = {
    "ticket_submission": [
        ["hi, I need help", "I want to join the waitlist for a course", "CS 224V", "winter", "not yet",
         "Jane Doe", "jane.doe@stanford.edu", "yes"],
        ["my AP credits are missing, I sent the scores on september 15", "skip", "Ann Lee", "ann@stanford.edu",
         "actually my name is Anne Leigh", "yes please"],
        ["I need to take a leave of absence", "not yet", "actually I did submit it, online, on november 2",
         "spring", "I'm going abroad for a family matter"],
        ["i want to change a course", "CS 106A", "what's the status of my ticket?", "cancel"],
    ],
    "course_enrollment": [
        ["hi im trying to get into cs 161 but the class is full", "CS 224V", "letter", "4",
         "actually make it 3 units", "no", "yes"],
        ["what r some easy intro classes", "how many units is cs106a", "ok enroll me in that one, credit no credit",
         "5", "never mind"],
        ["enrol me in cs 229 and cs 224v pls", "letter grade please", "3 units for cs 229 and 4 for cs 224v",
         "who teaches cs 224v?", "is cs 229 offered in spring?"],
    ],
    "restaurant_reservation": [
        ["book a table at Enoteca Vigna for 4 tomorrow at 7pm", "we need a high chair", "yes"],
        ["quiet italian places in seattle", "what time does cucina rosso close", "book it for friday at 8",
         "2 people", "no"],
        ["can i get a table at the salt tavern on saturday around 8 for 3 ppl", "is it good for kids?",
         "actually make it 7:30pm", "yes please"],
        ["any vegan spots in palo alto?", "harvest and grain sounds good", "tmrw 6pm for 5", "yes"],
    ],
}


def calibration_work() -> int:
    """A fixed piece of pure Python of the kind the parser does: regular expressions, dicts, strings.

    Changing it changes every ratio: the baseline records which workload it was measured with
    (:func:`calibration_fingerprint`), and a baseline measured with another one is a raise.
    """
    words = re.compile(r"[a-z]+")
    text = "book a table at enoteca vigna for four people tomorrow at seven in the evening please " * 8
    seen: dict[str, int] = {}
    for i in range(300):
        for word in words.findall(text[i % 40:]):
            seen[word + str(i % 7)] = seen.get(word, 0) + len(word.upper())
    return len(seen)


def calibration_fingerprint() -> str:
    return hashlib.sha256(inspect.getsource(calibration_work).encode()).hexdigest()[:16]


def calibration_ms(repeat: int = 7) -> float:
    """The median CPU time of :func:`calibration_work`."""
    return statistics.median(_cpu_ms(calibration_work) for _ in range(repeat))


def parse_costs(repeat: int) -> dict[str, float]:
    """``agent: n.m: message`` -> the median CPU ms of its parse."""
    from genie_bot.agent import Agent
    from genie_bot.agent.components import offline_components
    from genie_bot.spec import load_agent

    times: dict[str, list[float]] = {}
    for name, conversations in CONVERSATIONS.items():
        spec = load_agent(WORKSHEETS / name)
        clock = lambda: dt.datetime.combine(TODAY, dt.time(12))  # noqa: E731
        for _ in range(repeat):
            agent = Agent.from_components(offline_components(spec, clock))  # a new store: nothing cached
            for number, messages in enumerate(conversations, 1):
                state = agent.new_state()
                for turn, message in enumerate(messages, 1):
                    key = f"{name}: {number}.{turn}: {message}"
                    times.setdefault(key, []).append(_cpu_ms(lambda: agent.parser.parse(spec, state, message, TODAY)))
                    state = agent.respond(state, message).state
    return {key: statistics.median(values) for key, values in times.items()}


def figures_of(current: dict[str, float], unit: float) -> dict[str, Any]:
    """The baseline's figures for parse times ``current`` (ms) measured beside a calibration run of ``unit`` ms."""
    return {"calibration_ms": round(unit, 3), "calibration_workload": calibration_fingerprint(), "limit": LIMIT,
            "slack": SLACK, "ratios": {k: round(v / unit, 4) for k, v in current.items()},
            "median_parse_ms": round(statistics.median(current.values()), 3),
            "total_parse_ms": round(sum(current.values()), 2)}


def compare(baseline: dict[str, Any], current: dict[str, float], unit: float) -> tuple[list[str], list[str]]:
    """(lines of the report, the keys of the utterances over the limit): ``current`` parse times (ms),
    normalised by ``unit`` (the calibration's ms in the same run), against the baseline's ratios."""
    limit, slack = baseline.get("limit", LIMIT), baseline.get("slack", SLACK)
    lines, over = [], []
    for key, ms in current.items():
        ratio = ms / unit
        before = baseline["ratios"].get(key)
        if before is None:
            lines.append(f"  new   {ms:7.2f} ms  {key}")
            continue
        factor = ratio / before if before else float("inf")
        mark = "OVER" if ratio > limit * before + slack else "ok"
        lines.append(f"  {mark:4}  {ms:7.2f} ms  {factor:5.2f}x  {key}")
        if mark == "OVER":
            over.append(key)
    return lines, over


def ratchet_problems() -> list[str]:
    """Raises of the baseline in the repository's history without a recorded reason (:mod:`.parse_ratchet`)."""
    try:
        versions = ratchet.history(BASELINE)
        shallow = ratchet.shallow(BASELINE)
    except RuntimeError as exc:
        return [f"cannot read the baseline's history, so cannot tell whether it was raised: {exc}"]
    if shallow:
        print("parse_baseline: a shallow clone: raises before its first commit are not seen", file=sys.stderr)
    return ratchet.problems(versions, ratchet.load_records(RAISES))


def update(figures: dict[str, Any], reason: str | None) -> int:
    """Write ``figures`` as the baseline; a raise over the committed one needs ``reason``, which is recorded."""
    text = json.dumps(figures, indent=2) + "\n"
    base = ratchet.committed(BASELINE) or (ratchet.Version("the working tree", BASELINE.read_text(encoding="utf-8"))
                                           if BASELINE.exists() else None)
    new = ratchet.Version("the new figures", text)
    raised = ratchet.raises(base.figures, figures) if base else []
    if raised and not (reason and reason.strip()):
        print("parse_baseline: the new figures raise the baseline; say why with --reason:\n  "
              + "\n  ".join(raised), file=sys.stderr)
        return 1
    BASELINE.write_text(text, encoding="utf-8")
    if raised and base and reason:
        committed = {v.sha256 for v in ratchet.history(BASELINE) if v.source != "the working tree"}
        kept = [r for r in ratchet.load_records(RAISES) if r.get("baseline_sha256") in committed]
        ratchet.save_records(RAISES, [*kept, ratchet.record(base, new, reason.strip())])
        print(f"parse_baseline: recorded the raise in {RAISES.name}")
    print(f"parse_baseline: wrote {BASELINE} ({len(figures['ratios'])} utterances)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="fail above the baseline's limit, or on a raise of the baseline with no recorded reason")
    parser.add_argument("--ratchet", action="store_true", help="only check that the baseline was never raised silently")
    parser.add_argument("--update", action="store_true", help="write the baseline")
    parser.add_argument("--reason", help="with --update: why the baseline may rise (recorded beside it)")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if args.check or args.ratchet:
        silent = ratchet_problems()
        for problem in silent:
            print(f"parse_baseline: {problem}", file=sys.stderr)
        if silent or args.ratchet:
            return 1 if silent else 0
    baseline = json.loads(BASELINE.read_text(encoding="utf-8"))
    if args.check and baseline.get("calibration_workload") != calibration_fingerprint():
        print("parse_baseline: the calibration workload is not the one the baseline was measured with; "
              "measure it again with --update --reason", file=sys.stderr)
        return 1
    unit = calibration_ms()
    current = parse_costs(args.repeat)
    unit = min(unit, calibration_ms())  # measured again after: the machine's load may have changed
    figures = figures_of(current, unit)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    if args.update:
        return update(figures, args.reason)
    lines, over = compare(baseline, current, unit)
    total = figures["total_parse_ms"] / unit / (sum(baseline["ratios"].values()) or 1)
    if args.check and over:
        print(f"parse_baseline: {len(over)} over the limit; measuring again with {args.repeat * CONFIRM_REPEAT} plays",
              file=sys.stderr)
        again = {key: ms for key, ms in parse_costs(args.repeat * CONFIRM_REPEAT).items() if key in over}
        unit_again = min(unit, calibration_ms())
        lines_again, over = compare(baseline, again, unit_again)
        lines += ["  measured again:", *lines_again]
        current, unit = {**current, **again}, unit_again
    print("\n".join(lines))
    print(f"parse_baseline: {len(current)} utterances, median {figures['median_parse_ms']} ms, all together "
          f"{total:.2f}x the baseline (calibration {unit:.2f} ms here, {baseline['calibration_ms']} ms then)")
    limit = baseline.get("limit", LIMIT)
    for key in over:
        factor = current[key] / unit / baseline["ratios"][key]
        print(f"parse_baseline: {key}: {factor:.2f}x its baseline (limit {limit}x)", file=sys.stderr)
    return 1 if args.check and over else 0


def _cpu_ms(fn: Any) -> float:
    started = time.process_time()
    fn()
    return (time.process_time() - started) * 1000


if __name__ == "__main__":
    sys.exit(main())
