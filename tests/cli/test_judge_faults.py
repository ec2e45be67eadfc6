"""`tenxeval-tui run` with a judge that misbehaves: the real console script against the
loopback OpenAI-compatible server (tests/evaluation/criteria/judge_server.py).

- ``judge_timeout`` is a deadline for each whole request: a server that trickles its reply
  is cut off at it, and the late answer is never scored;
- a judge that gives no verdict (HTTP 500 after its retries, a timeout, an unreachable
  endpoint) errors the case, so ``--error-exit-code`` and ``--retry-errors`` apply;
- credentials in the judge's endpoint never reach a report, the console, a debug log or
  ``tenxeval-tui settings``;
- a reply without token usage is estimated (and warned about), so ``--max-cost`` still
  bounds the run; negative usage is refused.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

from tenxeval_tui.evaluation import CriterionConfig, EvalConfig, ModelPrice
from tests.cli.conftest import InProcess, Outcome
from tests.cli.test_run import AGENT, reports
from tests.evaluation.criteria.judge_server import JudgeServer, Scripted, verdict
from tests.waiting import wait_sync


def judged_config(root: Path, name: str = "judged.json", **settings: object) -> str:
    """A config whose only criterion is one judged sample, with no retries; ``settings``
    go on that criterion or, when they are the config's (``prices``...), on the config."""
    config = EvalConfig.default()
    config.criteria.trajectory.enabled = False
    config.criteria.response_match.enabled = False
    judge = CriterionConfig(threshold=0.5, num_samples=1, judge_max_retries=0)
    for key, value in settings.items():
        setattr(config if key in EvalConfig.model_fields else judge, key, value)
    config.criteria.llm_judge = judge
    config.to_file(root / name)
    return name


def judge_env(server: JudgeServer, root: Path) -> dict[str, str]:
    return {
        "TENXEVAL_JUDGE_MODEL": "judge-test",
        "OPENAI_API_KEY": "test-key",
        "OPENAI_BASE_URL": server.base_url,
        "TENXEVAL_JUDGE_CACHE_DIR": str(root / "judge-cache"),
    }


def run_judged(
    cli: InProcess,
    project: Path,
    server: JudgeServer,
    config: str,
    *flags: str,
    case: str | None = "greeting",
) -> Outcome:
    """``run`` of the sample agent (one case, or all) judged by ``config``, into ``out``."""
    cases = ["--case", case] if case else []
    return cli(
        project,
        "run",
        "--agent",
        AGENT,
        "evals",
        *cases,
        "--config",
        config,
        "--output-dir",
        "out",
        "--no-html",
        *flags,
        env=judge_env(server, project),
    )


def results(folder: Path) -> dict[str, dict[str, object]]:
    (report,) = reports(folder)
    return {r["eval_id"]: r for r in json.loads(report.read_text())["results"]}


def test_a_judge_trickling_its_reply_is_cut_off_at_judge_timeout_and_never_scored(
    project: Path, judge_server: JudgeServer, in_process: InProcess
) -> None:
    # Headers at once, then the body a byte at a time: some 60 s for the whole reply,
    # which the HTTP library's per-read timeout would wait for (each byte is in time).
    judge_server.fallback = lambda body: Scripted(verdict("valid").content, trickle=0.2)
    done = run_judged(in_process, project, judge_server, judged_config(project, judge_timeout=2.0))
    assert done.returncode == 1, done.stdout + done.stderr
    greeting = results(project / "out")["greeting"]
    # The late verdict ("valid") was never read: the case errs with the timeout.
    assert greeting["passed"] is False
    assert "timed out after 2 s (0 retries)" in str(greeting["error"])
    (criterion,) = greeting["criterion_results"]  # type: ignore[misc]
    assert criterion["error"] and criterion["score"] == 0.0
    assert "FAILED: 0/1 passed, 0 failed, 1 errored" in done.stdout
    wait_sync(lambda: judge_server.abandoned == 1, what="the client hung up mid-reply")


def _closed_port() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/v1"


