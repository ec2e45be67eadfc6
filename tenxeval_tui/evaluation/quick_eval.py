"""QuickEval: one-call evaluations for notebooks, scripts and smoke tests.

Each method builds the eval set and the config 10xGraph's ``QuickEval`` builds
(same parameters and defaults), runs it with :class:`AgentEvaluator` and
returns the :class:`EvalReport`; the report is printed by the console reporter
unless ``print_results=False``. Report files are written as ``config.reporter``
says, as with any ``AgentEvaluator.evaluate``.
"""

from __future__ import annotations

from typing import Any

from tenxeval_tui.evaluation.agent_evaluator import AgentEvaluator
from tenxeval_tui.evaluation.collectors.trajectory_collector import TrajectoryCollector
from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.config.presets import EvalPresets
from tenxeval_tui.evaluation.dataset.builder import EvalSetBuilder
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet, ToolCall
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.reporters.console import print_report
from tenxeval_tui.evaluation.syncrun import run_to_end


async def _evaluate(
    graph: Any,
    collector: TrajectoryCollector,
    eval_set: EvalSet | str,
    config: EvalConfig,
    verbose: bool,
    print_results: bool,
) -> EvalReport:
    evaluator = AgentEvaluator(graph, collector, config=config)
    report = await evaluator.evaluate(eval_set, verbose=verbose)
    if print_results:
        print_report(report)
    return report


class QuickEval:
    """Shortcuts for common evaluations (10xGraph's ``QuickEval``)."""

    @classmethod
    async def check(
        cls,
        graph: Any,
        collector: TrajectoryCollector,
        query: str,
        expected_response_contains: str | None = None,
        expected_response_equals: str | None = None,
        expected_tools: list[str] | None = None,
        threshold: float = 0.7,
        verbose: bool = True,
        print_results: bool = True,
    ) -> EvalReport:
        """One query, one case (``quick_check``).

        The expected reply is ``expected_response_equals``, else
        ``expected_response_contains``, else ``"response"``; it is scored by
        ROUGE-1 at 0.5 (``EvalPresets.quick_check()``). With ``expected_tools``
        the config is ``EvalPresets.custom(response_threshold=threshold,
        tool_threshold=1.0)`` instead: the tools by name and in order, and
        the reply by ROUGE at ``threshold``.
        """
        expected = expected_response_equals or expected_response_contains or "response"
        tools = [ToolCall(name=name) for name in expected_tools] if expected_tools else None
        case = EvalCase.single_turn(
            eval_id="quick_check",
            user_query=query,
            expected_response=expected,
            expected_tools=tools,
        )
        eval_set = EvalSet(eval_set_id="quick_check", name="Quick Check", eval_cases=[case])
        if expected_tools:
            config = EvalPresets.custom(response_threshold=threshold, tool_threshold=1.0)
        else:
            config = EvalPresets.quick_check()
        return await _evaluate(graph, collector, eval_set, config, verbose, print_results)

    @classmethod
    async def preset(
        cls,
        graph: Any,
        collector: TrajectoryCollector,
        preset: EvalConfig,
        eval_set: EvalSet | str,
        verbose: bool = True,
        print_results: bool = True,
    ) -> EvalReport:
        """``eval_set`` (an :class:`EvalSet` or a file path) under the config ``preset``."""
        return await _evaluate(graph, collector, eval_set, preset, verbose, print_results)

    @classmethod
    async def batch(
        cls,
        graph: Any,
        collector: TrajectoryCollector,
        test_pairs: list[tuple[str, str]],
        threshold: float = 0.7,
        verbose: bool = True,
        print_results: bool = True,
    ) -> EvalReport:
        """One case per ``(query, expected reply)`` pair, ROUGE-1 at ``threshold``."""
        eval_set = EvalSetBuilder.quick(*test_pairs)
        config = EvalPresets.quick_check()
        rouge = config.criteria.rouge_match
        assert rouge is not None  # quick_check always sets it
        rouge.threshold = threshold
        return await _evaluate(graph, collector, eval_set, config, verbose, print_results)

    @classmethod
    async def tool_usage(
        cls,
        graph: Any,
        collector: TrajectoryCollector,
        test_cases: list[tuple[str, str, list[str]]],
        strict: bool = True,
        verbose: bool = True,
        print_results: bool = True,
    ) -> EvalReport:
        """One case per ``(query, expected reply, tool names)``, ids ``tool_test_1``...,
        under ``EvalPresets.tool_usage(strict=strict)``."""
        builder = EvalSetBuilder("tool_usage_tests")
        for number, (query, expected, tools) in enumerate(test_cases, start=1):
            builder.add_case(
                query=query, expected=expected, expected_tools=tools, case_id=f"tool_test_{number}"
            )
        config = EvalPresets.tool_usage(strict=strict)
        return await _evaluate(graph, collector, builder.build(), config, verbose, print_results)

    @classmethod
    async def conversation_flow(
        cls,
        graph: Any,
        collector: TrajectoryCollector,
        conversation: list[tuple[str, str]],
        threshold: float = 0.8,
        verbose: bool = True,
        print_results: bool = True,
    ) -> EvalReport:
        """One multi-turn case from ``(user message, expected reply)`` turns, under
        ``EvalPresets.conversation_flow(threshold=threshold)``."""
        case = EvalCase.multi_turn(eval_id="conversation_flow", conversation=conversation)
        eval_set = EvalSet(
            eval_set_id="conversation_test", name="Conversation Flow Test", eval_cases=[case]
        )
        config = EvalPresets.conversation_flow(threshold=threshold)
        return await _evaluate(graph, collector, eval_set, config, verbose, print_results)

    @classmethod
    async def from_builder(
        cls,
        graph: Any,
        collector: TrajectoryCollector,
        builder: EvalSetBuilder,
        config: EvalConfig | None = None,
        verbose: bool = True,
        print_results: bool = True,
    ) -> EvalReport:
        """The builder's eval set, under ``config`` (default ``quick_check``)."""
        config = config or EvalPresets.quick_check()
        return await _evaluate(graph, collector, builder.build(), config, verbose, print_results)

    @classmethod
    def run_sync(
        cls,
        graph: Any,
        collector: TrajectoryCollector,
        eval_set: EvalSet | str,
        config: EvalConfig | None = None,
        verbose: bool = True,
        print_results: bool = True,
    ) -> EvalReport:
        """Evaluate from synchronous code, with or without a running event loop.

        Inside a running loop (a notebook) the evaluation runs on a loop of its
        own in a helper thread (10xGraph's ``asyncio.run`` raises there).
        """
        config = config or EvalPresets.quick_check()
        return run_to_end(
            _evaluate(graph, collector, eval_set, config, verbose, print_results),
            thread_name="QuickEval.run_sync",
        )


__all__ = ["QuickEval"]
