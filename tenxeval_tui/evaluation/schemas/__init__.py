"""JSON Schemas of eval set, scenario, labels and config files, shipped in the package.

``tenxeval-tui schema evalset`` prints one; a file names it in its ``$schema`` key
(or an editor maps ``*.evalset.json`` to it) and the editor validates and completes
the file as it is typed. The shipped files are made from the pydantic models by
:func:`~tenxeval_tui.evaluation.schemas.generate.write_shipped_schemas`
(``python -m tenxeval_tui.evaluation.schemas``); a test fails when they and the
models part ways. Reading a shipped schema imports no model.
"""

from tenxeval_tui.evaluation.schemas.shipped import (
    SCHEMA_FILES,
    shipped_schema_path,
    shipped_schema_text,
)

__all__ = ["SCHEMA_FILES", "shipped_schema_path", "shipped_schema_text"]
