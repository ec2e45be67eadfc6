"""Reading and writing the core's files: JSON with precise errors and atomic writes, text
read with bounds, where a JSON path sits in its text, and why valid-looking JSON still
cannot be loaded.

Not part of the 10xGraph API. The other layers use :mod:`.fileio` (atomic writes) and
:mod:`.textfiles` (bounded reads) for their own files too.
"""
