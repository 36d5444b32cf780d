"""Importing an agent's CSV tables into the knowledge database, once per content.

A table is named by a digest of what it is made of: the CSV's bytes and the declarations that
shape it (column types, primary key, free-text columns). Importing a table that is in the
catalogue already does nothing; a changed CSV is imported as a new table, and processes move
to it when they next load the agent. ``genie-bot knowledge load`` and ``genie-bot db
upgrade`` import ahead of time; otherwise the first process that needs a table imports it
(:func:`ensure_imported`), holding the database's import lock so that others wait for it.

The CSV is read twice, streaming (types first, then rows), from one open file, so importing
costs memory for one batch of rows, not for the table, and both passes read the bytes whose hash
the agent was loaded with (:class:`~genie_bot.spec.csv_file.CsvFile`): a file edited meanwhile
is an error, never a table stored under the hash of what the file held before. One transaction
per table writes the rows (``_genie_row`` numbers them in file order), B-tree indexes on the key,
the naming columns, the short text columns and the lowered categorical columns, the name index
(:mod:`.name_index`), a view of the declared columns for queries written by an LLM, ``pg_trgm``
GIN indexes on PostgreSQL (names and short text columns, for those queries' ``ILIKE '%...%'``),
and last the catalogue row: readers see all or nothing.

The rules are the same on SQLite and PostgreSQL, and each problem is an error naming the file
and line, with nothing imported: what the file cannot be read as (see :mod:`~genie_bot.spec.csv_file`),
a value of the wrong type, a record without a primary key or with one another record has, a name
(a naming column's value) longer than :data:`MAX_NAME_CHARS` or of more than
:data:`~.mentions.MAX_NAME_WORDS` words. A text column is B-tree indexed only if none of its values
is longer than :data:`MAX_INDEXED_CHARS` (PostgreSQL refuses longer index entries), so the work
of an import is bounded by the size of its file.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import (BigInteger, Column, Connection, Float, Index, Integer, MetaData, Numeric, Table, Text, column, func,
                        insert, inspect, select, table, text)
from sqlalchemy.exc import NoSuchTableError
from sqlalchemy.engine import make_url

from ..spec import AgentSpec, KnowledgeWorksheet
from ..spec.csv_file import CsvFile, TableInvalid, check_width, file_sha256, typed_value
from .column_values import CATEGORICAL_LIMIT
from .database import CATALOGUE, ImportedTable, KnowledgeDatabase, open_database, part
from .mentions import MAX_NAME_WORDS, NAME_COLUMNS, name_keys, name_words, inner_names, naming_columns, short_names
from .name_index import namesakes_table, names_table, spelling_table
from .readers import READERS_LOCK, live_tables
from .spelling import MIN_CHARS, variants

log = logging.getLogger(__name__)

FORMAT = 6
"""The layout of imported tables (and the rules of an import); a change makes every table import again."""
MAX_NAMESAKES = 20
"""Records one shared short name names, at most: a word more names have than this tells nothing."""
SHORT_RANK = 2
INNER_RANK = 3
"""Keys of words inside a name: never stored, they only make a short name of another name ambiguous."""
ROW = "_genie_row"
"""The column numbering an imported table's rows in file order (the name index refers to it)."""
LINE = "_genie_line"
"""Where a row read from a CSV starts in the file (for errors; not stored)."""
MAX_NAME_CHARS = 200
"""The longest name (a value of a naming column: the text key, ``name``, ``title``)."""
MAX_INDEXED_CHARS = 500
"""The longest value of a text column with a B-tree index: 2,000 bytes of UTF-8 at most, under
PostgreSQL's limit for an index entry (2,704 bytes), lowered or not."""
KEPT_VALUES = CATEGORICAL_LIMIT + 1
"""Distinct values of a text column kept in the catalogue: enough to tell a categorical column."""
BATCH = 5000
SHORT_TEXT_CHARS = 80
"""A text column whose values are this long at most (on average) gets a trigram index on PostgreSQL."""
_SQL_TYPES = {"int": BigInteger, "float": Float, "str": Text}
_ROW_TYPE = BigInteger().with_variant(Integer, "sqlite")
"""On SQLite an ``INTEGER PRIMARY KEY`` is the rowid itself, not one more index."""


