"""The wheel installs ``genie_bot`` alone: every package of the repository, under its installed name."""

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_pyproject_lists_every_package_under_its_installed_name():
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    roots = {"genie_bot": REPO / "genie_bot"} | {name: REPO / folder
                                                 for name, folder in setuptools["package-dir"].items()}
    found = set()
    for name, folder in roots.items():
        for init in folder.rglob("__init__.py"):
            found.add(".".join([name, *init.parent.relative_to(folder).parts]))
    assert sorted(setuptools["packages"]) == sorted(found)
    assert all(name.split(".")[0] == "genie_bot" for name in found)
