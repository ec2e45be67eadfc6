"""The parts of ``bench/tui_keys_to_screen.py``: a terminal of our own (a pty read through
pyte), the floor app, the eval set and report it opens, and the actions it times."""
