"""Loading an agent's module of API functions and checking calls against their signatures.

The module is developer code shipped with the agent (never LLM or user text), so it is
imported normally. Every public function defined in it is registered under its name.

It is imported in a child process first, with a deadline: a module that blocks at import
(waits on a lock, a network call, ``input()``) or exits (``sys.exit``) is reported as an
error instead of hanging or ending the thread that loads it, the engine's reload among them.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import GenieError


IDEMPOTENCY_PARAMETER = "idempotency_key"
"""A parameter of this name receives the pending-action id, so a retried call can be deduplicated."""


IMPORT_TIMEOUT_SECONDS = 20.0
"""How long importing an agent's api.py may take (in the child process that checks it)."""

_CHECK = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("genie_agent_api_check", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(sys.argv[2], flush=True)
"""
_IMPORTED = "genie-bot: api module imported"


class ApiModuleError(GenieError):
    def __init__(self, message: str, line: int = 1):
        self.line = line
        super().__init__(message)


def import_api_module(path: Path) -> dict[str, Callable[..., Any]]:
    """Import ``path`` under a name unique to its content and return its public functions."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    module_name = f"genie_agent_api_{path.parent.name}_{digest}"
    module = sys.modules.get(module_name)
    if module is None:
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise ApiModuleError(f"cannot import {path.name}")
        module = importlib.util.module_from_spec(spec)
        try:
            compile(path.read_bytes(), str(path), "exec")  # syntax errors with their line, without a child
            _check_import(path)
            spec.loader.exec_module(module)
        except SyntaxError as exc:
            raise ApiModuleError(f"syntax error in {path.name}: {exc.msg}", exc.lineno or 1) from None
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - any import-time failure is reported, not raised
            if isinstance(exc, ApiModuleError):
                raise
            raise ApiModuleError(f"importing {path.name} failed: {type(exc).__name__}: {exc}") from None
        sys.modules[module_name] = module
    return {
        name: obj
        for name, obj in vars(module).items()
        if inspect.isfunction(obj) and obj.__module__ == module_name and not name.startswith("_")
    }


def _check_import(path: Path) -> None:
    """Import ``path`` in a child process within :data:`IMPORT_TIMEOUT_SECONDS`; ApiModuleError if
    it does not finish, fails or exits there."""
    try:
        done = subprocess.run([sys.executable, "-c", _CHECK, str(path.resolve()), _IMPORTED], cwd=path.parent,
                              capture_output=True, text=True, timeout=IMPORT_TIMEOUT_SECONDS, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise ApiModuleError(f"importing {path.name} did not finish within {IMPORT_TIMEOUT_SECONDS:g} s "
                             "(does it wait for something at import?)") from None
    if done.returncode == 0 and _IMPORTED in done.stdout:
        return
    last = (done.stderr.strip().splitlines() or [""])[-1][:300]
    if done.returncode == 0 or "SystemExit" in last or not last:
        raise ApiModuleError(f"importing {path.name} exited (status {done.returncode}) instead of returning")
    raise ApiModuleError(f"importing {path.name} failed: {last}")


def parameters(fn: Callable[..., Any]) -> tuple[list[str], list[str], bool]:
    """(all named parameters, the required ones, whether it takes ``**kwargs``)."""
    names, required, var_kw = [], [], False
    for p in inspect.signature(fn).parameters.values():
        if p.kind is p.VAR_KEYWORD:
            var_kw = True
        elif p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            names.append(p.name)
            if p.default is p.empty and p.name != IDEMPOTENCY_PARAMETER:
                required.append(p.name)
    return names, required, var_kw


def check_call(fn: Callable[..., Any], n_args: int, keywords: list[str]) -> str | None:
    """Why calling ``fn`` with that many positional args and those keywords fails, or None."""
    signature = inspect.signature(fn)
    extra = {IDEMPOTENCY_PARAMETER: None} if IDEMPOTENCY_PARAMETER in signature.parameters else {}
    try:
        signature.bind(*([None] * n_args), **{**extra, **{k: None for k in keywords}})
    except TypeError as exc:
        return str(exc)
    return None
