"""Where :class:`~tenxeval_tui.evaluation.evaluator.EvaluationRunner` was first importable
from, with the journal and observer names it brought along; it lives in :mod:`.evaluator`."""

from tenxeval_tui.evaluation.evaluator import EvaluationRunner
from tenxeval_tui.evaluation.observers import JsonLinesObserver, RunObserver, replay_json_lines
from tenxeval_tui.evaluation.results.journal import RunJournal, read_journal, report_from_journal

__all__ = [
    "EvaluationRunner",
    "JsonLinesObserver",
    "RunJournal",
    "RunObserver",
    "read_journal",
    "replay_json_lines",
    "report_from_journal",
]
