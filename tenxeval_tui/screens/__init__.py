"""Screens of the workbench, one a file."""