@dataclass(frozen=True)
class TableSource:
    """A worksheet's table and the digest of what makes it: a CSV (or declared columns) to import, or
    a table that lives in a database (``url``), whose names only are indexed here."""

    kb: KnowledgeWorksheet
    digest: str
    url: str | None = None
    """The database of a table that lives in one (its ``${VAR}`` read from the environment)."""
    csv_sha256: str | None = None
    """The hash of the CSV's bytes (as the agent was loaded with them): the import reads these or none."""

    @property
    def physical(self) -> str:
        """What it is called in the knowledge database: the imported table, or the prefix of the name
        index of a table that lives elsewhere."""
        return f"{'x' if self.url else 'k'}_{self.digest[:24]}"

    @classmethod
    def of(cls, kb: KnowledgeWorksheet) -> "TableSource":
        declared = {"format": FORMAT, "key": kb.primary_key, "free_text": sorted(c for c, d in kb.columns.items()
                                                                                    if d.free_text),
                    "types": {c: d.type for c, d in sorted(kb.columns.items())},
                    "columns": [] if kb.csv else list(kb.columns)}
        url = database_url(kb.database) if kb.database else None
        if url is not None:  # where it lives, not what it holds: its names are indexed again on each load
            declared["database"] = [make_url(url).render_as_string(hide_password=True), kb.table or kb.name]
        csv_sha256 = kb.csv_sha256 or (file_sha256(kb.csv) if kb.csv is not None else None)
        if csv_sha256 is not None:
            declared["csv"] = csv_sha256
        return cls(kb, hashlib.sha256(json.dumps(declared, sort_keys=True).encode()).hexdigest(), url, csv_sha256)


@dataclass(frozen=True)
class LoadOutcome:
    """What loading one table did."""

    worksheet: str
    table: ImportedTable
    imported: bool
    """False when the catalogue had it already."""
    seconds: float
    notes: tuple[str, ...] = ()

    def describe(self) -> str:
        done = f"imported in {self.seconds:.1f} s" if self.imported else "up to date"
        if self.table.physical.startswith("x_"):
            done = f"names indexed in {self.seconds:.1f} s" if self.imported else "names indexed before"
        notes = "".join(f"; {n}" for n in self.notes)
        return f"{self.worksheet}: {self.table.rows:,} rows, {done} ({self.table.physical}){notes}"


def table_sources(spec: AgentSpec) -> list[TableSource]:
    """The agent's SQL tables: from a CSV, declared columns (an empty table), or a database."""
    return [TableSource.of(kb) for kb in spec.knowledge.values()
            if kb.source == "table" and (kb.csv is not None or kb.database or kb.columns)]


def load_tables(database: KnowledgeDatabase, spec: AgentSpec) -> list[LoadOutcome]:
    """Import every table of ``spec`` that the database does not hold yet, and index again the names of
    the tables that live in a database (they may have changed)."""
    return [ensure_imported(database, source, again=source.url is not None) for source in table_sources(spec)]


