"""``python -m tenxeval_tui.evaluation.schemas``: regenerate the shipped schemas."""

from tenxeval_tui.evaluation.schemas.generate import write_shipped_schemas

for path in write_shipped_schemas():
    print(f"wrote {path}")
