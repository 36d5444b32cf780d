"""Generate the example course catalogue for the course-enrollment worksheet.

The course-enrollment agent answers questions like "what does CS224V cover?",
"is there a Tue/Thu section of CS161 in Winter?" or "how heavy is the workload
in CS107?" and enrolls students in offerings with free seats. This script writes
the made-up data it queries, into the folder that holds this script:

* ``courses.csv``   -- one row per course (about 40 Stanford-style CS courses).
* ``offerings.csv`` -- 1-3 scheduled offerings per course across the 2026-27
  academic year, with capacity and current enrollment (some are full).
* ``ratings.csv``   -- 3-8 made-up student ratings per course.

Everything except the hand-written course list is drawn from a
``random.Random`` seeded with ``SEED``, so re-running the script reproduces the
committed CSVs byte for byte (CPython 3.11+, standard library only). Instructor
names, buildings and reviews are fictional.

Usage::

    python generate_catalogue.py                  # rewrite the CSVs next to this file
    python generate_catalogue.py --out-dir /tmp/x  # write somewhere else
"""

from __future__ import annotations

import argparse
import csv
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

SEED = 224
DATA_DIR = Path(__file__).resolve().parent

COURSE_COLUMNS = [
    "course_id",
    "title",
    "description",
    "min_units",
    "max_units",
    "grading",
    "prerequisites",
    "level",
]
OFFERING_COLUMNS = [
    "course_id",
    "quarter",
    "days",
    "start_time",
    "end_time",
    "instructor",
    "location",
    "capacity",
    "enrolled",
]
RATING_COLUMNS = ["course_id", "quarter_taken", "rating", "workload_hours", "review"]

LETTER_OR_CR = "Letter or Credit/No Credit"
LETTER = "Letter"
CR_NC = "Credit/No Credit"

INTRO = "introductory"
INTERMEDIATE = "intermediate"
ADVANCED = "advanced"

OFFERED_QUARTERS = ["Autumn 2026", "Winter 2027", "Spring 2027"]
PAST_QUARTERS = [
    f"{season} {year}"
    for year_start in (2023, 2024, 2025)
    for season, year in (
        ("Autumn", year_start),
        ("Winter", year_start + 1),
        ("Spring", year_start + 1),
    )
]


@dataclass(frozen=True)
class Course:
    course_id: str
    title: str
    description: str
    min_units: int
    max_units: int
    grading: str
    prerequisites: str
    level: str
    topic: str  # used only to make generated reviews specific; not written out

    def row(self) -> dict[str, object]:
        return {column: getattr(self, column) for column in COURSE_COLUMNS}


