"""Who the reviewer is: TENXEVAL_REVIEWER, the user's file, else the login name."""

from __future__ import annotations

import getpass
from pathlib import Path

import pytest

from tenxeval_tui.settings.layers import SettingsError
from tenxeval_tui.settings.review import UNKNOWN_REVIEWER, login_name, review_settings
from tenxeval_tui.settings.user_settings import UserSettings, load_user_settings
from tests.settings.test_layers import _user


def test_the_environment_wins_over_the_file_which_wins_over_the_login(tmp_path: Path) -> None:
    user = _user(tmp_path, '[review]\nreviewer = "alice"\nshow_verdicts = true\n')
    from_env = review_settings({"TENXEVAL_REVIEWER": "bob"}, user)
    assert (from_env.reviewer, from_env.reviewer_from) == ("bob", "$TENXEVAL_REVIEWER")
    from_file = review_settings({}, user, tmp_path / "settings.toml")
    assert from_file.reviewer == "alice"
    assert from_file.reviewer_from == f"{tmp_path / 'settings.toml'} review.reviewer"
    assert from_file.show_verdicts is True
    bare = review_settings({}, UserSettings())
    assert (bare.reviewer, bare.reviewer_from) == (login_name(), "login name")
    assert bare.show_verdicts is False  # blind by default


def test_the_login_name_and_its_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOGNAME", "carol")
    assert login_name() == getpass.getuser() == "carol"

    def unknown() -> str:
        raise OSError("no such user")

    monkeypatch.setattr(getpass, "getuser", unknown)
    assert login_name() == UNKNOWN_REVIEWER


def test_show_verdicts_from_the_environment_and_a_bad_value_named() -> None:
    on = review_settings({"TENXEVAL_REVIEW_SHOW_VERDICTS": "yes"}, UserSettings())
    assert on.show_verdicts is True
    with pytest.raises(SettingsError) as caught:
        review_settings({"TENXEVAL_REVIEW_SHOW_VERDICTS": "maybe"}, UserSettings())
    assert str(caught.value).startswith("$TENXEVAL_REVIEW_SHOW_VERDICTS: ")


def test_a_bad_review_table_is_a_problem_naming_its_line(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('theme = "nord"\n[review]\nreviewer = ""\n')
    _, problems = load_user_settings(path)
    assert [(p.line, p.json_path) for p in problems] == [(3, "review.reviewer")]
