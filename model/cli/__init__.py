"""The command line: ``python -m model.cli train|translate|evaluate|info|data|average``."""

from model.cli.commands import build_parser, main, version

__all__ = ["build_parser", "main", "version"]
