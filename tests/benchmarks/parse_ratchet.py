"""The parse baseline only goes down, unless a reason is recorded beside it.

``parse_baseline.json`` holds what each utterance's rule parse may cost (as a ratio to a
calibration workload, see :mod:`.parse_baseline`). Regenerating it after a slowdown would make
``--check`` pass a slower parser, so every version of the file in the repository's history
(first parents, oldest first, then the working tree's if it differs) is compared with the one
before it. A version **raises** the baseline when it lets some parse cost more than before:

* the ratios of the utterances both versions have add up to more;
* one utterance's ratio is higher by more than re-measuring moves it (:data:`REMEASURED`);
* an utterance is gone, or the limit or slack of the check is higher;
* the calibration workload is another one (its ratios are not comparable).

Such a version passes only if ``parse_baseline_raises.json`` (beside it) holds a record for its
exact content (``baseline_sha256``) with a reason and the figures before and after, equal to
those this module computes from the two versions; ``python -m tests.benchmarks.parse_baseline
--update --reason "..."`` writes it. Records are never needed for a baseline that goes down.
"""

from __future__ import annotations

import hashlib
import json
import statistics
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REMEASURED = 1.15
"""An utterance re-measured on an unchanged parser moves by up to about this factor (timer noise);
above it (plus the check's slack), its own ratio has risen even when the total went down."""
DEFAULTS = {"limit": 1.5, "slack": 0.02}
"""The check's limit and slack in baselines written before they were stored in the file."""


@dataclass(frozen=True)
class Version:
    """One version of the baseline file: where it comes from (a commit, or the working tree) and its text."""

    source: str
    text: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()

    @property
    def figures(self) -> dict[str, Any]:
        return json.loads(self.text)


def summary(baseline: dict[str, Any]) -> dict[str, Any]:
    """The figures a raise record states for a baseline (rounded, so they compare exactly)."""
    ratios = baseline["ratios"]
    return {"utterances": len(ratios), "total_ratio": round(sum(ratios.values()), 4),
            "median_ratio": round(statistics.median(ratios.values()), 4) if ratios else 0.0,
            "limit": baseline.get("limit", DEFAULTS["limit"]), "slack": baseline.get("slack", DEFAULTS["slack"]),
            "calibration_workload": baseline.get("calibration_workload")}


def raises(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """How ``after`` lets some parse cost more than ``before`` did; empty when it does not."""
    found = []
    old, new = before["ratios"], after["ratios"]
    common = [key for key in new if key in old]
    old_total, new_total = (round(sum(ratios[k] for k in common), 4) for ratios in (old, new))
    if new_total > old_total:
        found.append(f"the ratios add up to more: {new_total:.4f} (was {old_total:.4f})")
    slack = after.get("slack", DEFAULTS["slack"])
    found += [f"{key}: {new[key]:.4f} (was {old[key]:.4f})" for key in common
              if new[key] > old[key] * REMEASURED + slack]
    found += [f"{key}: no longer measured" for key in old if key not in new]
    for setting in ("limit", "slack"):
        if after.get(setting, DEFAULTS[setting]) > before.get(setting, DEFAULTS[setting]):
            found.append(f"the {setting} is higher: {after.get(setting)} (was {before.get(setting, DEFAULTS[setting])})")
    if before.get("calibration_workload") and after.get("calibration_workload") != before["calibration_workload"]:
        found.append("the calibration workload changed, so the ratios are not comparable")
    return found


def record(before: Version, after: Version, reason: str) -> dict[str, Any]:
    """The raise record of ``after`` over ``before``."""
    return {"baseline_sha256": after.sha256, "reason": reason, "before": summary(before.figures),
            "after": summary(after.figures), "raised": raises(before.figures, after.figures)}


def problems(versions: list[Version], records: list[dict[str, Any]]) -> list[str]:
    """Every raise in ``versions`` (oldest first) without a matching record, as messages."""
    by_sha = {r.get("baseline_sha256"): r for r in records}
    found = []
    for before, after in zip(versions, versions[1:]):
        raised = raises(before.figures, after.figures)
        if not raised:
            continue
        kept = by_sha.get(after.sha256)
        where = f"the baseline of {after.source} raises that of {before.source}"
        if kept is None:
            found.append(f"{where} with no reason recorded: " + "; ".join(raised[:5])
                         + (f" (and {len(raised) - 5} more)" if len(raised) > 5 else ""))
        elif not str(kept.get("reason", "")).strip():
            found.append(f"{where}: its record gives no reason")
        elif (kept.get("before"), kept.get("after")) != (summary(before.figures), summary(after.figures)):
            found.append(f"{where}: its record's figures are not those of the two versions "
                         f"(expected before {summary(before.figures)}, after {summary(after.figures)})")
    return found


def history(path: Path) -> list[Version]:
    """The versions of ``path`` along the first parents of HEAD, oldest first, then the working tree's
    when it differs from the last. Raises RuntimeError outside a git work tree."""
    top = Path(_git(path.parent, "rev-parse", "--show-toplevel").strip())
    relative = path.resolve().relative_to(top.resolve()).as_posix()
    commits = _git(top, "log", "--first-parent", "--format=%H", "--", relative).split()
    versions: list[Version] = []
    for commit in reversed(commits):
        try:
            text = _git(top, "show", f"{commit}:{relative}")
        except RuntimeError:  # deleted in that commit
            continue
        if not versions or versions[-1].text != text:
            versions.append(Version(commit[:10], text))
    if path.exists():
        text = path.read_text(encoding="utf-8")
        if not versions or versions[-1].text != text:
            versions.append(Version("the working tree", text))
    return versions


def committed(path: Path) -> Version | None:
    """The last committed version of ``path``, or None (no history)."""
    try:
        versions = [v for v in history(path) if v.source != "the working tree"]
    except RuntimeError:
        return None
    return versions[-1] if versions else None


def load_records(path: Path) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else []


def save_records(path: Path, records: list[dict[str, Any]]) -> None:
    path.write_text(json.dumps(records, indent=2) + "\n", encoding="utf-8")


def shallow(path: Path) -> bool:
    """True in a shallow clone, whose history may start after a raise."""
    return _git(path.parent, "rev-parse", "--is-shallow-repository").strip() == "true"


def _git(cwd: Path, *args: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    except FileNotFoundError as exc:
        raise RuntimeError("git is not installed") from exc
    if done.returncode:
        raise RuntimeError(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout
