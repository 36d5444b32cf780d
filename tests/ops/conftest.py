"""Fixtures of the operator tests: a deployment's genie.yaml with the ticket agent on SQLite."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import WORKSHEETS
from tests.engine.support import prepare_database

TICKETS = WORKSHEETS / "ticket_submission"


@pytest.fixture
def genie_yaml(tmp_path: Path):
    """``genie_yaml(extra="")``: a migrated deployment config serving the ticket agent; returns its path."""

    def make(extra: str = "") -> Path:
        path = tmp_path / "genie.yaml"
        path.write_text(f"database: {{url: 'sqlite:///{tmp_path / 'genie.sqlite3'}'}}\n"
                        f"agents: {{tickets: {TICKETS}}}\nscheduler: {{enabled: false}}\n{extra}", encoding="utf-8")
        prepare_database(f"sqlite:///{tmp_path / 'genie.sqlite3'}")
        return path

    return make
