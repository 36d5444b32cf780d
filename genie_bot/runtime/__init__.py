"""The deterministic runtime: applying parser statements, the agent policy, running a turn."""

from .executor import (ApiExecutor, ApiRequest, Knowledge, KnowledgeResult, KnowledgeUnavailable, LocalApiExecutor,
                       RecordedKnowledge)
from .runner import Runtime, TurnResult
from .turn import Rejection, Update
from .updates import ConfirmInstance

__all__ = ["ApiExecutor", "ApiRequest", "ConfirmInstance", "Knowledge", "KnowledgeResult", "KnowledgeUnavailable",
           "LocalApiExecutor", "RecordedKnowledge", "Rejection", "Runtime", "TurnResult", "Update"]
