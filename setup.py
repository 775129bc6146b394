"""Build hook: a wheel carries the shipped resources (dictionaries, templates, ensembles,
samples) inside the package as ``deid_desktop/_resources``, so an installed app finds them
without the checkout. Everything else about the build is in pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithResources(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads resources/ from the checkout itself
        source = Path(__file__).resolve().parent / "resources"
        target = Path(self.build_lib) / "deid_desktop" / "_resources"
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildWithResources})
