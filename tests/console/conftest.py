"""Browser tests of the web console: headless Chromium driven by Playwright.

Without a browser (Debian's chromium at /usr/bin/chromium, or GENIE_TEST_CHROMIUM) or the
playwright package, a plain ``pytest`` skips these tests and says why; CI (``.ci/run``) sets
``GENIE_REQUIRE_BROWSER=1``, which turns a missing browser into a failure, as
``GENIE_REQUIRE_POSTGRES`` does for PostgreSQL.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.engine.conftest import pg_url  # noqa: F401 - a PostgreSQL schema per test, for stored sessions

CHROMIUM = os.environ.get("GENIE_TEST_CHROMIUM", "/usr/bin/chromium")


def _browser_problem() -> str | None:
    if importlib.util.find_spec("playwright") is None:
        return "playwright is not installed (pip install -e '.[test]')"
    if not Path(CHROMIUM).is_file():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium, or set GENIE_TEST_CHROMIUM)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator:
    """Chromium for the tests of one module: Playwright's synchronous API holds an event loop in this
    thread while it runs, which tests elsewhere (asyncio.run) must not find."""
    problem = _browser_problem()
    if problem:
        if os.environ.get("GENIE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"a browser is required (GENIE_REQUIRE_BROWSER=1) but {problem}")
        pytest.skip(f"browser tests skipped: {problem}")
    from .harness import chromium

    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser) -> Iterator:
    """A fresh browser context (no cookies) and page; any script error on the page fails the test."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"script errors on the page: {errors}"
