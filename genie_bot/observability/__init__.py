"""What an operator sees of a running bot: the JSON turn log, Prometheus metrics, session traces.

Nothing here changes what a turn does: the engine calls a :class:`TurnObserver` once per
turn, and the LLM clients of its agents report every call to it (see :mod:`.usage`).
"""

from .metrics import Metrics
from .observer import TurnObserver
from .usage import TurnUsage, measuring

__all__ = ["Metrics", "TurnObserver", "TurnUsage", "measuring"]
