"""API functions of the course enrollment agent.

``submit_enrollment`` has side effects: it records the enrollment in the local submissions
ledger (``$GENIE_DATA_DIR/submissions.sqlite3``, default ``./var``), exactly once per
idempotency key. The runtime calls it only after the student confirmed the enrollment.
"""

from __future__ import annotations

import csv
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from genie_bot.submissions import record_submission

_CATALOGUE = Path(__file__).resolve().parent / "data" / "courses.csv"
_COURSE_FIELDS = ("course_0_details", "course_1_details", "course_2_details", "course_3_details")


def submit_enrollment(courses_to_take: dict[str, Any] | None, student_info_details: dict[str, Any] | None,
                      idempotency_key: str | None = None) -> dict[str, Any]:
    """Enroll the student in the chosen courses; return the enrollment id and the courses."""
    courses = _chosen_courses(courses_to_take or {})
    student = dict(student_info_details or {})
    payload = {
        "student_name": student.get("student_name"),
        "student_id": str(student.get("student_id") or "").strip(),
        "student_email_address": str(student.get("student_email_address") or "").strip(),
        "is_international_student": student.get("is_international_student"),
        "courses": courses,
        "total_units": sum(c["course_num_units"] or 0 for c in courses),
    }
    enrollment_id = record_submission("enrollment", payload, idempotency_key, prefix="ENR-")
    return {"enrollment_id": enrollment_id, "status": "enrolled", "courses": courses,
            "total_units": payload["total_units"]}


def _chosen_courses(courses_to_take: dict[str, Any]) -> list[dict[str, Any]]:
    """The filled course slots in order; a 3rd/4th course only counts when the student wanted more."""
    wanted = {
        "course_2_details": courses_to_take.get("more_courses_2") is not False,
        "course_3_details": courses_to_take.get("more_courses_2") is not False
        and courses_to_take.get("more_courses_3") is not False,
    }
    out = []
    for slot in _COURSE_FIELDS:
        course = courses_to_take.get(slot)
        if not isinstance(course, dict) or not wanted.get(slot, True):
            continue
        entry = {
            "course_name": course.get("course_name"),
            "grade_type": course.get("grade_type"),
            "course_num_units": course.get("course_num_units"),
        }
        match = _catalogue_entry(str(course.get("course_name") or ""))
        if match:
            entry["course_id"], entry["title"] = match["course_id"], match["title"]
        out.append(entry)
    return out


def _normalise(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


@lru_cache(maxsize=1)
def _catalogue() -> dict[str, dict[str, str]]:
    """The course catalogue keyed by normalised course code and by normalised title."""
    if not _CATALOGUE.is_file():
        return {}
    with _CATALOGUE.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    index: dict[str, dict[str, str]] = {}
    for row in rows:
        index.setdefault(_normalise(row["title"]), row)
    for row in rows:
        index[_normalise(row["course_id"])] = row
    return index


def _catalogue_entry(course_name: str) -> dict[str, str] | None:
    """The catalogue row a course name refers to ("CS 224V", "cs224v" or its title), if any."""
    key = _normalise(course_name)
    if not key:
        return None
    index = _catalogue()
    if key in index:
        return index[key]
    code = re.match(r"\s*([A-Za-z]+\s*\d+[A-Za-z]?)\b", course_name)  # "CS 224V: Conversational ..."
    return index.get(_normalise(code.group(1))) if code else None