# fmt: off
COURSES: list[Course] = [
    Course("CS103", "Mathematical Foundations of Computing",
           "Discrete mathematics for computer scientists: sets, functions, graphs, induction and proof "
           "techniques. Concludes with an introduction to computability and complexity.",
           3, 5, LETTER_OR_CR, "CS106A; CS106B recommended concurrently", INTRO, "proofs by induction"),
    Course("CS105", "Introduction to Computers",
           "A gentle introduction for non-majors to how computers, the internet and software work. "
           "Includes short programming exercises in JavaScript.",
           3, 5, LETTER_OR_CR, "", INTRO, "internet basics"),
    Course("CS106A", "Programming Methodology",
           "Introduction to programming in Python with an emphasis on good style, decomposition and "
           "testing. No prior programming experience is assumed.",
           3, 5, LETTER_OR_CR, "", INTRO, "Python basics"),
    Course("CS106B", "Programming Abstractions",
           "Recursion, algorithmic analysis and fundamental data structures such as linked lists, trees "
           "and hash tables, taught in C++.",
           3, 5, LETTER_OR_CR, "CS106A or equivalent", INTRO, "recursion"),
    Course("CS107", "Computer Organization and Systems",
           "How programs execute on real hardware: C, pointers, memory layout, assembly and the "
           "compilation toolchain.",
           3, 5, LETTER_OR_CR, "CS106B", INTRO, "pointers and assembly"),
    Course("CS109", "Probability for Computer Scientists",
           "Counting, conditional probability, random variables and their distributions, with "
           "applications to machine learning and algorithms.",
           3, 5, LETTER_OR_CR, "CS106B; CS103 and MATH 51 recommended", INTRO, "Bayes' rule"),
    Course("CS111", "Operating Systems Principles",
           "Processes, threads, synchronization, virtual memory and file systems, with programming "
           "projects that build pieces of a small kernel.",
           3, 5, LETTER_OR_CR, "CS107", INTERMEDIATE, "threads and synchronization"),
    Course("CS124", "From Languages to Information",
           "Text processing, information retrieval, recommender systems and chatbots, with hands-on "
           "Python assignments.",
           3, 4, LETTER_OR_CR, "CS106B; CS109 recommended", INTERMEDIATE, "chatbots"),
    Course("CS131", "Computer Vision: Foundations and Applications",
           "Image formation, filtering, feature detection, segmentation and recognition, building up to "
           "modern learned representations.",
           3, 4, LETTER_OR_CR, "CS106B; MATH 51", INTERMEDIATE, "feature detection"),
    Course("CS143", "Compilers",
           "Design and implementation of a compiler for a small object-oriented language: lexing, "
           "parsing, type checking, code generation and optimization.",
           3, 4, LETTER_OR_CR, "CS103; CS107", INTERMEDIATE, "type checking"),
    Course("CS144", "Introduction to Computer Networking",
           "How the internet works from the link layer up: TCP/IP, routing, congestion control and "
           "network applications.",
           3, 4, LETTER_OR_CR, "CS111", INTERMEDIATE, "TCP"),
    Course("CS145", "Data Management and Data Systems",
           "Relational data modeling, SQL, transactions, indexing and query processing, plus an "
           "introduction to large-scale data systems.",
           3, 4, LETTER_OR_CR, "CS106B; CS107 recommended", INTERMEDIATE, "SQL queries"),
    Course("CS147", "Introduction to Human-Computer Interaction Design",
           "User-centered design methods including need-finding, prototyping and usability testing, "
           "taught through a quarter-long team project.",
           3, 5, LETTER_OR_CR, "CS106A", INTERMEDIATE, "prototyping"),
    Course("CS148", "Introduction to Computer Graphics and Imaging",
           "Rasterization, shading, texture mapping and ray tracing, with an emphasis on the math "
           "behind realistic images.",
           3, 4, LETTER_OR_CR, "CS107; MATH 51", INTERMEDIATE, "ray tracing"),
    Course("CS149", "Parallel Computing",
           "Writing fast code for multi-core CPUs, GPUs and clusters: parallel programming models, "
           "locality and synchronization.",
           3, 4, LETTER_OR_CR, "CS111", INTERMEDIATE, "GPU programming"),
    Course("CS154", "Introduction to the Theory of Computation",
           "Finite automata, context-free languages, Turing machines, decidability and NP-completeness.",
           3, 4, LETTER_OR_CR, "CS103", INTERMEDIATE, "Turing machines"),
    Course("CS155", "Computer and Network Security",
           "Principles of building secure systems: memory-safety exploits, web security, cryptographic "
           "protocols and network defenses.",
           3, 3, LETTER_OR_CR, "CS111; CS144 recommended", INTERMEDIATE, "web security"),
    Course("CS157", "Computational Logic",
           "Propositional and first-order logic, automated reasoning and logic programming, with "
           "applications to knowledge representation.",
           3, 4, LETTER_OR_CR, "CS103", INTERMEDIATE, "resolution proofs"),
    Course("CS161", "Design and Analysis of Algorithms",
           "Divide and conquer, greedy algorithms, dynamic programming, graph algorithms and randomized "
           "algorithms, with rigorous analysis.",
           3, 5, LETTER_OR_CR, "CS103; CS109", INTERMEDIATE, "dynamic programming"),
    Course("CS166", "Data Structures",
           "Advanced data structures such as balanced trees, amortized structures, string indexes and "
           "hashing schemes. Ends with a research-flavored final project.",
           3, 4, LETTER_OR_CR, "CS161", ADVANCED, "amortized analysis"),
    Course("CS168", "The Modern Algorithmic Toolbox",
           "Practical algorithmic ideas behind modern data analysis: hashing, dimensionality reduction, "
           "sampling, spectral methods and sparse recovery.",
           3, 4, LETTER_OR_CR, "CS161; linear algebra", ADVANCED, "dimensionality reduction"),
    Course("CS181", "Computers, Ethics, and Public Policy",
           "Ethical and policy questions raised by computing, including privacy, algorithmic fairness, "
           "automation and platform governance.",
           4, 4, LETTER, "", INTRO, "algorithmic fairness"),
    Course("CS193P", "iOS Application Development",
           "Building mobile applications in Swift and SwiftUI, from interface design to data "
           "persistence and app architecture.",
           3, 3, LETTER_OR_CR, "CS106B; CS107 recommended", INTERMEDIATE, "SwiftUI"),
    Course("CS197", "Computer Science Research",
           "A hands-on introduction to research: reading papers, forming hypotheses, running "
           "experiments and writing up results in small teams.",
           3, 4, LETTER, "CS106B; consent of instructor", INTERMEDIATE, "research methods"),
    Course("CS198", "Teaching Computer Science",
           "Training for undergraduate section leaders: leading discussion sections, giving feedback on "
           "code and supporting students one on one.",
           3, 4, CR_NC, "CS106B; application required", INTRO, "section leading"),
    Course("CS221", "Artificial Intelligence: Principles and Techniques",
           "Search, Markov decision processes, game playing, constraint satisfaction, Bayesian networks "
           "and machine learning, tied together by a modeling-inference-learning framework.",
           3, 4, LETTER_OR_CR, "CS103; CS106B; CS109", INTERMEDIATE, "Markov decision processes"),
    Course("CS224N", "Natural Language Processing with Deep Learning",
           "Neural approaches to language: word vectors, recurrent networks, transformers, pretraining "
           "and large language models, with a final project.",
           3, 4, LETTER_OR_CR, "CS221 or CS229; Python and linear algebra", ADVANCED, "transformers"),
    Course("CS224V", "Conversational Virtual Assistants with Deep Learning",
           "How to build task-oriented conversational agents that combine large language models with "
           "knowledge bases, APIs and structured dialogue state. Students complete a quarter-long "
           "project creating a virtual assistant grounded in real data.",
           3, 4, LETTER_OR_CR, "CS224N or equivalent experience with deep learning for NLP", ADVANCED,
           "LLM grounding"),
    Course("CS224W", "Machine Learning with Graphs",
           "Representation learning on networks: node embeddings, graph neural networks, knowledge "
           "graphs and applications to recommendation and biology.",
           3, 4, LETTER_OR_CR, "CS221 or CS229; CS161 recommended", ADVANCED, "graph neural networks"),
    Course("CS228", "Probabilistic Graphical Models",
           "Bayesian networks, Markov random fields, exact and approximate inference, and learning of "
           "structured probabilistic models.",
           3, 4, LETTER_OR_CR, "CS109; CS161 recommended", ADVANCED, "variational inference"),
    Course("CS229", "Machine Learning",
           "Supervised and unsupervised learning, learning theory and reinforcement learning, with an "
           "emphasis on the mathematics behind each method.",
           3, 4, LETTER_OR_CR, "CS106B; CS109; MATH 51", ADVANCED, "linear models and SVMs"),
    Course("CS230", "Deep Learning",
           "Building and training neural networks, convolutional and sequence models, and practical "
           "strategies for structuring deep learning projects.",
           3, 4, LETTER_OR_CR, "Python programming; CS229 recommended", ADVANCED,
           "convolutional networks"),
    Course("CS231N", "Deep Learning for Computer Vision",
           "Convolutional networks, vision transformers and generative models for visual recognition, "
           "with assignments implemented from scratch.",
           3, 4, LETTER_OR_CR, "CS229 or CS230; MATH 51", ADVANCED, "backpropagation"),
    Course("CS234", "Reinforcement Learning",
           "Markov decision processes, policy gradients, exploration and offline reinforcement "
           "learning, with connections to modern applications.",
           3, 3, LETTER_OR_CR, "CS109; CS229", ADVANCED, "policy gradients"),
    Course("CS236", "Deep Generative Models",
           "Variational autoencoders, normalizing flows, GANs, autoregressive models and diffusion "
           "models, with a theory-heavy treatment.",
           3, 3, LETTER_OR_CR, "CS109; CS229", ADVANCED, "diffusion models"),
    Course("CS240", "Advanced Topics in Operating Systems",
           "A paper-reading seminar on classic and recent operating systems research, paired with a "
           "substantial systems project.",
           3, 3, LETTER, "CS111", ADVANCED, "classic OS papers"),
    Course("CS242", "Programming Languages",
           "Semantics, type systems and language design, exploring functional programming, memory "
           "safety and concurrency models.",
           3, 4, LETTER_OR_CR, "CS103; CS107", ADVANCED, "type systems"),
    Course("CS245", "Principles of Data-Intensive Systems",
           "Storage engines, query optimization, transactions, distributed databases and stream "
           "processing.",
           3, 4, LETTER_OR_CR, "CS111; CS145", ADVANCED, "query optimization"),
    Course("CS246", "Mining Massive Data Sets",
           "Algorithms for analyzing very large data: MapReduce and Spark, locality-sensitive hashing, "
           "recommender systems, link analysis and streaming.",
           3, 4, LETTER_OR_CR, "CS107; CS109; CS161", ADVANCED, "locality-sensitive hashing"),
    Course("CS251", "Cryptocurrencies and Blockchain Technologies",
           "Consensus protocols, smart contracts, scaling solutions and the cryptography that underpins "
           "decentralized systems.",
           3, 3, LETTER_OR_CR, "CS111; CS255 recommended", ADVANCED, "smart contracts"),
    Course("CS255", "Introduction to Cryptography",
           "Symmetric and public-key encryption, message authentication, digital signatures and key "
           "exchange, with attention to how protocols fail in practice.",
           3, 3, LETTER_OR_CR, "CS103; CS109 recommended", INTERMEDIATE, "public-key encryption"),
    Course("CS276", "Information Retrieval and Web Search",
           "Indexing, ranking, evaluation and neural retrieval methods behind modern search engines and "
           "retrieval-augmented generation.",
           3, 4, LETTER_OR_CR, "CS106B; CS109", ADVANCED, "retrieval-augmented generation"),
]
# fmt: on

