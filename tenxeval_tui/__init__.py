"""tenxeval-tui: a terminal workbench for authoring and running AI-agent evaluations."""

__version__ = "0.1.0"
