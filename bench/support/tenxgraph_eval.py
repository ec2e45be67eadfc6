"""10xGraph 0.10.3's own harness on one eval set file, as a user of it runs it: the graph
compiled with ``create_eval_app``, ``AgentEvaluator.evaluate`` on ``EvalSet.from_file``,
then ``ReporterManager.run_all`` (JSON and HTML, no console). 10xGraph ships no command
for this, so this script is its whole-process counterpart of ``tenxeval-tui run``.

Run: python bench/support/tenxgraph_eval.py EVALSET_JSON OUTPUT_DIR CONFIG_JSON
(the config: 10xGraph's ``EvalConfig`` fields; ``exact_match``, which 10xGraph's config
cannot name, is added as the one criterion). Exit 0 when every case passed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tenxgraph.qa.evaluation import (
    AgentEvaluator,
    EvalConfig,
    EvalSet,
    ReporterConfig,
    ReporterManager,
    create_eval_app,
)
from tenxgraph.qa.evaluation.config.criterion_config import CriterionConfig
from tenxgraph.qa.evaluation.criteria.response import ExactMatchCriterion

from bench.support.echo_graph import build_graph


async def main(eval_set_path: str, output_dir: str, config_path: str) -> int:
    logging.disable(logging.WARNING)
    settings = json.loads(Path(config_path).read_text(encoding="utf-8"))
    config = EvalConfig(
        parallel=settings.get("parallel", False),
        max_concurrency=settings.get("max_concurrency", 4),
        # The reports are written once, below, into the bench's folder: the evaluator's own
        # (on by default) went to ./eval_reports of the checkout, a second time.
        reporter=ReporterConfig(enabled=False),
    )
    app, collector = create_eval_app(build_graph())
    evaluator = AgentEvaluator(app, collector, config)
    evaluator.criteria = [ExactMatchCriterion(config=CriterionConfig(threshold=1.0))]
    report = await evaluator.evaluate(EvalSet.from_file(eval_set_path))
    reporters = ReporterConfig(output_dir=output_dir, console=False, json_report=True, html=True)
    output = ReporterManager(reporters).run_all(report)
    if output.has_errors:
        print(output.errors, file=sys.stderr)
        return 2
    return 0 if report.summary.passed_cases == report.summary.total_cases else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(*sys.argv[1:4])))