# --- schedule ingredients -----------------------------------------------------------------

# (days, minutes per meeting, possible start times)
MEETING_PATTERNS: list[tuple[str, int, list[str]]] = [
    ("Mon/Wed/Fri", 50, ["09:30", "10:30", "11:30", "13:30", "14:30"]),
    ("Mon/Wed", 80, ["09:00", "10:30", "13:30", "15:00", "16:30"]),
    ("Tue/Thu", 80, ["09:00", "10:30", "12:00", "13:30", "15:00", "16:30"]),
    ("Mon", 170, ["13:30"]),
    ("Wed", 170, ["09:30", "13:30", "14:30"]),
    ("Thu", 170, ["14:00"]),
    ("Fri", 170, ["09:30", "13:30"]),
]
SEMINAR_PATTERNS = {"Mon", "Wed", "Thu", "Fri"}
SEMINAR_COURSES = {"CS197", "CS198", "CS240"}  # meet once a week for a long session

FIRST_NAMES = [
    "Ada", "Priya", "Marcus", "Elena", "Tomas", "Hiroko", "Nadia", "Samuel", "Grace", "Omar",
    "Ingrid", "Rafael", "Mei", "Daniel", "Aisha", "Viktor", "Lena", "Kwame", "Sofia", "Theo",
    "Yara", "Jonah", "Farah", "Luis", "Clara", "Ravi", "Beatrix", "Emeka", "Noor", "Felix",
]  # fmt: skip
LAST_NAMES = [
    "Whitcombe", "Okonkwo-Hale", "Lindqvist", "Moreau", "Castellanos", "Ashworth", "Takeda",
    "Varga", "Pellegrini", "Adeyemi", "Sorensen", "Halvorsen", "Kowalczyk", "Ferreira", "Iyer",
    "Marchetti", "Delacroix", "Brennan", "Haddad", "Quinlan", "Rasmussen", "Abernathy", "Solberg",
    "Tanaka-Ruiz", "Oyelaran", "Fairbanks", "Novak", "Ellery", "Kaur", "Valdivia",
]  # fmt: skip

