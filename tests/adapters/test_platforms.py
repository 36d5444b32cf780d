import importlib

from genie_bot.adapters.platforms import ADAPTERS
from genie_bot.config import PLATFORMS


def test_every_platform_genie_yaml_accepts_has_an_adapter():
    assert set(ADAPTERS) == set(PLATFORMS)


def test_each_platform_package_makes_its_adapter():
    for package in ADAPTERS.values():
        assert callable(importlib.import_module(package).create_adapter)
