"""What reads, writes and marks a run's results (the result models themselves are
10xGraph's :mod:`~tenxeval_tui.evaluation.eval_result`).

- :mod:`.verdicts`: a judged criterion with no verdict errors its case, never fails it.
- :mod:`.node_views`: a case result's two views of its node responses, made as written.
- :mod:`.json_stream`: a report's JSON written in pieces, byte for byte pydantic's.
- :mod:`.lean_load`: a case result read back from its JSON at a fraction of the memory.
- :mod:`.journal`: the run journal, one JSON line per finished case.
"""