def test_a_judge_outage_errors_the_case_and_error_exit_code_fires(
    project: Path, judge_server: JudgeServer, in_process: InProcess
) -> None:
    judge_server.fallback = lambda body: Scripted(status=500, content="upstream down")
    run = ["run", "--agent", AGENT, "evals", "--case", "greeting", "--case", "order_a100"]
    flags = ["--config", judged_config(project), "--no-html", "--error-exit-code", "3"]
    env = judge_env(judge_server, project)
    done = in_process(project, *run, *flags, "--output-dir", "o1", env=env)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "FAILED: 0/2 passed, 0 failed, 2 errored" in done.stdout
    found = results(project / "o1")
    for result in found.values():
        assert result["error"] == (
            f"final_response_match_v2: judge judge-test at {judge_server.base_url} answered "
            "HTTP 500: Error code: 500 - upstream down"
        )
        assert result["metadata"]["error_info"] == {  # type: ignore[index]
            "error_type": "JudgeError",
            "criterion": "final_response_match_v2",
        }
    # An endpoint nobody listens on: the same contract.
    unreachable = in_process(
        project, *run, *flags, "--output-dir", "o2", env={**env, "OPENAI_BASE_URL": _closed_port()}
    )
    assert unreachable.returncode == 3, unreachable.stdout + unreachable.stderr
    for result in results(project / "o2").values():
        assert "final_response_match_v2: could not reach judge judge-test" in str(result["error"])