# Fictional campus buildings: (name, is_auditorium)
BUILDINGS: list[tuple[str, bool]] = [
    ("Redwood Auditorium", True),
    ("Juniper Auditorium", True),
    ("Hollis Hall", False),
    ("Alder Building", False),
    ("Sequoia Center", False),
    ("Madrone Hall", False),
    ("Larkspur Building", False),
]

SEMINAR_CAPACITIES = [20, 25, 30, 40]
CAPACITY_CHOICES = {
    INTRO: [150, 200, 250, 300, 400],
    INTERMEDIATE: [60, 80, 100, 120, 150, 200],
    ADVANCED: [30, 40, 50, 60, 80, 100, 120],
}
# weights for offering a course in 1, 2 or 3 of the quarters
OFFERING_COUNT_WEIGHTS = {
    INTRO: [1, 2, 4],
    INTERMEDIATE: [4, 3, 1],
    ADVANCED: [7, 2, 1],
}
FULL_PROBABILITY = 0.2
INSTRUCTOR_POOL_SIZE = 60
# Recorded demo conversations mention CS224V; keep seats open so an enrollment walk-through can succeed.
ALWAYS_OPEN = {"CS224V"}

# Typical weekly hours where "3 hours per unit" is a poor guess.
WORKLOAD_OVERRIDES = {
    "CS105": 6, "CS107": 18, "CS111": 18, "CS143": 17, "CS149": 15, "CS181": 7,
    "CS193P": 12, "CS198": 6, "CS240": 12,
}  # fmt: skip

