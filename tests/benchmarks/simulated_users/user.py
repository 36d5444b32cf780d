"""The simulated user's policy: read the agent's acts, answer from the goal as a person would type.

The user sometimes volunteers several facts at once, asks a question about a table row mid-task,
first gives a wrong value and corrects it ("actually make it 6"), declines optional questions,
and checks every summary against the goal: "yes" to a right one, "no, the X is wrong" and the
right value to a wrong one.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any

from genie_bot.acts import (Act, AskField, AskForConfirmation, AskForFieldConfirmation, AskToCancel,
                            ProposeWorksheet)
from genie_bot.spec import AgentSpec, Field
from genie_bot.state import DialogueState

from .checker import Difference, differences, field_of, goal_path, instance_tree
from .goals import Goal, TableRow, table_rows
from .phrasing import Piece, Style, course_code_forms, render, say_date, say_number, say_time
from .vocab import CONFIRM, DECLINE, DONT_KNOW, ENUM_WORDS, FACT_CUES, LABELS, NO, QUESTIONS, SEVERAL, TASK_WORDS, YES

GREETINGS = ["", "", "hi ", "hey, ", "hello! ", "hi there, "]
OPENERS = ["i'd like to {t}", "can you help me {t}", "i want to {t}", "{t} please", "need to {t}"]
CORRECTIONS = ["actually make it {fact}", "sorry, {fact}", "oops, the {label} should be {v}",
               "actually the {label} is {v}", "wait, change the {label} to {v}"]
WRONG_SUMMARY = ["no, the {label} is wrong, it should be {v}", "no the {label} should be {v}", "no, {fact}",
                 "change the {label} to {v}", "no, the {label} is wrong"]
PERSONAL = ("name", "email", " id ")
RELATED_QUESTIONS = {"instructor", "days"}
"""Columns of other tables (offerings of a course) a user asks about; the rest only of the row's own table."""


