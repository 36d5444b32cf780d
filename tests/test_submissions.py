"""The example agents' submission ledger: ids in order, exactly once per idempotency key, safe in parallel."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from genie_bot.submissions import record_submission, submissions


def test_ids_are_sequential_and_retries_return_the_first_id():
    assert record_submission("ticket", {"n": 1}, "k1", prefix="TKT-") == "TKT-00001"
    assert record_submission("ticket", {"n": 2}, "k2", prefix="TKT-") == "TKT-00002"
    assert record_submission("ticket", {"n": 1}, "k1", prefix="TKT-") == "TKT-00001"
    assert [s["payload"]["n"] for s in submissions("ticket")] == [1, 2]


def test_concurrent_submissions_get_distinct_ids():
    with ThreadPoolExecutor(max_workers=16) as pool:
        ids = list(pool.map(lambda i: record_submission("ticket", {"n": i}, f"key-{i}", prefix="TKT-"), range(64)))
    assert sorted(ids) == [f"TKT-{n:05d}" for n in range(1, 65)]
    assert len(submissions("ticket")) == 64