# --- review ingredients -------------------------------------------------------------------

POSITIVE_REVIEWS = [
    "One of the best classes I've taken; the lectures on {topic} were fantastic.",
    "The material on {topic} finally clicked for me thanks to great section leaders.",
    "Really well organized, and the assignments on {topic} were fun.",
    "Loved it, especially the part on {topic}; office hours were super helpful.",
    "Clear lectures and a fair exam, and I still use what I learned about {topic}.",
]
MIXED_REVIEWS = [
    "Interesting content on {topic}, but the lectures dragged at times.",
    "Good class overall, though the {topic} unit felt rushed.",
    "Useful material on {topic}, but the grading criteria were unclear.",
    "Solid course; the {topic} assignment was the only painful part.",
]
NEGATIVE_REVIEWS = [
    "The {topic} material felt disorganized and the grading was harsh.",
    "Lectures on {topic} were hard to follow and the feedback came back late.",
    "I expected more depth on {topic}; the course felt poorly planned.",
]
HEAVY_WORKLOAD_REVIEWS = [
    "The problem sets on {topic} took forever, but I learned a ton.",
    "Expect long nights on the {topic} assignments; worth it if you have the time.",
    "Very heavy workload, so don't pair it with another project class.",
]
LIGHT_WORKLOAD_REVIEWS = [
    "Manageable workload and a relaxed pace, with a nice intro to {topic}.",
    "Light workload; a good class to balance a heavy quarter.",
]


# --- generation ---------------------------------------------------------------------------


def clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def minutes_to_hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def hhmm_to_minutes(hhmm: str) -> int:
    hours, minutes = hhmm.split(":")
    return int(hours) * 60 + int(minutes)


def make_instructors(rng: random.Random, count: int) -> list[str]:
    """Distinct made-up instructor names."""
    combos = [f"{first} {last}" for first in FIRST_NAMES for last in LAST_NAMES]
    return rng.sample(combos, count)