class SimulatedUser:
    def __init__(self, spec: AgentSpec, goal: Goal, rng: random.Random, today: dt.date):
        self.spec, self.goal, self.rng, self.today = spec, goal, rng, today
        self.style = Style.draw(rng)
        rows = [value for _, value in goal.leaves() if isinstance(value, TableRow)]
        self.question_row: TableRow | None = rng.choice(rows) if rows and rng.random() < 0.2 else None
        changeable = [path for path, value in goal.leaves()
                      if isinstance(value, (int, dt.date, dt.time)) and not isinstance(value, bool)]
        self.slip: tuple[str, ...] | None = rng.choice(changeable) if changeable and rng.random() < 0.15 else None
        self.pending: str | None = None
        """A message the user means to send next whatever the agent asks (a correction)."""
        self.slips: dict[tuple[str, ...], list[Any]] = {}
        """Wrong values the user did type (then corrected), by field path: a summary showing one is
        not showing a value the user never said."""
        self.turns = 0

    # -- opening -------------------------------------------------------------------------------
    def opening(self, acts: list[Act], state: DialogueState) -> str:
        """The first message: the task, and with a chatty user some of its facts."""
        facts = self._task_facts()
        if acts and self.rng.random() < 0.4:  # the agent opened with a question: just answer it
            return self.reply(acts, state)
        several = self._several_rows()
        if several is not None and self.rng.random() < self.style.chatty:
            return render([Piece(self.rng.choice(GREETINGS))] + several, self.style, self.rng)
        task = self.rng.choice(TASK_WORDS.get((self.spec.name, self.goal.worksheet), [self._task_phrase()]))
        pieces = [Piece(self.rng.choice(GREETINGS))]
        first_enum = self._first_enum_fact()
        if first_enum is not None and self.rng.random() < 0.7:
            pieces.append(Piece(first_enum))
        else:
            pieces.append(Piece(self.rng.choice(OPENERS).format(t=task)))
        if facts and self.rng.random() < self.style.chatty:
            count = self.rng.randint(1, min(4, len(facts)))
            chosen = facts[:count]
            for path in chosen:
                pieces.append(Piece(self.rng.choice([" ", ", "])))
                pieces.extend(self._fact(path))
        return render(pieces, self.style, self.rng)

    def _task_phrase(self) -> str:
        description = self.spec.tasks[self.goal.worksheet].description or self.goal.worksheet
        return description[0].lower() + description[1:]

    def _first_enum_fact(self) -> str | None:
        """The user's words for the task's first field when it is a choice ("i need a leave of absence")."""
        path, value = self.goal.leaves()[0]
        words = ENUM_WORDS.get((path[-1], value))
        return self.rng.choice(words) if words and field_of(self.spec, self.goal, path).type.kind == "enum" else None

    def _task_facts(self) -> list[tuple[str, ...]]:
        """Facts of the task itself (not who the user is, not free text), in the goal's order."""
        out = []
        for path, value in self.goal.leaves():
            f = field_of(self.spec, self.goal, path)
            described = f" {f.name} {f.description} ".replace("_", " ").lower()
            if value is None or isinstance(value, bool) or self._personal(f):
                continue
            if f.type.kind == "str" and not f.values_from:
                if "course" not in described or "why" in described:
                    continue
            if f.type.kind == "enum" and path == self.goal.leaves()[0][0]:
                continue  # said by the opening phrase
            out.append(path)
        return out

    @staticmethod
    def _personal(f: Field) -> bool:
        """A field about who the user is (name, email, id), not about the task."""
        described = f" {f.name} {f.description} ".replace("_", " ").lower()
        return not f.values_from and "course" not in described and any(w in described for w in PERSONAL)

    def _several_rows(self) -> list[Piece] | None:
        """Sibling parts of the same kind (the courses) said at once: "cs 224v and cs 229 for a letter grade",
        a value they share said once."""
        for node_path, node in self._nodes(self.goal):
            names = [name for name, v in node.values.items() if isinstance(v, Goal)]
            parts = [node.values[name] for name in names]
            kinds = {p.worksheet for p in parts}
            rows = [next((v for v in p.values.values() if isinstance(v, TableRow)), None) for p in parts]
            if len(parts) < 2 or len(kinds) != 1 or None in rows:
                continue
            said: list[Piece] = []
            for i, row in enumerate(rows):
                middle = 0 < i < len(rows) - 1 and not self.style.drops_punctuation
                said += [Piece(", " if middle else (" and " if i else ""))]
                said.append(Piece(self._row_name(row), protected=True))  # type: ignore[arg-type]
            pieces = compose(self.rng.choice(SEVERAL), rows=said)
            fields = self.spec.tasks[parts[0].worksheet].fields
            for name, value in parts[0].values.items():
                shared = all(p.values.get(name) == value for p in parts)
                if shared and value is not None and not isinstance(value, (Goal, TableRow)) and \
                        fields[name].type.kind in ("enum", "int") and self.rng.random() < 0.7:
                    pieces += [Piece(" ")] + self._fact(node_path + (names[0], name))
            return pieces
        return None

    def _nodes(self, goal: Goal, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Goal]]:
        out = [(path, goal)]
        for name, value in goal.values.items():
            if isinstance(value, Goal):
                out += self._nodes(value, path + (name,))
        return out

    # -- replies -------------------------------------------------------------------------------
    def reply(self, acts: list[Act], state: DialogueState) -> str:
        self.turns += 1
        if self.pending:
            message, self.pending = self.pending, None
            return message
        question = next((a for a in acts if a.is_question), None)
        if self.question_row is not None and self.turns >= 2 and isinstance(question, AskField):
            row, self.question_row = self.question_row, None
            asked = self._question_about(row)
            if asked:
                return asked
        if isinstance(question, AskField):
            return self._answer_field(question, state)
        if isinstance(question, AskForConfirmation):  # the user checks what the summary shows
            return self._check_summary(question.instance, state, shown=question.values)
        if isinstance(question, AskForFieldConfirmation):
            return self._check_summary(question.instance, state, question.field)
        if isinstance(question, ProposeWorksheet):
            wanted = question.worksheet in {self.goal.worksheet, *self._worksheets(self.goal)}
            return render([Piece(self.rng.choice(YES if wanted else NO))], self.style, self.rng)
        if isinstance(question, AskToCancel):
            return render([Piece(self.rng.choice(["no, keep going", "no don't cancel", "no"]))], self.style, self.rng)
        return self._say_what_is_missing(state)

    def _worksheets(self, goal: Goal) -> set[str]:
        return {goal.worksheet} | {w for v in goal.values.values() if isinstance(v, Goal) for w in self._worksheets(v)}

    def _locate(self, state: DialogueState, instance_name: str) -> tuple[str, ...] | None:
        """The field path from the goal's task instance down to ``instance_name``, or None."""
        return goal_path(state, instance_name, self.goal.worksheet)

    def _answer_field(self, ask: AskField, state: DialogueState) -> str:
        where = self._locate(state, ask.instance)
        node = self.goal.node(where) if where is not None else None
        if node is None:
            return self._say_what_is_missing(state)
        f = self.spec.tasks[node.worksheet].fields[ask.field]
        if f.type.kind == "confirm":
            return self._check_summary(ask.instance, state)
        if ask.field not in node.values:
            return render([Piece(self.rng.choice(DONT_KNOW))], self.style, self.rng)
        value = node.values[ask.field]
        path = where + (ask.field,)
        if value is None:
            return render([Piece(self.rng.choice(DECLINE))], self.style, self.rng)
        pieces = self._value(path, f, self._slipped(path, f, value))
        extra = self._next_unsaid(node, ask.field, state, where)
        if extra is not None and self.rng.random() < self.style.chatty * 0.4:
            joiner = " and " if self.style.drops_punctuation else self.rng.choice([", ", " and ", ", and "])
            pieces += [Piece(joiner)] + self._fact(extra)
        return render(pieces, self.style, self.rng)

    def _slipped(self, path: tuple[str, ...], f: Field, value: Any) -> Any:
        """The value the user first gives: a wrong one (corrected next turn) for the field they slip on."""
        if path != self.slip:
            return value
        self.slip = None
        wrong: Any
        if isinstance(value, int):
            wrong = value + 1 if value < 3 else value - 1
        elif isinstance(value, dt.date):
            wrong = value + dt.timedelta(days=1) if value < self.today else value - dt.timedelta(days=1)
            if value - dt.timedelta(days=1) < self.today <= value:
                wrong = value + dt.timedelta(days=1)
        else:
            wrong = dt.time(value.hour + (1 if value.hour < 20 else -1), value.minute)
        self.slips.setdefault(path, []).append(wrong)
        self.pending = render(compose(self.rng.choice(CORRECTIONS), fact=self._fact_in_row(path, value),
                                      v=self._value(path, f, value), label=self._label_in_row(path, f)),
                              self.style, self.rng)
        return wrong

    def _next_unsaid(self, node: Goal, asked: str, state: DialogueState, where: tuple[str, ...]
                     ) -> tuple[str, ...] | None:
        names = list(node.values)
        for name in names[names.index(asked) + 1:]:
            value = node.values[name]
            path = where + (name,)
            if value is None or isinstance(value, (Goal, bool)) or path == self.slip:
                continue
            f = self.spec.tasks[node.worksheet].fields[name]
            if f.type.kind in ("int", "date", "time", "enum") or f.values_from:
                return path
            return None
        return None

    def _check_summary(self, instance_name: str, state: DialogueState, only: str | None = None,
                       shown: dict[str, Any] | None = None) -> str:
        where = self._locate(state, instance_name)
        node = self.goal.node(where) if where is not None else None
        instance = state.named(instance_name)
        if node is None or instance is None:
            return render([Piece(self.rng.choice(NO))], self.style, self.rng)
        wrong = differences(self.spec, node, shown if shown is not None else instance_tree(state, instance), where)
        wrong = [d for d in wrong if only is None or d.path[-1] == only]
        if not wrong:
            return render([Piece(self.rng.choice(CONFIRM))], self.style, self.rng)
        return self._correct(wrong[0])

    def _correct(self, difference: Difference) -> str:
        f = field_of(self.spec, self.goal, difference.path)
        if difference.wanted is None:
            text = self.rng.choice(["no, leave out the {l}", "no, i didn't ask for a {l}", "no, remove the {l}"]).format(
                l=self._label(f))
            return render([Piece(text)], self.style, self.rng)
        template = self.rng.choice(WRONG_SUMMARY)
        parts = {"v": self._value(difference.path, f, difference.wanted), "fact": self._fact_in_row(difference.path)}
        parts["label"] = self._label_in_row(difference.path, f)
        if template.endswith("is wrong"):  # the value follows in the next message
            follow_up = self.rng.choice(["it should be {v}", "{fact}", "the {label} is {v}"])
            self.pending = render(compose(follow_up, **parts), self.style, self.rng)
        return render(compose(template, **parts), self.style, self.rng)

    def _label_in_row(self, path: tuple[str, ...], f: Field) -> list[Piece]:
        """What the user calls the field; inside a repeated part, with its row ("the units for cs 236")."""
        row = self._row_of(path)
        if row is None:
            return [Piece(self._label(f))]
        return [Piece(self._label(f) + " for "), Piece(self._row_name(row), protected=True)]

    def _fact_in_row(self, path: tuple[str, ...], value: Any = None) -> list[Piece]:
        """A fact; inside a repeated part, after the row it belongs to ("cs 236 for 3 units")."""
        row = self._row_of(path)
        fact = self._fact(path, value)
        return fact if row is None else [Piece(self._row_name(row), protected=True), Piece(" ")] + fact

    def _row_of(self, path: tuple[str, ...]) -> TableRow | None:
        """The table row a nested field belongs to (the course whose units are meant), if any."""
        node = self.goal.node(path[:-1])
        if node is None or not path[:-1]:
            return None
        return next((v for name, v in node.values.items() if isinstance(v, TableRow) and name != path[-1]), None)

    def _say_what_is_missing(self, state: DialogueState) -> str:
        """No question to answer: state the first fact the agent does not hold yet, or the task again."""
        roots = [i for i in state.instances.values() if i.worksheet == self.goal.worksheet and i.parent is None]
        tree = instance_tree(state, roots[-1]) if roots else None
        missing = differences(self.spec, self.goal, tree) if tree is not None else []
        for difference in missing:
            if difference.wanted is not None:
                return render(self._fact(difference.path), self.style, self.rng)
            label = self._label(field_of(self.spec, self.goal, difference.path))
            return render([Piece(self.rng.choice(["remove the {l}", "there's no {l}", "no {l} please"]).format(l=label))],
                          self.style, self.rng)
        task = self.rng.choice(TASK_WORDS.get((self.spec.name, self.goal.worksheet), [self._task_phrase()]))
        return render([Piece(self.rng.choice(OPENERS).format(t=task))], self.style, self.rng)

    def _question_about(self, row: TableRow) -> str | None:
        """A question on a row of the goal (a restaurant, a course) about a column some table has."""
        own = self.spec.knowledge[row.table]
        key = own.primary_key or next(iter(own.columns))
        related = {column for table in self.spec.knowledge.values() if key in table.columns
                   for column in table.columns if column in RELATED_QUESTIONS}
        columns = set(own.columns) | related
        templates = [t for column, ts in QUESTIONS.items() if column in columns for t in ts]
        if not templates:
            return None
        before, _, after = self.rng.choice(templates).partition("{row}")
        return render([Piece(before), Piece(self._row_name(row), protected=True), Piece(after)], self.style, self.rng)

    # -- values ---------------------------------------------------------------------------------
    def _row_name(self, row: TableRow) -> str:
        """What the user calls a row: a course by its code more often than by its title, else its name
        (or title) when no other row shares it, else the fewest of its columns that tell it apart."""
        if self._by_code(row) and self.rng.random() < 0.7:
            return course_code_forms(row.key, self.rng)
        if self._key_in_examples(row):  # "a site id like A04": users say the id
            return row.key if self.rng.random() < 0.5 else row.key.lower()
        for column in ("name", "title"):
            if column in row.row and self._unique(row, (column,)):
                name = str(row.row[column])
                if column == "name" and name.lower().startswith("the ") and self.rng.random() < 0.3:
                    name = name[4:]
                return name
        columns = self._telling_columns(row)
        return " ".join(str(row.row[c]) for c in columns) if columns else row.key

    def _by_code(self, row: TableRow) -> bool:
        """Rows whose key is a code people type (a course code), not an internal id."""
        kb = self.spec.knowledge[row.table]
        key = kb.columns.get(kb.primary_key or next(iter(kb.columns)))
        return key is not None and "code" in (key.description or "").lower()

    def _key_in_examples(self, row: TableRow) -> bool:
        """Rows the builder tells users to name by their key: a field of the table gives keys as examples."""
        keys = {other.key.lower() for other in table_rows(self.spec, row.table)}
        return any(f.type.referenced() == row.table and set(re.findall(r"[\w-]+", f.description.lower())) & keys
                   for ws in self.spec.tasks.values() for f in ws.fields.values())

    def _text_columns(self, row: TableRow) -> list[str]:
        kb = self.spec.knowledge[row.table]
        return [c for c, column in kb.columns.items()
                if c != kb.primary_key and not column.free_text and isinstance(row.row.get(c), str)]

    def _unique(self, row: TableRow, columns: tuple[str, ...]) -> bool:
        return sum(all(other.row.get(c) == row.row.get(c) for c in columns)
                   for other in table_rows(self.spec, row.table)) == 1

    def _telling_columns(self, row: TableRow) -> tuple[str, ...]:
        """The first text column, then the columns that most narrow down the rows sharing it, until
        one row is left ("Toyota RAV4", "Zestril 10 mg", "Spin 45 Tuesday")."""
        candidates = self._text_columns(row)
        if not candidates:
            return ()
        chosen = (candidates[0],)
        rows = table_rows(self.spec, row.table)
        while not self._unique(row, chosen) and len(chosen) < len(candidates):
            rest = [c for c in candidates if c not in chosen]
            chosen += (min(rest, key=lambda c: sum(all(o.row.get(k) == row.row.get(k) for k in chosen + (c,))
                                                   for o in rows)),)
        return chosen

    def _value(self, path: tuple[str, ...], f: Field, value: Any) -> list[Piece]:
        """The value alone, as the user types it."""
        rng = self.rng
        if isinstance(value, TableRow):
            if self._by_code(value) and rng.random() < 0.8:
                return [Piece(course_code_forms(value.key, rng), protected=True)]
            return [Piece(self._row_name(value), protected=True)]
        if isinstance(value, list):  # "gps and a child seat"
            said: list[Piece] = []
            for i, item in enumerate(value):
                said += ([Piece(" and " if i == len(value) - 1 else ", ")] if i else [])
                said += self._value(path, f, item) if isinstance(item, TableRow) else [Piece(self._enum_words(f, item))]
            return said
        if f.type.kind == "enum":
            return [Piece(self._enum_words(f, value))]
        if isinstance(value, bool):
            return [Piece(rng.choice(YES if value else NO))]
        if isinstance(value, int):
            return [Piece(say_number(value, rng))]
        if isinstance(value, dt.date):
            return [Piece(say_date(value, self.today, rng))]
        if isinstance(value, dt.time):
            return [Piece(say_time(value, rng))]
        described = f"{f.name} {f.description}".lower()
        if "email" in described and rng.random() < 0.3:
            return [Piece("my email is "), Piece(str(value), protected=True)]
        if "name" in described and "course" not in described and rng.random() < 0.3:
            return [Piece(rng.choice(["my name is ", "it's ", "i'm "])), Piece(str(value), protected=True)]
        return [Piece(str(value), protected=True)]

    def _enum_words(self, f: Field, value: str) -> str:
        return self.rng.choice(ENUM_WORDS.get((f.name, value)) or [value.lower(), value])

    def _fact(self, path: tuple[str, ...], value: Any = None) -> list[Piece]:
        """The value with its cue words, as it is said among other facts ("for 4 people")."""
        f = field_of(self.spec, self.goal, path)
        node = self.goal.node(path[:-1])
        value = node.values[path[-1]] if value is None and node is not None else value
        said = self._value(path, f, value)
        cues = FACT_CUES.get(f"{f.name}={value}") or FACT_CUES.get(f.name)
        if cues is None:
            if f.type.kind == "enum":
                return said
            return [Piece(f"{self.rng.choice(['my ', 'the ', ''])}{self._label(f)} is ")] + said
        return compose(self.rng.choice(cues), v=said)

    def _label(self, f: Field) -> str:
        words = LABELS.get(f.name)
        if words:
            return self.rng.choice(words)
        text = (f.label or f.description or f.name.replace("_", " ")).lower()
        for prefix in ("the student's ", "the ", "whether "):
            text = text.removeprefix(prefix)
        return " ".join(text.split()[:4])


def compose(template: str, **parts: list[Piece]) -> list[Piece]:
    """``template`` with each ``{name}`` replaced by its pieces (which keep their protection)."""
    out: list[Piece] = []
    for i, chunk in enumerate(re.split(r"\{(\w+)\}", template)):
        out.extend(parts[chunk] if i % 2 else [Piece(chunk)])
    return out

