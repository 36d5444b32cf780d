"""Set-up shared by the benchmark scripts: a scratch directory with the shop agent and a migrated store."""

from __future__ import annotations

import os
import statistics
import tempfile
from pathlib import Path

from tests.engine.support import prepare_database, write_shop


def scratch(url: str | None) -> tuple[str, Path]:
    """(database URL, agent directory) in a fresh temporary directory; API side effects go there too."""
    directory = Path(tempfile.mkdtemp(prefix="genie-bench-"))
    os.environ["GENIE_DATA_DIR"] = str(directory / "data")
    url = url or f"sqlite:///{directory / 'engine.sqlite3'}"
    prepare_database(url)
    return url, write_shop(directory / "shop")


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return (f"median {statistics.median(ordered):.2f} ms, p90 {pick(0.9):.2f} ms, p99 {pick(0.99):.2f} ms, "
            f"max {ordered[-1]:.2f} ms (n={len(ordered)})")
