"""Knowledge sources: tables loaded into SQL, queried read-only, and the offline query matcher."""

from .store import KnowledgeStore
from .keyword_query import KeywordQuery

__all__ = ["KeywordQuery", "KnowledgeStore"]
