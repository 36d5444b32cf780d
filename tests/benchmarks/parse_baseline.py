"""The rule parser's cost per utterance, against a stored baseline: a slower parse fails CI.

``python -m tests.benchmarks.parse_baseline [--check] [--update] [--repeat 7] [--json OUT]``

A fixed list of conversations with the three example agents (:data:`CONVERSATIONS`) is played
offline, each message parsed in the state the conversation has reached; each parse's CPU time
is the median of ``--repeat`` plays, each with a new knowledge store (no name lookup cached
from the play before). Times are stored and compared as ratios to a calibration workload run
in the same process (:func:`calibration_ms`: pure Python of the kind the parser does), so the
baseline holds on a faster or slower machine. ``--check`` (run by ``.ci/run``) fails when an
utterance costs more than :data:`LIMIT` times its baseline (beyond :data:`SLACK` calibration
units, below which timings are noise); ``--update`` rewrites the baseline
(``parse_baseline.json`` beside this file) after a change that is meant to cost more.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from tests.conftest import WORKSHEETS

BASELINE = Path(__file__).with_name("parse_baseline.json")
TODAY = dt.date(2026, 11, 21)
LIMIT = 1.5
SLACK = 0.02
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


def calibration_ms(repeat: int = 7) -> float:
    """The median CPU time of a fixed piece of pure Python: regular expressions, dicts, strings."""
    words = re.compile(r"[a-z]+")
    text = "book a table at enoteca vigna for four people tomorrow at seven in the evening please " * 8

    def work() -> int:
        seen: dict[str, int] = {}
        for i in range(300):
            for word in words.findall(text[i % 40:]):
                seen[word + str(i % 7)] = seen.get(word, 0) + len(word.upper())
        return len(seen)

    return statistics.median(_cpu_ms(work) for _ in range(repeat))


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


def compare(baseline: dict[str, Any], current: dict[str, float], unit: float) -> tuple[list[str], list[str]]:
    """(lines of the report, the utterances over the limit)."""
    lines, over = [], []
    for key, ms in current.items():
        ratio = ms / unit
        before = baseline["ratios"].get(key)
        if before is None:
            lines.append(f"  new   {ms:7.2f} ms  {key}")
            continue
        factor = ratio / before if before else float("inf")
        mark = "OVER" if ratio > LIMIT * before + SLACK else "ok"
        lines.append(f"  {mark:4}  {ms:7.2f} ms  {factor:5.2f}x  {key}")
        if mark == "OVER":
            over.append(f"{key}: {factor:.2f}x its baseline (limit {LIMIT}x)")
    return lines, over


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help=f"fail above {LIMIT}x the baseline")
    parser.add_argument("--update", action="store_true", help="write the baseline")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    unit = calibration_ms()
    current = parse_costs(args.repeat)
    unit = min(unit, calibration_ms())  # measured again after: the machine's load may have changed
    figures = {"calibration_ms": round(unit, 3), "ratios": {k: round(v / unit, 4) for k, v in current.items()},
               "median_parse_ms": round(statistics.median(current.values()), 3),
               "total_parse_ms": round(sum(current.values()), 2)}
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    if args.update:
        BASELINE.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        print(f"parse_baseline: wrote {BASELINE} ({len(current)} utterances, median {figures['median_parse_ms']} ms)")
        return 0
    baseline = json.loads(BASELINE.read_text(encoding="utf-8"))
    lines, over = compare(baseline, current, unit)
    total = figures["total_parse_ms"] / unit / (sum(baseline["ratios"].values()) or 1)
    print("\n".join(lines))
    print(f"parse_baseline: {len(current)} utterances, median {figures['median_parse_ms']} ms, all together "
          f"{total:.2f}x the baseline (calibration {unit:.2f} ms here, {baseline['calibration_ms']} ms then)")
    for problem in over:
        print(f"parse_baseline: {problem}", file=sys.stderr)
    return 1 if args.check and over else 0


def _cpu_ms(fn: Any) -> float:
    started = time.process_time()
    fn()
    return (time.process_time() - started) * 1000


if __name__ == "__main__":
    sys.exit(main())
