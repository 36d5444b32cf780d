"""Write the made-up weekly class schedule of the Peak Fitness club (``schedule.csv``) and its
members (``members.csv``) next to this script.

Every value comes from a ``random.Random`` seeded with ``SEED``: re-running the script rewrites
the committed files byte for byte (standard library only).
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

SEED = 31
DATA_DIR = Path(__file__).resolve().parent

# (class name, duration in minutes, studio, level, what it is)
CLASSES = [
    ("Spin 45", 45, "Cycle Studio", "all levels", "indoor cycling to music, intervals and climbs"),
    ("Cycle Climb", 60, "Cycle Studio", "intermediate", "long seated and standing climbs on the bike"),
    ("Vinyasa Flow", 60, "Studio B", "all levels", "flowing yoga linking breath and movement"),
    ("Power Yoga", 60, "Studio B", "intermediate", "strong, sweaty yoga with arm balances"),
    ("Yin Yoga", 75, "Studio B", "beginner", "slow yoga with long, passive stretches"),
    ("HIIT Blast", 30, "Studio A", "advanced", "high intensity interval training, short and hard"),
    ("Bootcamp", 45, "Turf Zone", "intermediate", "outdoor-style circuits with sleds, ropes and sprints"),
    ("Zumba", 60, "Studio A", "all levels", "latin dance cardio party"),
    ("Pilates Mat", 45, "Studio C", "beginner", "core strength and posture on the mat"),
    ("Barre", 50, "Studio C", "all levels", "ballet-inspired toning with light weights"),
    ("Boxing Basics", 60, "Boxing Room", "beginner", "stance, footwork and combinations on the bags"),
    ("Kettlebell Strength", 45, "Turf Zone", "intermediate", "swings, cleans and presses with kettlebells"),
    ("BodyPump", 55, "Studio A", "all levels", "barbell workout for the whole body, high reps"),
    ("Aqua Aerobics", 45, "Pool", "beginner", "low-impact cardio in the shallow end of the pool"),
    ("Stretch & Recover", 30, "Studio C", "beginner", "mobility and foam rolling for sore muscles"),
]
INSTRUCTORS = ["Maria Lopez", "Jordan Reyes", "Priya Shah", "Tom Becker", "Aisha Bello", "Kenji Mori",
               "Lauren Walsh", "Diego Ramos", "Hannah Cole", "Sam Okoro"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
SLOTS = ["06:00", "06:30", "07:00", "09:00", "09:30", "12:00", "12:15", "17:30", "18:00", "18:30", "19:00", "19:30"]
PLANS = ["Basic", "Plus", "Premium", "Student", "Senior"]


def main() -> None:
    rng = random.Random(SEED)
    rows = []
    booked: set[tuple[str, int, str]] = set()  # one class per studio at a time
    number = 100
    for name, minutes, studio, level, about in CLASSES:
        teachers = rng.sample(INSTRUCTORS, 2)
        days = sorted(rng.sample(range(7), rng.randint(3, 5)))
        for day in days:
            number += 1
            slot = rng.choice([s for s in (SLOTS[:9] if day >= 5 else SLOTS) if (studio, day, s) not in booked])
            booked.add((studio, day, slot))
            rows.append({"class_id": f"C{number}", "name": name, "instructor": rng.choice(teachers),
                         "weekday": WEEKDAYS[day], "start_time": slot, "duration_min": minutes, "studio": studio,
                         "level": level, "spots": rng.choice([12, 16, 20, 24, 30]), "about": about})
    with (DATA_DIR / "schedule.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    members = []
    for i in range(60):
        status = rng.choice(["active"] * 6 + ["frozen", "expired"])
        members.append({"member_id": f"PF-{rng.randint(100000, 999999)}", "plan": rng.choice(PLANS),
                        "status": status, "home_club": rng.choice(["Mission", "SoMa", "Berkeley"])})
    members.insert(0, {"member_id": "PF-204817", "plan": "Plus", "status": "active", "home_club": "Mission"})
    members.insert(1, {"member_id": "PF-551903", "plan": "Premium", "status": "frozen", "home_club": "SoMa"})
    with (DATA_DIR / "members.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(members[0]))
        writer.writeheader()
        writer.writerows(members)


if __name__ == "__main__":
    main()
