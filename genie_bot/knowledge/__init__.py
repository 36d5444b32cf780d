"""Knowledge sources: tables imported into the knowledge database, queried read-only, and the
offline query matcher.

SQLAlchemy comes with :class:`KnowledgeDatabase`, :class:`KnowledgeStore` and :class:`KeywordQuery`,
so the package loads them on first use (PEP 562): the rule-based parser reads record names
(:mod:`.mentions`) for every agent, also those without a table, which start without SQLAlchemy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .database import KnowledgeDatabase, open_database
    from .keyword_query import KeywordQuery
    from .store import KnowledgeStore

_EXPORTS = {"KeywordQuery": ".keyword_query", "KnowledgeStore": ".store", "KnowledgeDatabase": ".database",
            "open_database": ".database"}

__all__ = ["KeywordQuery", "KnowledgeDatabase", "KnowledgeStore", "open_database"]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name], __name__), name)