def pick_location(rng: random.Random, capacity: int) -> str:
    auditoriums = [name for name, is_aud in BUILDINGS if is_aud]
    halls = [name for name, is_aud in BUILDINGS if not is_aud]
    if capacity >= 200:
        return rng.choice(auditoriums)
    floor = 1 if capacity >= 100 else rng.randint(1, 3)
    return f"{rng.choice(halls)} {floor}{rng.randint(0, 4)}{rng.randint(0, 9)}"


def pick_meeting(rng: random.Random, course: Course) -> tuple[str, str, str]:
    """Return (days, start_time, end_time); long once-a-week meetings only for seminars."""
    seminar = course.course_id in SEMINAR_COURSES
    patterns = [p for p in MEETING_PATTERNS if (p[0] in SEMINAR_PATTERNS) == seminar]
    if not seminar and course.level == INTRO:
        patterns = [p for p in patterns if p[0] != "Tue/Thu"] + patterns  # MWF/MW a bit more common
    days, duration, starts = rng.choice(patterns)
    start = rng.choice(starts)
    end = minutes_to_hhmm(hhmm_to_minutes(start) + duration)
    return days, start, end


def pick_capacity(rng: random.Random, course: Course) -> int:
    if course.course_id in SEMINAR_COURSES:
        return rng.choice(SEMINAR_CAPACITIES)
    return rng.choice(CAPACITY_CHOICES[course.level])


def pick_enrollment(rng: random.Random, capacity: int) -> int:
    if rng.random() < FULL_PROBABILITY:
        return capacity
    return min(capacity - 1, int(capacity * rng.uniform(0.35, 0.97)))


class Timetable:
    """Tracks booked meeting times so no instructor or room is double-booked in a quarter."""

    def __init__(self) -> None:
        self._busy: dict[tuple[str, str], list[tuple[frozenset[str], int, int]]] = {}

    @staticmethod
    def _slot(days: str, start: str, end: str) -> tuple[frozenset[str], int, int]:
        return frozenset(days.split("/")), hhmm_to_minutes(start), hhmm_to_minutes(end)

    def is_free(self, resources: Sequence[str], quarter: str, days: str, start: str, end: str) -> bool:
        want_days, want_start, want_end = self._slot(days, start, end)
        for resource in resources:
            for busy_days, busy_start, busy_end in self._busy.get((resource, quarter), []):
                if busy_days & want_days and want_start < busy_end and busy_start < want_end:
                    return False
        return True

    def book(self, resources: Sequence[str], quarter: str, days: str, start: str, end: str) -> None:
        for resource in resources:
            self._busy.setdefault((resource, quarter), []).append(self._slot(days, start, end))


