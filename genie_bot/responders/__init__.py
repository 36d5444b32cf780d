"""Response generators: agent acts to the text the user reads."""

from .base import Responder
from .templates import TemplateResponder, render_value

__all__ = ["Responder", "TemplateResponder", "render_value"]
