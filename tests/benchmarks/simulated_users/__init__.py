"""Task success with simulated users: each has a goal drawn from the agent's spec and types like a person.

``python -m tests.benchmarks.simulated_users --agents ticket_submission course_enrollment
restaurant_reservation --users 100 --seed 7 [--today 2026-11-21] [--json out.json] [--show-failures N]``

``--agents`` takes example agents by name or agent directories by path (``tests/domains/tuned/gym``).
Besides the outcome of each user it counts near-wrong summaries and silent turns (``measures.py``).
"""