def ensure_imported(database: KnowledgeDatabase, source: TableSource, again: bool = False,
                    lazily: bool = False) -> LoadOutcome:
    """The catalogue's entry for ``source``, importing the table first if it is not there (or, ``again``,
    replacing the name index of a table that lives in a database). ``lazily``: a process needs it now,
    which the operator is told (an import of a large table takes a while)."""
    found = database.imported(source.physical)
    if found is not None and not again:
        return LoadOutcome(source.kb.name, found, False, 0.0)
    started = time.monotonic()
    with database.importing(source.digest) as conn:
        CATALOGUE.create(conn, checkfirst=True)
        row = conn.execute(select(CATALOGUE).where(CATALOGUE.c.physical == source.physical)).first()
        if row is not None and not again:  # another process imported it while this one waited for the lock
            return LoadOutcome(source.kb.name, ImportedTable.from_row(row), False, 0.0)
        if row is not None:
            _drop(conn, ImportedTable.from_row(row))  # the name index of a table that lives in a database
        log.log(logging.WARNING if lazily else logging.INFO, "importing %s into the knowledge database %s%s",
                _source_name(source), database.safe_url,
                " (once; genie-bot knowledge load or db upgrade does it ahead of time)" if lazily else "")
        table, notes = _Import(source, conn, database).run()
    return LoadOutcome(source.kb.name, table, True, time.monotonic() - started, tuple(notes))


@dataclass(frozen=True)
class Pruned:
    dropped: list[ImportedTable]
    kept_live: dict[str, int]
    """Tables not in ``keep`` that live processes read -> how many processes (see :mod:`.readers`)."""


def prune(database: KnowledgeDatabase, keep: set[str], now: float | None = None) -> Pruned:
    """Drop every imported table (and name index) but those named in ``keep`` and those a live process
    reads (a lease renewed since ``now`` - :data:`~.readers.LEASE_SECONDS`)."""
    with database.locked(READERS_LOCK) as conn:
        CATALOGUE.create(conn, checkfirst=True)
        live = live_tables(conn, time.time() if now is None else now)
        entries = [ImportedTable.from_row(r) for r in conn.execute(select(CATALOGUE)) if r.physical not in keep]
        dropped = [entry for entry in entries if entry.physical not in live]
        for entry in dropped:
            _drop(conn, entry)
    return Pruned(dropped, {entry.physical: live[entry.physical] for entry in entries if entry.physical in live})


def _drop(conn: Connection, entry: ImportedTable) -> None:
    """A table of the catalogue, everything made with it, and its catalogue row."""
    quote = conn.dialect.identifier_preparer.quote
    conn.exec_driver_sql(f"DROP VIEW IF EXISTS {quote(entry.part('v'))}")
    for name in (*(entry.part(p) for p in ("trigram", "names", "spelling", "namesakes")), entry.physical):
        conn.exec_driver_sql(f"DROP TABLE IF EXISTS {quote(name)}")
    conn.execute(CATALOGUE.delete().where(CATALOGUE.c.physical == entry.physical))


