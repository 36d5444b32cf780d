"""Response generators: agent acts to the text the user reads."""

from .base import Responder
from .display import display_value, summary_lines
from .templates import TemplateResponder

__all__ = ["Responder", "TemplateResponder", "display_value", "summary_lines"]
