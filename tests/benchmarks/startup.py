"""What a command costs before its first byte: ``python -m tests.benchmarks.startup [--repeat N] [--json FILE]``.

Runs each command as a bot builder does, in a fresh process, offline (no LLM variables) and
on a scratch ``GENIE_DATA_DIR``, ``--repeat`` times, and reports for each:

- the process's CPU time (user + system, from ``wait4``; the median of the runs), in seconds
  and as a ratio to ``python -c pass`` on the same machine at the same moment, so that a busy
  or slow machine reads the same;
- ``python -X importtime`` (the run of median total): the time spent importing, as a ratio to
  ``python -c pass``'s, and the top-level packages that took most of it (what to make lazy next).

``chat`` is measured to its first reply: one message on stdin, then end of input. The targets
of issue 29 are checked: ``--help`` and ``validate`` under 0.5 s of CPU, an offline ``chat``
first reply under 1 s; ``--check`` exits 1 when one is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
AGENTS = REPO / "worksheets"
TODAY = "2026-11-21"


@dataclass(frozen=True)
class Command:
    name: str
    argv: tuple[str, ...]
    stdin: str = ""
    target_seconds: float | None = None


COMMANDS = (
    Command("python -c pass", ("-c", "pass")),
    Command("genie-bot --help", ("-m", "genie_bot.cli", "--help"), target_seconds=0.5),
    Command("genie-bot validate ticket_submission", ("-m", "genie_bot.cli", "validate",
                                                     str(AGENTS / "ticket_submission")), target_seconds=0.5),
    Command("genie-bot validate restaurant_reservation", ("-m", "genie_bot.cli", "validate",
                                                          str(AGENTS / "restaurant_reservation")), target_seconds=0.5),
    *(Command(f"genie-bot chat {agent} (first reply)",
              ("-m", "genie_bot.cli", "chat", str(AGENTS / agent), "--today", TODAY), stdin=message + "\n",
              target_seconds=1.0)
      for agent, message in (("ticket_submission", "I need help with a leave of absence"),
                             ("course_enrollment", "I want to take CS 224N"),
                             ("restaurant_reservation", "a table for 2 in Seattle tomorrow at 7pm"))),
)

LLM_VARIABLES = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_API_KEY",
                 "GENIE_LLM_CONFIG")


@dataclass
class Figures:
    command: str
    cpu_seconds: float
    cpu_ratio: float = 0.0
    import_ms: float = 0.0
    import_ratio: float = 0.0
    heaviest_imports: dict[str, float] = field(default_factory=dict)
    target_seconds: float | None = None

    @property
    def met(self) -> bool | None:
        return None if self.target_seconds is None else self.cpu_seconds < self.target_seconds


def environment(data_dir: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in LLM_VARIABLES}
    return {**env, "GENIE_DATA_DIR": data_dir, "PYTHONDONTWRITEBYTECODE": "", "COLUMNS": "100"}


def cpu_seconds(command: Command, env: dict[str, str]) -> float:
    """User + system CPU of one run of ``command`` (the process and any children it waited for)."""
    with tempfile.TemporaryFile() as stdin:
        stdin.write(command.stdin.encode())
        stdin.seek(0)
        process = subprocess.Popen([sys.executable, *command.argv], stdin=stdin, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, cwd=REPO, env=env)
        assert process.stderr is not None
        errors = process.stderr.read()
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0,):
        raise SystemExit(f"{command.name} failed ({process.returncode}): {errors.decode()[-2000:]}")
    return usage.ru_utime + usage.ru_stime


_IMPORT_LINE = re.compile(r"import time:\s+(\d+) \|\s+\d+ \|( *)(\S+)")


def import_times(command: Command, env: dict[str, str]) -> tuple[float, Counter[str]]:
    """(total ms spent importing, ms per top-level package) from ``python -X importtime``."""
    result = subprocess.run([sys.executable, "-X", "importtime", *command.argv], input=command.stdin, text=True,
                            capture_output=True, cwd=REPO, env=env, check=True)
    per_package: Counter[str] = Counter()
    for match in _IMPORT_LINE.finditer(result.stderr):
        self_us, name = int(match[1]), match[3]
        package = ".".join(name.split(".")[:2]) if name.startswith("genie_bot.") else name.split(".")[0]
        per_package[package] += self_us / 1000
    return sum(per_package.values()), per_package


def measure(repeat: int) -> list[Figures]:
    results: list[Figures] = []
    with tempfile.TemporaryDirectory(prefix="genie-startup-") as data_dir:
        env = environment(data_dir)
        for command in COMMANDS:
            cpu_seconds(command, env)  # warm: byte-code compiled, files in the page cache
            runs = [cpu_seconds(command, env) for _ in range(repeat)]
            total_ms, per_package = sorted((import_times(command, env) for _ in range(repeat)),
                                           key=lambda reading: reading[0])[repeat // 2]
            results.append(Figures(command.name, statistics.median(runs), import_ms=total_ms,
                                   heaviest_imports={k: round(v, 1) for k, v in per_package.most_common(6)},
                                   target_seconds=command.target_seconds))
    baseline = results[0]
    for figures in results:
        figures.cpu_ratio = figures.cpu_seconds / baseline.cpu_seconds if baseline.cpu_seconds else 0.0
        figures.import_ratio = figures.import_ms / baseline.import_ms if baseline.import_ms else 0.0
    return results


def report(results: list[Figures]) -> str:
    lines = [f"{'command':50} {'CPU s':>6} {'x pass':>7} {'imports ms':>10} {'x pass':>7}  target",
             "-" * 96]
    for f in results:
        target = "" if f.met is None else f"< {f.target_seconds:.1f} s " + ("ok" if f.met else "MISSED")
        lines.append(f"{f.command:50} {f.cpu_seconds:6.3f} {f.cpu_ratio:7.1f} {f.import_ms:10.1f} "
                     f"{f.import_ratio:7.1f}  {target}")
    lines.append("")
    lines.append("heaviest imports (ms, self time summed per top-level package):")
    for f in results[1:]:
        lines.append(f"  {f.command}: " + ", ".join(f"{k} {v:.0f}" for k, v in f.heaviest_imports.items()))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5, help="runs per command (the median is reported)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    results = measure(args.repeat)
    print(report(results))
    if args.json:
        args.json.write_text(json.dumps([asdict(f) for f in results], indent=2) + "\n")
    return 1 if args.check and any(f.met is False for f in results) else 0


if __name__ == "__main__":
    sys.exit(main())
