"""Knowledge sources: tables imported into the knowledge database, queried read-only, and the offline query matcher."""

from .database import KnowledgeDatabase, open_database
from .keyword_query import KeywordQuery
from .store import KnowledgeStore

__all__ = ["KeywordQuery", "KnowledgeDatabase", "KnowledgeStore", "open_database"]