# -- one import ------------------------------------------------------------------------------------------
class _Import:
    def __init__(self, source: TableSource, conn: Connection, database: KnowledgeDatabase):
        self.source = source
        self.kb = source.kb
        self.conn = conn
        self.database = database
        self.dialect = conn.dialect.name
        self.metadata = MetaData()
        self.notes: list[str] = []
        self.file: CsvFile | None = None

    def run(self) -> tuple[ImportedTable, list[str]]:
        if self.kb.csv is None or self.source.url is not None:
            return self._import()
        with CsvFile(self.kb.csv) as self.file:
            return self._import()

    def _import(self) -> tuple[ImportedTable, list[str]]:
        elsewhere = self.source.url is not None
        header, kinds, rows = self._external() if elsewhere else (*self._columns(), None)
        naming = naming_columns(kinds, self.kb.primary_key)
        if elsewhere and naming and not self.kb.primary_key:
            raise TableInvalid(f"{self.kb.name}: a table read in a database needs primary_key to name its records "
                               f"({', '.join(naming)} name them)")
        ref = _SQL_TYPES[kinds[self.kb.primary_key]] if elsewhere and self.kb.primary_key else _ROW_TYPE
        data = Table(self.source.physical, self.metadata, Column(ROW, _ROW_TYPE, primary_key=True, autoincrement=False),
                     *(Column(c, _SQL_TYPES[kinds[c]]) for c in header))
        names = names_table(part(self.source.physical, "names"), self.metadata, ref)
        namesakes = namesakes_table(part(self.source.physical, "namesakes"), self.metadata, ref)
        spelling = spelling_table(part(self.source.physical, "spelling"), self.metadata)
        said = Table("genie_names_said", self.metadata, Column("key", Text), Column("ref", ref),
                     Column("rank", BigInteger), Column("name", Text), prefixes=["TEMPORARY"])
        for table_ in (names, namesakes, spelling, said) if elsewhere else (data, names, namesakes, spelling, said):
            table_.create(self.conn)
        facts = _Facts(header, kinds, naming, self.kb.database or str(self.kb.csv))
        rows = rows if rows is not None else self._rows(header, kinds)
        count = 0
        columns = [ROW, *header]
        for batch in _batches(rows):
            if not elsewhere:
                self._write(data, columns, [[row[c] for c in columns] for row in batch])
            facts.add(batch)
            self._write(said, ["key", "ref", "rank", "name"], list(_keys(batch, naming)))
            count += len(batch)
        shared_names = self._names(said, names, namesakes)
        self._write(spelling, ["variant", "word"], [[v, w] for w in sorted(facts.words) for v in variants(w)])
        trigram: list[str] = []
        if not elsewhere:
            trigram = self._indexes(data, kinds, naming, facts)
            self._unique_key(data)
            self._view(data, header)
        self._analyze(*([] if elsewhere else [data.name]), names.name, spelling.name)
        imported = ImportedTable(self.source.physical, count, tuple((c, kinds[c]) for c in header),
                                 facts.kept_values(), facts.longest_name, tuple(trigram), shared_names)
        self.conn.execute(insert(CATALOGUE).values(
            physical=imported.physical, digest=self.source.digest, declared=self.kb.table or self.kb.name,
            source=_source_name(self.source), rows=count, columns=json.dumps(list(imported.columns)),
            facts=json.dumps({"values": imported.values, "name_words": imported.name_words,
                              "trigram": list(imported.trigram), "shared_names": imported.shared_names}),
            imported_at=dt.datetime.now(dt.timezone.utc)))
        self._grant(imported)
        return imported, self.notes

    def _external(self) -> tuple[list[str], dict[str, str], Iterator[dict[str, Any]]]:
        """The columns of a table that lives in a database, and its rows read there (streamed), each
        referred to by its key."""
        assert self.source.url is not None and self.kb.table, "a table in a database"
        engine = open_database(self.source.url).reader
        try:
            found = inspect(engine).get_columns(self.kb.table)
        except NoSuchTableError:
            raise TableInvalid(f"{self.kb.name}: there is no table {self.kb.table} in "
                               f"{make_url(self.source.url).render_as_string(hide_password=True)}") from None
        kinds = {c["name"]: "int" if isinstance(c["type"], Integer) else
                 "float" if isinstance(c["type"], (Float, Numeric)) else "str" for c in found}
        missing = [c for c in self.kb.columns if c not in kinds]
        if missing:
            raise TableInvalid(f"{self.kb.name}: the table {self.kb.table} has no column {', '.join(missing)}")
        return list(kinds), kinds, self._read_elsewhere(engine, list(kinds))

    def _read_elsewhere(self, engine: Any, header: list[str]) -> Iterator[dict[str, Any]]:
        key = self.kb.primary_key
        source = table(self.kb.table or self.kb.name, *(column(c) for c in header))
        with engine.connect() as conn:
            for row in conn.execution_options(stream_results=True, yield_per=BATCH).execute(select(source)):
                values = {c: float(v) if isinstance(v, Decimal) else v for c, v in row._mapping.items()}
                yield {ROW: values[key] if key else None, **values}

    # -- reading the CSV -----------------------------------------------------------------------------
    def _columns(self) -> tuple[list[str], dict[str, str]]:
        """The header and each column's kind (``int``, ``float``, ``str``): declared, else the narrowest
        that every value of the column parses as."""
        if self.kb.csv is None:
            return list(self.kb.columns), {c: d.type if d.type in _SQL_TYPES else "str" for c, d in self.kb.columns.items()}
        header: list[str] = []
        possible: dict[str, set[str]] = {}
        seen: set[str] = set()
        for line, values in self._lines():
            if not header:
                header = values
                if ROW in header:
                    raise TableInvalid(f"{self.kb.csv}:{line}: the column name {ROW} is reserved")
                possible = {c: {"int", "float"} for c in header}
                continue
            for column, value in zip(header, values):
                if value != "":
                    seen.add(column)
                    possible[column] -= {k for k in possible[column] if not _parses(value, k)}
        kinds = {}
        for column in header:
            declared = self.kb.columns.get(column)
            if declared is not None and declared.type in _SQL_TYPES:
                kinds[column] = declared.type
            else:
                inferred = possible[column] if column in seen else set()
                kinds[column] = "int" if "int" in inferred else "float" if "float" in inferred else "str"
        return header, kinds

    def _rows(self, header: list[str], kinds: dict[str, str]) -> Iterator[dict[str, Any]]:
        key = self.kb.primary_key if self.kb.primary_key in header else None
        number = 0
        for line, values in self._lines():
            if number == 0:
                number = 1
                continue
            assert self.kb.csv is not None, "rows are read from a CSV"
            check_width(self.kb.csv, line, values, header)
            row: dict[str, Any] = {ROW: number, LINE: line}
            for column, value in zip(header, [*values, *[""] * (len(header) - len(values))]):
                row[column] = typed_value(self.kb.csv, line, column, value, kinds[column])
            if key is not None and row[key] is None:
                raise TableInvalid(f"{self.kb.csv}:{line}: no value for the primary key {key}")
            number += 1
            yield row

    def _lines(self) -> Iterator[tuple[int, list[str]]]:
        """The CSV's rows (the header first) with their lines, from the bytes the agent was loaded with."""
        if self.file is None:
            return
        yield from self.file.rows()
        if self.file.sha256 != self.source.csv_sha256:
            raise TableInvalid(f"{self.kb.csv}: the file changed since the agent was loaded, or while it was being "
                               "imported: nothing was imported; load the agent again")

    def _lines_of(self, rows: list[int]) -> list[int]:
        """The lines where the rows numbered ``rows`` start, read again (an error is being reported)."""
        lines = {}
        for number, (line, _) in enumerate(self._lines()):
            if number in rows:
                lines[number] = line
        return [lines[r] for r in rows]

    # -- writing -------------------------------------------------------------------------------------
    def _write(self, table_: Table, columns: list[str], rows: list[list[Any]]) -> None:
        """Append ``rows`` (values of ``columns``): one prepared INSERT on SQLite, COPY on PostgreSQL."""
        if not rows:
            return
        quote = self.conn.dialect.identifier_preparer.quote
        into = f"{quote(table_.name)} ({', '.join(map(quote, columns))})"
        if self.dialect == "sqlite":
            self.conn.exec_driver_sql(f"INSERT INTO {into} VALUES ({', '.join('?' * len(columns))})",
                                      [tuple(r) for r in rows])
            return
        raw = self.conn.connection.dbapi_connection
        assert raw is not None, "a connection checked out of the pool"
        cursor: Any = raw.cursor()  # psycopg's, which copies
        with cursor, cursor.copy(f"COPY {into} FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)

    def _names(self, said: Table, names: Table, namesakes: Table) -> bool:
        """Each key once, naming the first record that has it as written, else the first that has it
        without its "The", else, as a short name or a run of words inside a name, the first record of the one
        name it is part of: an exact name wins over its namesakes. A short name several names share names
        each of their records, up to :data:`MAX_NAMESAKES` (the namesakes table). Returns whether two
        records have the same name."""
        quote = self.conn.dialect.identifier_preparer.quote
        into, source = quote(names.name), quote(said.name)
        shared = self.conn.exec_driver_sql(f"SELECT 1 FROM {source} WHERE rank = 0 GROUP BY key "
                                           f"HAVING COUNT(DISTINCT ref) > 1 LIMIT 1").first() is not None
        short = (f"SELECT key, MIN(ref) FROM {source} WHERE rank >= {SHORT_RANK} GROUP BY key "
                 f"HAVING COUNT(DISTINCT name) = 1")
        several = (f"SELECT DISTINCT s.key, s.ref FROM {source} AS s WHERE s.rank >= {SHORT_RANK} AND s.key IN ("
                   f"SELECT key FROM {source} WHERE rank >= {SHORT_RANK} GROUP BY key "
                   f"HAVING COUNT(DISTINCT name) BETWEEN 2 AND {MAX_NAMESAKES}) AND s.key NOT IN ("
                   f"SELECT key FROM {source} WHERE rank < {SHORT_RANK})")
        self.conn.exec_driver_sql(f"INSERT INTO {quote(namesakes.name)} (key, ref) {several}")
        if self.dialect == "sqlite":  # rows are inserted in the order selected; later ones with a key taken are ignored
            self.conn.exec_driver_sql(f"INSERT OR IGNORE INTO {into} (key, ref) "
                                      f"SELECT key, ref FROM {source} WHERE rank < {SHORT_RANK} ORDER BY rank, ref")
            self.conn.exec_driver_sql(f"INSERT OR IGNORE INTO {into} (key, ref) {short}")
        else:
            self.conn.exec_driver_sql(f"INSERT INTO {into} (key, ref) SELECT DISTINCT ON (key) key, ref "
                                      f"FROM {source} WHERE rank < {SHORT_RANK} ORDER BY key, rank, ref")
            self.conn.exec_driver_sql(f"INSERT INTO {into} (key, ref) {short} ON CONFLICT (key) DO NOTHING")
        said.drop(self.conn)
        return shared

    def _indexes(self, data: Table, kinds: dict[str, str], naming: list[str], facts: "_Facts") -> list[str]:
        """B-tree indexes on the key, names (as written and lowered), numbers, short texts and lowered
        categorical columns, and trigram indexes on the names and short texts; the columns with one of those."""
        key = self.kb.primary_key
        lowered = [c for c, values in facts.values.items() if values is not None and c not in naming]
        short = [c for c in kinds if kinds[c] == "str" and c not in lowered and not self._free_text(c)
                 and facts.average_length(c) <= SHORT_TEXT_CHARS]
        numbers = [c for c in kinds if kinds[c] != "str"]  # keys, ratings: equality and order
        indexable = [c for c in short if facts.longest(c) <= MAX_INDEXED_CHARS]
        plain = [c for c in dict.fromkeys([key, *naming, *indexable, *numbers]) if c and c in data.c]
        indexes = [Index(f"{data.name}_{i}", data.c[c]) for i, c in enumerate(plain)]
        indexes += [Index(f"{data.name}_l{i}", func.lower(data.c[c])) for i, c in enumerate(lowered)]
        indexes += [Index(f"{data.name}_n{i}", func.lower(data.c[c])) for i, c in enumerate(naming)
                    if c in data.c and c != key]  # every record with a shared name ("Yin Yoga", any case)
        for index in indexes:
            index.create(self.conn)
        if not short:
            return []
        return self._trigram_indexes(data, short) if self.dialect == "postgresql" else self._fts_trigram(data, short)

    def _fts_trigram(self, data: Table, columns: list[str]) -> list[str]:
        """An FTS5 table of ``columns`` with the trigram tokenizer, over the rows of ``data`` (not a
        copy): ``LIKE '%...%'`` on it reads the index (see :meth:`.sql.SafeQuery.stored_in`)."""
        quote = self.conn.dialect.identifier_preparer.quote
        fts, names = quote(part(data.name, "trigram")), ", ".join(quote(c) for c in columns)
        self.conn.exec_driver_sql(f"CREATE VIRTUAL TABLE {fts} USING fts5({names}, content={quote(data.name)}, "
                                  f"content_rowid={quote(ROW)}, tokenize='trigram', detail='none')")
        self.conn.exec_driver_sql(f"INSERT INTO {fts} (rowid, {names}) SELECT {quote(ROW)}, {names} "
                                  f"FROM {quote(data.name)}")
        return columns


    def _free_text(self, column: str) -> bool:
        declared = self.kb.columns.get(column)
        return bool(declared and declared.free_text)

    def _trigram_indexes(self, data: Table, columns: list[str]) -> list[str]:
        """``pg_trgm`` GIN indexes on ``columns`` (which PostgreSQL reads for ``ILIKE '%...%'`` itself)."""
        quote = self.conn.dialect.identifier_preparer.quote
        try:
            with self.conn.begin_nested():
                self.conn.execute(text("CREATE EXTENSION IF NOT EXISTS pg_trgm"))
        except Exception as exc:  # noqa: BLE001 - no permission to create it: queries scan instead
            self.notes.append(f"no trigram indexes: pg_trgm is not available ({str(exc).splitlines()[0]})")
            return []
        schema = self.conn.execute(text("SELECT extnamespace::regnamespace::text FROM pg_extension "
                                        "WHERE extname = 'pg_trgm'")).scalar_one()
        for i, column in enumerate(columns):
            self.conn.execute(text(f"CREATE INDEX {quote(f'{data.name}_t{i}')} ON {quote(data.name)} "
                                   f"USING gin ({quote(column)} {schema}.gin_trgm_ops)"))
        return columns

    def _analyze(self, *tables: str) -> None:
        """Statistics for the planner: which index is selective."""
        quote = self.conn.dialect.identifier_preparer.quote
        for name in tables:
            self.conn.exec_driver_sql(f"ANALYZE {quote(name)}")

    def _unique_key(self, data: Table) -> None:
        """No two records with the same primary key (found with the key's index)."""
        key = self.kb.primary_key
        if key is None or key not in data.c:
            return
        quote = self.conn.dialect.identifier_preparer.quote
        found = self.conn.exec_driver_sql(
            f"SELECT {quote(key)} FROM {quote(data.name)} GROUP BY {quote(key)} HAVING COUNT(*) > 1 LIMIT 1").first()
        if found is None:
            return
        rows = [r for (r,) in self.conn.execute(select(data.c[ROW]).where(data.c[key] == found[0])
                                                .order_by(data.c[ROW]).limit(2))]
        first, again = self._lines_of(rows)
        raise TableInvalid(f"{self.kb.csv}:{again}: the primary key {key} is {found[0]!r} again (as on line {first})")

    def _view(self, data: Table, header: list[str]) -> None:
        quote = self.conn.dialect.identifier_preparer.quote
        self.conn.execute(text(f"CREATE VIEW {quote(part(data.name, 'v'))} AS SELECT "
                               f"{', '.join(quote(c) for c in header)} FROM {quote(data.name)}"))

    def _grant(self, imported: ImportedTable) -> None:
        """On PostgreSQL, let the role of ``read_url`` read what was imported."""
        if self.dialect != "postgresql" or not self.database.read_url:
            return
        reader, writer = make_url(self.database.read_url).username, make_url(self.database.url).username
        if not reader or reader == writer:
            return
        quote = self.conn.dialect.identifier_preparer.quote
        tables = [CATALOGUE.name, imported.physical, *(imported.part(p) for p in ("v", "names", "spelling"))]
        self.conn.execute(text(f"GRANT USAGE ON SCHEMA {quote(self.conn.execute(text('SELECT current_schema()')).scalar_one())} "
                               f"TO {quote(reader)}"))
        self.conn.execute(text(f"GRANT SELECT ON {', '.join(quote(t) for t in tables)} TO {quote(reader)}"))


class _Facts:
    """What the catalogue keeps about a table, gathered batch by batch."""

    def __init__(self, header: list[str], kinds: dict[str, str], naming: list[str], source: str):
        self.source = source
        self.values: dict[str, dict[str, None] | None] = {c: {} for c in header if kinds[c] == "str"}
        self.lengths = {c: [0, 0, 0] for c in self.values}
        """column -> [characters, values, the longest value's characters]"""
        self.naming = naming
        self.words: set[str] = set()
        self.longest_name = 0

    def add(self, batch: list[dict[str, Any]]) -> None:
        for row in batch:
            for column, seen in self.values.items():
                value = row[column]
                if value is None:
                    continue
                value = value if isinstance(value, str) else str(value)  # a date of a table in a database
                lengths = self.lengths[column]
                lengths[0] += len(value)
                lengths[1] += 1
                lengths[2] = max(lengths[2], len(value))
                if seen is not None and value not in seen:
                    seen[value] = None
                    if len(seen) > KEPT_VALUES or len(value) > MAX_INDEXED_CHARS:
                        self.values[column] = None  # no categorical column: too many values, or too long
            for column in self.naming:
                said = row[column]
                if isinstance(said, str):
                    self._name(row, column, said)

    def _name(self, row: dict[str, Any], column: str, said: str) -> None:
        where = f"{self.source}:{row[LINE]}" if LINE in row else f"{self.source}: record {row[ROW]!r}"
        if len(said) > MAX_NAME_CHARS:
            raise TableInvalid(f"{where}: the {column} {said[:40]!r}… has {len(said):,} characters; a name has at "
                               f"most {MAX_NAME_CHARS}")
        words = name_words(said)
        if len(words) > MAX_NAME_WORDS:
            raise TableInvalid(f"{where}: the {column} {said[:60]!r}… has {len(words)} words; a name is found in "
                               f"messages only up to {MAX_NAME_WORDS} words")
        self.longest_name = max(self.longest_name, len(words))
        self.words.update(w for w in words if len(w) >= MIN_CHARS)

    def kept_values(self) -> dict[str, list[Any]]:
        return {c: list(seen) for c, seen in self.values.items() if seen is not None}

    def average_length(self, column: str) -> float:
        total, count, _ = self.lengths.get(column, (0, 0, 0))
        return total / count if count else 0.0

    def longest(self, column: str) -> int:
        return self.lengths.get(column, (0, 0, 0))[2]


def _keys(batch: list[dict[str, Any]], naming: list[str]) -> Iterator[list[Any]]:
    """(key, row, rank, name) of each name of the rows: rank 0 as written, 1 without its "The",
    :data:`SHORT_RANK` a short name (of a name that is no key: a code has none), :data:`INNER_RANK`
    words inside a name."""
    for row in batch:
        for column in naming:
            said = row[column]
            if isinstance(said, str):
                exact, alias = name_keys(said)
                if len(exact) >= 2:
                    yield [exact, row[ROW], 0, exact]
                if alias != exact and len(alias) >= 2:
                    yield [alias, row[ROW], 1, exact]
                if column in NAME_COLUMNS:
                    yield from ([key, row[ROW], SHORT_RANK, exact] for key in short_names(said))
                    yield from ([key, row[ROW], INNER_RANK, exact] for key in inner_names(said))


def _batches(rows: Iterator[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) >= BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _parses(value: str, kind: str) -> bool:
    try:
        int(value) if kind == "int" else float(value)
    except ValueError:
        return False
    return True


def _source_name(source: TableSource) -> str:
    kb = source.kb
    if source.url is not None:
        return f"{kb.table} in {make_url(source.url).render_as_string(hide_password=True)} (names only)"
    return kb.csv.name if kb.csv is not None else f"{kb.name} (declared columns, no rows)"


def database_url(written: str) -> str:
    """A worksheet's ``database:`` with each ``${VAR}`` replaced by the environment variable."""
    def value(match: re.Match[str]) -> str:
        if match.group(1) not in os.environ:
            raise TableInvalid(f"the database URL {written} names ${{{match.group(1)}}}, which is not set")
        return os.environ[match.group(1)]

    return _VARIABLE.sub(value, written)


_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")

