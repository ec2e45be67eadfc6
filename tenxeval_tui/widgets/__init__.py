"""Widgets of the workbench, one a file."""