def test_retry_errors_asks_a_judge_that_was_down_again(
    project: Path, judge_server: JudgeServer, in_process: InProcess
) -> None:
    judge_server.script(Scripted(status=500, content="blip"))
    judge_server.fallback = lambda body: Scripted(verdict("valid").content)
    done = run_judged(
        in_process, project, judge_server, judged_config(project), "--retry-errors", "1"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "retrying 1 errored case(s) (retry 1 of 1)" in done.stdout
    assert "PASSED: 1/1 passed, 0 failed, 0 errored, 1 retried" in done.stdout
    assert len(judge_server.requests) == 2
    assert results(project / "out")["greeting"]["passed"] is True


SECRET_USER, SECRET_PASS, SECRET_KEY = "alice-4f1c", "pw-93b2e7", "sk-query-51d0"


def test_credentials_in_the_judge_endpoint_are_hidden_wherever_shown_or_stored(
    project: Path, judge_server: JudgeServer, in_process: InProcess
) -> None:
    judge_server.fallback = lambda body: Scripted(verdict("valid").content)
    host = judge_server.base_url.removeprefix("http://")
    with_userinfo = f"http://{SECRET_USER}:{SECRET_PASS}@{host}"
    # From $OPENAI_BASE_URL, and from the config's judge_base_url (into config_used).
    env = {**judge_env(judge_server, project), "OPENAI_BASE_URL": with_userinfo}
    config = judged_config(project, judge_base_url=with_userinfo)
    common = ["run", "--agent", AGENT, "evals", "--case", "greeting", "--junit"]
    outputs = ["-o", "out/cases.csv", "-o", "out/cases.jsonl", "--log-level", "debug"]
    done = in_process(
        project, *common, "--config", config, "--output-dir", "out", *outputs, env=env
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert judge_server.requests, "the judge was asked (through the URL with userinfo)"
    # A key in the query string: the server knows no such route, the case errs, and the
    # error names the endpoint, with the key hidden.
    with_key = f"{judge_server.base_url}?api-key={SECRET_KEY}&api-version=7"
    keyed = judged_config(project, "keyed.json", judge_base_url=with_key)
    errored = in_process(project, *common, "--config", keyed, "--output-dir", "out2", env=env)
    assert errored.returncode == 1, errored.stdout + errored.stderr
    assert f"at {judge_server.base_url}?api-key=***&api-version=7" in errored.stdout
    shown = (
        in_process(project, "settings", env={"TENXEVAL_JUDGE_BASE_URL": with_userinfo}).stdout
        + in_process(
            project, "settings", "--json", env={"TENXEVAL_JUDGE_BASE_URL": with_key}
        ).stdout
    )
    assert f"http://***@{host}" in shown and "api-key=***" in shown
    texts = {
        "console": done.stdout + done.stderr + errored.stdout + errored.stderr,
        "settings": shown,
    }
    for folder in ("out", "out2"):
        for file in (project / folder).iterdir():
            texts[f"{folder}/{file.name}"] = file.read_text()  # a second apart or not
    assert len(texts) >= 2 + 7  # JSON, HTML, JUnit, CSV, JSONL; JSON, JUnit
    for name, text in texts.items():
        for secret in (SECRET_USER, SECRET_PASS, SECRET_KEY):
            assert secret not in text, f"{secret} in {name}"
    (report,) = reports(project / "out")
    used = json.loads(report.read_text())["config_used"]["criteria"]["llm_judge"]
    assert used["judge_base_url"] == f"http://***@{host}"
    assert "HTTP Request: POST http://***@" in done.stderr  # the debug log, hidden too


def test_a_judge_reporting_no_usage_is_estimated_warned_about_and_bounded_by_max_cost(
    project: Path, judge_server: JudgeServer, in_process: InProcess
) -> None:
    judge_server.fallback = lambda body: Scripted(verdict("valid").content, usage=False)
    priced = judged_config(
        project,
        prices={"judge-test": ModelPrice(input=4000.0, output=4000.0)},
        max_cost=2.5,
        max_concurrency=1,
    )
    done = run_judged(in_process, project, judge_server, priced, "--concurrency", "1", case=None)
    assert done.returncode == 1, done.stdout + done.stderr
    (report_file,) = reports(project / "out")
    report = json.loads(report_file.read_text())
    assert report["metadata"]["stopped_by"] == "max_cost"
    ran = report["results"]
    assert 0 < len(ran) < 9 and len(report["metadata"]["not_run"]) == 9 - len(ran)
    for result in ran:
        (criterion,) = result["criterion_results"]
        assert criterion["details"]["usage_estimated"] == 1
        # Four characters a token: the prompt's as input, the reply's as output.
        prompt = judge_server.prompts()[ran.index(result)]
        usage = criterion["token_usage"]
        assert usage["input_tokens"] == len(prompt) // 4
        assert usage["output_tokens"] == len(verdict("valid").content) // 4
        assert criterion["cost_usd"] > 0
    assert report["summary"]["total_cost_usd"] > 0
    assert f"warning: {len(ran)} judge call(s) reported no token usage" in done.stderr
    assert "stopped by --max-cost $2.5" in done.stderr


def test_a_judge_reporting_negative_usage_is_refused(
    project: Path, judge_server: JudgeServer, in_process: InProcess
) -> None:
    judge_server.fallback = lambda body: Scripted(
        verdict("valid").content, prompt_tokens=-1_000_000, completion_tokens=5
    )
    priced = judged_config(project, prices={"judge-test": ModelPrice(input=90.0, output=90.0)})
    done = run_judged(in_process, project, judge_server, priced)
    assert done.returncode == 1, done.stdout + done.stderr
    greeting = results(project / "out")["greeting"]
    assert "reported negative token usage (input -1000000)" in str(greeting["error"])
    assert "cost $-" not in done.stdout


def test_a_judge_reply_of_megabytes_is_kept_once_and_cut(
    project: Path, judge_server: JudgeServer, in_process: InProcess
) -> None:
    reasoning = "ponder " * 300_000  # 2.1 MB of reasoning
    judge_server.fallback = lambda body: Scripted(verdict("valid", reasoning).content)
    done = run_judged(in_process, project, judge_server, judged_config(project))
    assert done.returncode == 0, done.stdout + done.stderr
    (report,) = reports(project / "out")
    assert report.stat().st_size < 200_000  # the reply is 2.1 MB
    (criterion,) = results(project / "out")["greeting"]["criterion_results"]  # type: ignore[misc]
    reason = criterion["details"]["reason"]
    assert reason.startswith("ponder ponder") and len(reason) < 20_100
    assert reason.endswith("... [2,080,000 more characters of the judge's reply not kept]")
    assert "reasons" not in criterion["details"]  # one sample: its reasoning is the reason
