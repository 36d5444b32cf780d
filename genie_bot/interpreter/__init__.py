"""The safe interpreter: one small evaluator over Python's ``ast`` for worksheet code
(predicates, actions, validation) and for the statements a parser emits.

Nothing here calls ``eval``/``exec``/``compile``. Source is parsed, checked against a
whitelist (:mod:`.whitelist`) and walked node by node (:mod:`.evaluator`); the only Python
callables ever invoked are the ones a :class:`~.scope.Scope` explicitly exposes.
"""

from .costs import TooLarge, measure
from .errors import InterpreterError, StepLimitExceeded
from .evaluator import Evaluator, Limits
from .functions import SafeFunction
from .scope import Scope
from .whitelist import parse_checked

__all__ = ["Evaluator", "InterpreterError", "Limits", "SafeFunction", "Scope", "StepLimitExceeded", "TooLarge",
           "measure", "parse_checked"]
