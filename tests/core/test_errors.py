"""Every exception genie-bot defines derives from GenieError, and none steers control flow past
``except Exception`` (a BaseException that must not be caught)."""

import importlib
import inspect
import pkgutil

import genie_bot
import genie_bot.adapters
from genie_bot.errors import GenieError


def test_every_project_exception_derives_from_genie_error():
    packages = ((genie_bot.__path__, "genie_bot."), (genie_bot.adapters.__path__, "genie_bot.adapters."))
    modules = [importlib.import_module(m.name) for path, prefix in packages for m in pkgutil.walk_packages(path, prefix)
               if not m.name.endswith("__main__")]
    defined = {cls for module in modules for _, cls in inspect.getmembers(module, inspect.isclass)
               if issubclass(cls, BaseException) and cls.__module__.startswith("genie_bot")}
    assert len(defined) > 20
    assert sorted(cls.__qualname__ for cls in defined if not issubclass(cls, GenieError)) == []