def make_offering(
    rng: random.Random,
    course: Course,
    quarter: str,
    instructors: Sequence[str],
    timetable: Timetable,
) -> dict[str, object]:
    """One scheduled offering, re-drawing time and room until neither clashes.

    ``instructors`` is in order of preference; the next one takes over only if the
    preferred instructor has no free slot left that quarter.
    """
    capacity = pick_capacity(rng, course)
    for instructor in instructors:
        for _ in range(40):
            days, start, end = pick_meeting(rng, course)
            location = pick_location(rng, capacity)
            if timetable.is_free([instructor, location], quarter, days, start, end):
                timetable.book([instructor, location], quarter, days, start, end)
                break
        else:
            continue
        break
    else:  # pragma: no cover - only reachable if the tables above are made far too small
        raise RuntimeError(f"could not schedule {course.course_id} in {quarter}")
    enrolled = pick_enrollment(rng, capacity)
    if course.course_id in ALWAYS_OPEN:
        enrolled = min(enrolled, capacity - max(3, capacity // 10))
    return {
        "course_id": course.course_id,
        "quarter": quarter,
        "days": days,
        "start_time": start,
        "end_time": end,
        "instructor": instructor,
        "location": location,
        "capacity": capacity,
        "enrolled": enrolled,
    }


def make_offerings(
    rng: random.Random, course: Course, instructors: Sequence[str], timetable: Timetable
) -> list[dict[str, object]]:
    count = rng.choices([1, 2, 3], weights=OFFERING_COUNT_WEIGHTS[course.level])[0]
    quarters = sorted(rng.sample(OFFERED_QUARTERS, count), key=OFFERED_QUARTERS.index)
    teachers = rng.sample(list(instructors), rng.choice([1, 1, 2]))
    backups = [name for name in instructors if name not in teachers]
    return [
        make_offering(rng, course, quarter, [teachers[i % len(teachers)], *backups], timetable)
        for i, quarter in enumerate(quarters)
    ]


def pick_review(rng: random.Random, course: Course, rating: float, workload: int) -> str:
    heavy = workload >= 16
    light = workload <= 7
    if heavy and rng.random() < 0.5:
        templates = HEAVY_WORKLOAD_REVIEWS
    elif light and rating >= 3.0 and rng.random() < 0.5:
        templates = LIGHT_WORKLOAD_REVIEWS
    elif rating >= 4.0:
        templates = POSITIVE_REVIEWS
    elif rating >= 3.0:
        templates = MIXED_REVIEWS
    else:
        templates = NEGATIVE_REVIEWS
    return rng.choice(templates).format(topic=course.topic)


def make_ratings(rng: random.Random, course: Course) -> list[dict[str, object]]:
    quality = clamp(rng.gauss(4.1, 0.4), 2.6, 4.9)
    typical = WORKLOAD_OVERRIDES.get(course.course_id, 3 * course.max_units)
    base_workload = typical + rng.gauss(0, 2.0)
    count = rng.randint(3, 8)
    quarters = sorted(
        (rng.choice(PAST_QUARTERS) for _ in range(count)), key=PAST_QUARTERS.index
    )
    rows = []
    for quarter in quarters:
        rating = round(clamp(quality + rng.gauss(0, 0.5), 1.0, 5.0), 1)
        workload = int(round(clamp(base_workload + rng.gauss(0, 2.5), 2, 30)))
        rows.append(
            {
                "course_id": course.course_id,
                "quarter_taken": quarter,
                "rating": f"{rating:.1f}",
                "workload_hours": workload,
                "review": pick_review(rng, course, rating, workload),
            }
        )
    return rows


def build_tables(
    seed: int = SEED,
) -> tuple[list[dict[str, object]], list[dict[str, object]], list[dict[str, object]]]:
    """Return (courses, offerings, ratings) rows."""
    rng = random.Random(seed)
    instructors = make_instructors(rng, INSTRUCTOR_POOL_SIZE)
    courses = [course.row() for course in COURSES]
    timetable = Timetable()
    offerings = [
        row for course in COURSES for row in make_offerings(rng, course, instructors, timetable)
    ]
    ratings = [row for course in COURSES for row in make_ratings(rng, course)]
    return courses, offerings, ratings


def write_csv(path: Path, columns: list[str], rows: Iterable[dict[str, object]]) -> int:
    count = 0
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow(row)
            count += 1
    return count


def generate(out_dir: Path, seed: int = SEED) -> dict[str, int]:
    """Write the three CSVs into ``out_dir`` and return row counts per file."""
    out_dir.mkdir(parents=True, exist_ok=True)
    courses, offerings, ratings = build_tables(seed)
    return {
        "courses.csv": write_csv(out_dir / "courses.csv", COURSE_COLUMNS, courses),
        "offerings.csv": write_csv(out_dir / "offerings.csv", OFFERING_COLUMNS, offerings),
        "ratings.csv": write_csv(out_dir / "ratings.csv", RATING_COLUMNS, ratings),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", type=Path, default=DATA_DIR, help="where to write the CSVs")
    parser.add_argument("--seed", type=int, default=SEED, help="random seed (default: %(default)s)")
    args = parser.parse_args(argv)
    for name, count in generate(args.out_dir, args.seed).items():
        print(f"wrote {count:4d} rows to {args.out_dir / name}")


if __name__ == "__main__":
    main()
