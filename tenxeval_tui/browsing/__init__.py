"""Reports for browsing: the folder index, one report as rows, diffs and copies. No UI."""
