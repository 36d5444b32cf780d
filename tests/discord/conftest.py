"""Fixtures of the Discord adapter tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from .harness import Deployment


@pytest.fixture
def deployment(tmp_path: Path) -> Deployment:
    return Deployment.create(tmp_path)
