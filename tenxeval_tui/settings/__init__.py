"""The project's settings (``[tool.tenxeval]``) and the user's own state. No UI."""
