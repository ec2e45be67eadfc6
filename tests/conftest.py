"""Suite-wide pytest setup."""

# `pytester` runs real pytest sessions on generated test files (tests of the pytest helpers).
pytest_plugins = ["pytester"]
