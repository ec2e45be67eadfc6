"""`tenxeval-tui run` and `tenxeval-tui settings` with the layered settings: flag >
TENXEVAL_* > [tool.tenxeval] > the user's settings.toml > default, through the real console
script (the user's folder is the suite's temporary one, TENXEVAL_CONFIG_DIR)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tenxeval_tui.evaluation.config.criterion_config import CriterionConfig
from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tests.cli.conftest import InProcess
from tests.cli.test_run import AGENT, reports
from tests.evaluation.criteria.judge_server import JudgeServer, Scripted, verdict


def user_file(text: str) -> Path:
    path = Path(os.environ["TENXEVAL_CONFIG_DIR"]) / "settings.toml"
    path.write_text(text)
    return path


def summary(
    cli: InProcess, project: Path, *args: str, env: dict[str, str] | None = None
) -> dict[str, object]:
    done = cli(project, "run", "--agent", AGENT, "evals", "--json", "--no-html", *args, env=env)
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr
    data: dict[str, object] = json.loads(done.stdout)
    return data


def test_each_level_of_the_threshold_and_output_folder(
    project: Path, in_process: InProcess
) -> None:
    assert summary(in_process, project)["threshold"] == 1.0
    assert reports(project / "eval_reports")  # the default folder

    user_file('[run]\nthreshold = 0.5\noutput_dir = "by-user"\n')
    assert summary(in_process, project)["threshold"] == 0.5
    assert reports(project / "by-user")

    (project / "pyproject.toml").write_text(
        '[tool.tenxeval]\nthreshold = 0.6\noutput_dir = "by-project"\n'
    )
    assert summary(in_process, project)["threshold"] == 0.6
    assert reports(project / "by-project")

    env = {"TENXEVAL_THRESHOLD": "0.7", "TENXEVAL_OUTPUT_DIR": "by-env"}
    assert summary(in_process, project, env=env)["threshold"] == 0.7
    assert reports(project / "by-env")

    flagged = summary(in_process, project, "--threshold", "0.8", "--output-dir", "by-flag", env=env)
    assert flagged["threshold"] == 0.8
    assert reports(project / "by-flag")


def test_concurrency_and_repeat_from_the_user_file_reach_the_run(
    project: Path, in_process: InProcess
) -> None:
    user_file("[run]\nconcurrency = 3\nrepeat = 2\n")
    summary(in_process, project)
    (report,) = reports(project / "eval_reports")
    used = json.loads(report.read_text())["config_used"]
    assert used["max_concurrency"] == 3 and used["repeats"] == 2
    assert used["parallel"] is True  # a concurrency set in any layer asks for it


def test_with_no_concurrency_set_cases_run_one_at_a_time_as_in_10xgraph(
    project: Path, in_process: InProcess
) -> None:
    summary(in_process, project)
    (report,) = reports(project / "eval_reports")
    used = json.loads(report.read_text())["config_used"]
    assert used["parallel"] is False


def test_a_bad_user_file_is_a_located_warning_and_the_run_goes_on(
    project: Path, in_process: InProcess
) -> None:
    path = user_file('[run]\nconcurrency = 2\nthreshold = "high"\n')
    done = in_process(project, "run", "--agent", AGENT, "evals", "--no-html")
    assert done.returncode in (0, 1), done.stderr  # it ran: 1 is a failed case, 2 a usage error
    assert reports(project / "eval_reports")
    assert f"warning: {path}:3: run.threshold: " in done.stderr
    assert f"{path}: ignored until it is fixed" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_bad_environment_value_is_a_usage_error_naming_it(
    project: Path, in_process: InProcess
) -> None:
    # The CLI's check, in this process (the layers reach the console script's runs above).
    env = {"TENXEVAL_CONCURRENCY": "lots"}
    done = in_process(project, "run", "--agent", AGENT, "evals", env=env)
    assert done.returncode == 2
    assert "$TENXEVAL_CONCURRENCY: 'lots' is not a whole number" in done.stderr
    assert not (project / "eval_reports").exists()


def test_workers_and_backend_of_each_layer_reach_the_run(
    project: Path, in_process: InProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Several workers (or Ray) and --max-cost do not go together: a usage error before
    # anything runs says the layers' workers and backend reached the run's plan. Each layer
    # through the console script's own entry point in this process (the same parsing, layers
    # and checks); the console script itself runs the first.
    def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
        for name in ("TENXEVAL_WORKERS", "TENXEVAL_BACKEND"):  # each call its own environment
            monkeypatch.delenv(name, raising=False)
        done = in_process(
            project, "run", "--agent", AGENT, "evals", "-q", "--max-cost", "5", *args, env=env
        )
        assert "Traceback" not in done.stderr
        return done.returncode, done.stderr

    several = "--max-cost: not with several workers"
    first = in_process(project, "run", "--agent", AGENT, "evals", "-q", "--max-cost", "5")
    assert first.returncode in (0, 1), first.stderr
    user_file("[run]\nworkers = 2\n")
    code, err = run()
    assert code == 2 and several in err
    assert run(env={"TENXEVAL_WORKERS": "1"})[0] in (0, 1)
    (project / "pyproject.toml").write_text("[tool.tenxeval]\nworkers = 1\n")
    assert run()[0] in (0, 1)
    code, err = run(env={"TENXEVAL_WORKERS": "1", "TENXEVAL_BACKEND": "ray"})
    assert code == 2 and several in err
    assert run("--backend", "process", env={"TENXEVAL_BACKEND": "ray"})[0] in (0, 1)
    code, err = run(env={"TENXEVAL_WORKERS": "lots"})
    assert code == 2 and "$TENXEVAL_WORKERS: 'lots' is not a whole number" in err


def test_the_agent_from_the_environment(project: Path, in_process: InProcess) -> None:
    done = in_process(project, "run", "evals", "--no-html", env={"TENXEVAL_AGENT": AGENT})
    assert done.returncode in (0, 1), done.stderr
    assert "passed" in done.stdout and reports(project / "eval_reports")


def test_the_judge_model_and_endpoint_of_the_user_file_reach_the_judge(
    project: Path, in_process: InProcess
) -> None:
    server = JudgeServer().start()
    try:
        server.fallback = lambda body: Scripted(verdict("valid").content)
        user_file(f'[judge]\nmodel = "user-judge"\nbase_url = "{server.base_url}"\n')
        config = EvalConfig.default()
        config.criteria.llm_judge = CriterionConfig.llm_judge(threshold=0.5, num_samples=1)
        config.to_file(project / "judged.json")
        env = {"TENXEVAL_JUDGE_MODEL": "", "OPENAI_BASE_URL": "", "OPENAI_API_KEY": ""}
        done = in_process(
            project,
            "run",
            "--agent",
            AGENT,
            "evals",
            "--config",
            "judged.json",
            "--no-html",
            "--case",
            "greeting",
            env=env,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert server.requests and {r["model"] for r in server.requests} == {"user-judge"}
    finally:
        server.stop()


def test_settings_shows_each_value_and_where_it_comes_from(
    project: Path, in_process: InProcess
) -> None:
    path = user_file('theme = "nord"\n[run]\ntimeout = 30\n')
    (project / "pyproject.toml").write_text("[tool.tenxeval]\nconcurrency = 2\n")
    done = in_process(project, "settings", "--json", env={"TENXEVAL_REPEAT": "4"})
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["settings_file"] == str(path)
    found = {name: (s["value"], s["layer"]) for name, s in data["settings"].items()}
    assert found["theme"] == ("nord", "user")
    assert found["timeout"] == (30.0, "user")
    assert found["concurrency"] == (2, "project")
    assert found["repeat"] == (4, "env")
    assert found["threshold"] == (1.0, "default")
    assert found["workers"] == (None, "default")
    assert found["backend"] == ("process", "default")
    (project / "pyproject.toml").write_text('[tool.tenxeval]\nworkers = "auto"\n')
    shown = in_process(project, "settings", env={"TENXEVAL_BACKEND": "ray"}).stdout.splitlines()
    rows = {line.split()[0]: " ".join(line.split()[1:]) for line in shown if line.strip()}
    assert rows["workers"] == f"auto ({project / 'pyproject.toml'} [tool.tenxeval] workers)"
    assert rows["backend"] == "ray ($TENXEVAL_BACKEND)"
    assert in_process(project, "settings", "--path").stdout.strip() == str(path)


def test_settings_names_the_problem_of_a_bad_file(project: Path, in_process: InProcess) -> None:
    path = user_file("theme = \n")
    done = in_process(project, "settings")
    assert done.returncode == 1
    assert f"problem: {path}:1:" in done.stdout and "invalid TOML" in done.stdout


def test_rescore_asks_the_judge_of_the_user_file(project: Path, in_process: InProcess) -> None:
    done = in_process(project, "run", "--agent", AGENT, "evals", "--no-html", "--case", "greeting")
    assert done.returncode in (0, 1), done.stderr
    (report,) = reports(project / "eval_reports")
    server = JudgeServer().start()
    try:
        server.fallback = lambda body: Scripted(verdict("valid").content)
        user_file(f'[judge]\nmodel = "rescore-judge"\nbase_url = "{server.base_url}"\n')
        config = EvalConfig.default()
        config.criteria.llm_judge = CriterionConfig.llm_judge(threshold=0.5, num_samples=1)
        config.to_file(project / "judged.json")
        env = {"TENXEVAL_JUDGE_MODEL": "", "OPENAI_BASE_URL": "", "OPENAI_API_KEY": ""}
        again = in_process(
            project, "rescore", str(report), "--config", "judged.json", "-q", env=env
        )
        assert again.returncode in (0, 1), again.stdout + again.stderr
        assert {r["model"] for r in server.requests} == {"rescore-judge"}
    finally:
        server.stop()


def test_the_workbench_gets_the_judge_of_the_project_unless_the_environment_has_one(
    tmp_path: Path,
) -> None:
    from tenxeval_tui.cli.run_settings import judge_environment_for

    (tmp_path / "pyproject.toml").write_text('[tool.tenxeval]\njudge_model = "project-judge"\n')
    user_file('[judge]\nmodel = "user-judge"\nbase_url = "http://127.0.0.1:9/v1"\n')
    assert judge_environment_for(tmp_path, {}) == {
        "TENXEVAL_JUDGE_MODEL": "project-judge",
        "TENXEVAL_JUDGE_BASE_URL": "http://127.0.0.1:9/v1",
    }
    assert judge_environment_for(tmp_path, {"TENXEVAL_JUDGE_MODEL": "env-judge"}) == {
        "TENXEVAL_JUDGE_BASE_URL": "http://127.0.0.1:9/v1"
    }
    user_file("[judge\n")  # a broken file sets nothing (the app says why)
    assert judge_environment_for(tmp_path, {}) == {"TENXEVAL_JUDGE_MODEL": "project-judge"}


def test_compare_latest_looks_where_run_wrote_by_the_environment(
    tmp_path: Path, in_process: InProcess
) -> None:
    from tests.report_samples import write_reports

    base, cur = write_reports(tmp_path / "by-env")
    env = {"TENXEVAL_OUTPUT_DIR": "by-env"}
    words = in_process(tmp_path, "compare", "previous", "latest", env=env)
    names = in_process(tmp_path, "compare", str(base), str(cur))
    assert words.returncode == names.returncode == 1, words.stderr
    assert words.stdout == names.stdout


def test_rescore_takes_the_threshold_of_the_layers(project: Path, in_process: InProcess) -> None:
    # one case that passes, one that fails (wrong_status expects another reply), none errors
    args = ("--case", "greeting", "--case", "wrong_status", "--no-html")
    done = in_process(project, "run", "--agent", AGENT, "evals", *args)
    (report,) = reports(project / "eval_reports")
    assert json.loads(report.read_text())["summary"]["pass_rate"] == 0.5
    strict = in_process(project, "rescore", str(report), "-q")
    assert strict.returncode == 1  # threshold 1.0 by default
    lenient = in_process(project, "rescore", str(report), "-q", env={"TENXEVAL_THRESHOLD": "0.5"})
    assert lenient.returncode == 0, lenient.stdout + lenient.stderr
    user_file("[run]\nthreshold = 0.5\n")
    assert in_process(project, "rescore", str(report), "-q").returncode == 0
    flagged = in_process(project, "rescore", str(report), "-q", "--threshold", "1")
    assert flagged.returncode == 1
    bad = in_process(project, "rescore", str(report), "-q", env={"TENXEVAL_THRESHOLD": "lots"})
    assert bad.returncode == 2 and "$TENXEVAL_THRESHOLD: 'lots' is not a number" in bad.stderr
    assert done.returncode == 1


def test_a_bad_setting_of_the_project_is_named_by_its_file_and_key(
    project: Path, in_process: InProcess
) -> None:
    (project / "pyproject.toml").write_text("[tool.tenxeval]\ntimeout = inf\n")
    done = in_process(project, "run", "--agent", AGENT, "evals", "--no-html")
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip() == (
        f"tenxeval-tui run: {project / 'pyproject.toml'} [tool.tenxeval] timeout: "
        "must be a number of seconds more than 0"
    )


def test_a_file_size_cap_that_is_no_number_is_refused_not_ignored(
    project: Path, in_process: InProcess
) -> None:
    for value in ("lots", "0", "-5"):
        done = in_process(project, "validate", "evals", env={"TENXEVAL_MAX_FILE_MB": value})
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stderr.strip() == (
            f"tenxeval-tui: $TENXEVAL_MAX_FILE_MB: {value!r} is not a number of megabytes "
            "more than 0 (default 1024)"
        )
    assert (
        in_process(project, "validate", "evals", env={"TENXEVAL_MAX_FILE_MB": "2.5"}).returncode
        == 0
    )


def test_an_output_folder_that_is_a_dangling_link_is_said_so(
    project: Path, in_process: InProcess
) -> None:
    (project / "out").symlink_to(project / "gone")
    done = in_process(project, "run", "--agent", AGENT, "evals", "--output-dir", "out")
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip() == (
        f"tenxeval-tui run: out: cannot write reports here: it is a symbolic link to "
        f"{project / 'gone'}, which does not exist"
    )
