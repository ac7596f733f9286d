"""The command line: argument parsing, file reading, printing."""

from ._main import main

__all__ = ["main"]
