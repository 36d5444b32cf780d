"""Where a benchmark's CPU time went: per process (from ``/proc``), PostgreSQL, and the machine.

On a small machine a scale-out figure means little without knowing whether the cores were
already busy: these readings say how many CPU-seconds each part of a run used and how busy
the whole machine was, so turns per second can be read against the CPU that was left.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def process_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process so far (its threads included); None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS


def named_seconds(name: str) -> float:
    """CPU seconds of every live process called ``name`` (e.g. all PostgreSQL backends)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    total += process_seconds(int(entry.name)) or 0.0
            except OSError:
                continue
    return total


def machine_ticks() -> tuple[int, int]:
    """(busy, total) clock ticks of all cores since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


@dataclass
class CpuReading:
    processes: dict[str, float | None]
    postgres: float
    machine: tuple[int, int]

    @classmethod
    def now(cls, pids: dict[str, int]) -> "CpuReading":
        return cls({name: process_seconds(pid) for name, pid in pids.items()}, named_seconds("postgres"),
                   machine_ticks())

    def since(self, before: "CpuReading") -> dict[str, object]:
        """CPU seconds used between ``before`` and this reading, and how busy the machine was."""
        used = {name: round(seconds - before.processes[name], 2)
                for name, seconds in self.processes.items()
                if seconds is not None and before.processes.get(name) is not None}
        busy, total = (a - b for a, b in zip(self.machine, before.machine))
        return {"cpu_seconds": {**used, "postgres": round(self.postgres - before.postgres, 2)},
                "machine_busy_share": round(busy / total, 3) if total else None, "cores": os.cpu_count()}
