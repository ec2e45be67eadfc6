"""Credentials in endpoint URLs are hidden; everything else of the URL stays as written."""

from __future__ import annotations

import logging

import pytest

from tenxeval_tui.evaluation import EvalReport
from tenxeval_tui.evaluation.redact import RedactingFormatter, redact_url, redact_urls


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://user:pass@host:8000/v1", "http://***@host:8000/v1"),
        ("https://token@host/v1", "https://***@host/v1"),
        ("https://h/v1?api-key=k1&api-version=2024", "https://h/v1?api-key=***&api-version=2024"),
        ("https://h/v1?access_token=t&sig=s&x=a b", "https://h/v1?access_token=***&sig=***&x=a b"),
        ("http://localhost:11434/v1", "http://localhost:11434/v1"),
        ("not a url", "not a url"),
    ],
)
def test_redact_url(url: str, shown: str) -> None:
    assert redact_url(url) == shown


def test_every_url_and_quoted_query_string_in_a_text_is_hidden() -> None:
    text = "POST http://u:p@h/v1/chat said: no route /v1/?key=abc&model=m (http://h/ok)"
    assert (
        redact_urls(text)
        == "POST http://***@h/v1/chat said: no route /v1/?key=***&model=m (http://h/ok)"
    )


def test_a_report_file_never_holds_the_credentials_its_config_had() -> None:
    used = {"criteria": {"llm_judge": {"judge_base_url": "http://u:secret@h/v1"}}, "n": [1]}
    report = EvalReport.create("s", [], config_used=used)
    assert report.config_used == used  # in memory, as it ran
    assert "secret" not in report.model_dump_json()
    assert report.model_dump()["config_used"]["criteria"]["llm_judge"] == {
        "judge_base_url": "http://***@h/v1"
    }


def test_log_lines_are_hidden_by_the_formatter() -> None:
    record = logging.LogRecord(
        "x", logging.INFO, "f", 1, "GET %s", ("http://a:b@h/?token=z",), None
    )
    assert RedactingFormatter("%(message)s").format(record) == "GET http://***@h/?token=***"
