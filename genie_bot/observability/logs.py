"""Log output of ``genie-bot run``: plain text, or one JSON object per line for log pipelines.

A record may carry structured fields (``extra={"fields": {...}}``, as the turn log does):
the JSON formatter puts them at the top level of its line, the text formatter after the message.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import Any

from ..config import LoggingSettings
from .scrub import ContentScrubber

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
QUIET_LOGGERS = ("httpx", "alembic.runtime.migration")
"""httpx: one INFO line per HTTP request, already counted in the turn log and metrics; alembic: two
lines each time the schema's revision is read ("Context impl SQLiteImpl"), which say nothing."""
CONTENT_LOGGERS = ("sqlglot",)
"""Libraries that quote what they read in their log lines: sqlglot warns with the SQL an LLM wrote
from a user's question ("'...' contains unsupported syntax"). Silent unless content is included;
what they warn about is refused with a reason anyway."""


def configure_logging(settings: LoggingSettings, warnings_only: bool = False) -> None:
    """The root logger as ``settings`` say; ``warnings_only`` shows no record below WARNING (where the
    log shares a terminal with a conversation)."""
    handler = logging.FileHandler(settings.file) if settings.file else logging.StreamHandler(sys.stderr)
    if warnings_only:
        handler.setLevel(logging.WARNING)
    handler.setFormatter(JsonFormatter() if settings.format == "json" else TextFormatter(TEXT_FORMAT))
    if not settings.include_content:
        handler.addFilter(ContentScrubber())
    logging.basicConfig(level=settings.level.upper(), handlers=[handler], force=True)
    for chatty in QUIET_LOGGERS:
        logging.getLogger(chatty).setLevel(max(logging.WARNING, logging.getLogger().level))
    for quoting in CONTENT_LOGGERS:
        logging.getLogger(quoting).setLevel(logging.NOTSET if settings.include_content else logging.CRITICAL + 1)


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    fields = getattr(record, "fields", None)
    return fields if isinstance(fields, dict) else {}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {"time": self.formatTime(record), "level": record.levelname, "logger": record.name,
                 "message": record.getMessage(), **_fields(record)}
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        fields = _fields(record)
        return f"{text} {json.dumps(fields, ensure_ascii=False, default=str)}" if fields else text
