"""Reading runs against each other: comparing two runs, how unstable cases are, the variant
matrix of several runs, and how far a judge agrees with people.

- :mod:`.compare`: which cases regressed, were fixed, appeared or disappeared between two
  runs (``compare A B``), with Fisher's test on repeated cases.
- :mod:`.flakiness`: where two runs of a case part ways; flaky cases over a history.
- :mod:`.matrix`, :mod:`.matrix_text`: several variants' runs side by side (ranked stats,
  pairwise tests, the Pareto line) and that matrix as text.
- :mod:`.agreement`: a judge against human labels (Cohen's kappa, TPR, TNR).

The statistics themselves (pass@k, Wilson intervals, Fisher's exact test) are the core's
:mod:`~tenxeval_tui.evaluation.stats`, which the results' summaries use too.
"""
