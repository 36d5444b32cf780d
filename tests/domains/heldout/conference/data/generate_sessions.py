"""Write the made-up programme of DevSummit 2027 (``sessions.csv``) next to this script.

Three days (March 15-17, 2027), five tracks, talks and workshops. Every value comes from a
``random.Random`` seeded with ``SEED``: re-running the script rewrites the committed file byte
for byte (standard library only).
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

SEED = 5
DATA_DIR = Path(__file__).resolve().parent
DAYS = ["2027-03-15", "2027-03-16", "2027-03-17"]
SLOTS = ["09:00", "10:30", "13:30", "15:00", "16:30"]
ROOMS = {"AI": "Hall A", "Web": "Room 201", "Cloud": "Room 202", "Security": "Room 305", "Data": "Hall B"}
TITLES = {
    "AI": ["Shipping LLM Features Without Regret", "Evaluating Chatbots Honestly", "Retrieval That Actually Retrieves",
           "Small Models on Small Devices", "Prompt Injection in the Wild", "Agents That Know When to Stop"],
    "Web": ["CSS Has Grown Up", "Server Components in Practice", "Accessibility Audits in a Day",
            "The Cost of JavaScript in 2027", "Forms Nobody Hates", "Offline-First Web Apps"],
    "Cloud": ["Kubernetes for the Rest of Us", "Serverless Cold Starts Explained", "FinOps: Reading Your Cloud Bill",
              "Zero-Downtime Database Migrations", "Platform Teams That Scale", "Observability on a Budget"],
    "Security": ["Passkeys Everywhere", "Supply Chain Attacks and SBOMs", "Threat Modeling for Developers",
                 "Secrets Management Done Right", "Red Teaming Your Own API", "Incident Response Tabletop"],
    "Data": ["Postgres Is All You Need", "Streaming Pipelines With Less Pain", "Data Contracts Between Teams",
             "Vector Search at Scale", "dbt Beyond the Basics", "Privacy-Preserving Analytics"],
}
SPEAKERS = ["Amara Nwosu", "Bruno Costa", "Chen Wei", "Daniela Ruiz", "Elif Kaya", "Felix Wagner", "Gita Rao",
            "Hugo Martin", "Isabel Torres", "Jonas Berg", "Keiko Tanaka", "Leila Haddad", "Marco Bianchi",
            "Nadia Petrova", "Oscar Lindgren", "Ruth Mensah", "Stefan Novak", "Yara Saleh"]


def main() -> None:
    rng = random.Random(SEED)
    rows = []
    for track, titles in TITLES.items():
        slots = rng.sample([(d, s) for d in DAYS for s in SLOTS], len(titles))
        for title, (day, slot) in zip(titles, sorted(slots)):
            kind = "workshop" if rng.random() < 0.3 else "talk"
            rows.append({"session_id": f"S{len(rows) + 1:02d}", "title": title, "speaker": rng.choice(SPEAKERS),
                         "track": track, "kind": kind, "day": day, "start_time": slot,
                         "minutes": 90 if kind == "workshop" else 45, "room": ROOMS[track],
                         "capacity": 40 if kind == "workshop" else rng.choice([150, 200, 300])})
    rows.sort(key=lambda r: (r["day"], r["start_time"], r["track"]))
    for i, row in enumerate(rows, 1):
        row["session_id"] = f"S{i:02d}"
    with (DATA_DIR / "sessions.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
