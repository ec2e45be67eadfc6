"""The eval-set document model: edit, undo, problems, byte-preserving save. No UI."""
