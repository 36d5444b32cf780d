from genie_bot.adapters.platforms import ADAPTERS
from genie_bot.config import PLATFORMS


def test_every_platform_genie_yaml_accepts_has_an_adapter():
    assert set(ADAPTERS) == set(PLATFORMS)
