"""Accept the actual: a run's reply, tool calls and node order become its case's
expectations. The one home of its UI, whichever screen it starts from.

- :mod:`.one_case`: one case (``a`` in the report browser and the run view): the diff,
  the choice of parts, the refusals.
- :mod:`.batch`: several cases of one eval set (``A``): one dialog, one write.
- :mod:`.report_cases` / :mod:`.run_cases`: which cases, picked from a report or from the
  run view (whose lean results are read back from the run's reports).
- :mod:`.in_editor`: the write through the editor's document (one undo step there), which
  the workbench does as its host's ``accept_actual`` / ``accept_actual_many``.

The plans and the writes themselves are headless: :mod:`tenxeval_tui.authoring.accept_actual`
and :mod:`tenxeval_tui.authoring.accept_many`.
"""
