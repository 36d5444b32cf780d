"""The worksheet language: spec model, types, and the validating loader."""

from .diagnostics import Loc, SpecError, SpecInvalid
from .loader import check_agent, load_agent
from .model import AgentSpec, ApiFunction, ApiSpec, Code, Column, Field, KnowledgeWorksheet, TaskWorksheet, Validation
from .types import NA, CoercionError, FieldType, InstanceRef, coerce

__all__ = [
    "NA", "AgentSpec", "ApiFunction", "ApiSpec", "Code", "CoercionError", "Column", "Field", "FieldType", "InstanceRef",
    "KnowledgeWorksheet", "Loc", "SpecError", "SpecInvalid", "TaskWorksheet", "Validation", "check_agent", "coerce",
    "load_agent",
]
