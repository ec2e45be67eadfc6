"""Untrusted text made inert: nothing in it can drive a terminal, and it shows what it holds."""

from __future__ import annotations

import json

import pytest

from tenxeval_tui.evaluation.inert import inert, inert_json, inert_pieces, is_inert
from tests.hostile_text import HOSTILE, RAW_CONTROL


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("multiline", [False, True])
def test_no_hostile_string_keeps_a_character_that_drives_a_terminal(name, multiline):
    shown = inert(HOSTILE[name], multiline=multiline)
    assert RAW_CONTROL.search(shown) is None
    assert is_inert(shown, multiline=multiline)
    assert not is_inert(HOSTILE[name], multiline=multiline)
    shown.encode("utf-8")  # a lone surrogate would make the terminal write fail


def test_controls_are_shown_visibly_not_dropped():
    assert inert("before\x1b[2Jafter") == "before␛[2Jafter"
    assert inert("title\x1b]0;PWNED\x07end") == "title␛]0;PWNED␇end"
    assert inert("shown\roverwritten") == "shown␍overwritten"
    assert inert("secret\x08public") == "secret␈public"
    assert inert("a\x7fb\x00c") == "a␡b␀c"
    assert inert("c1\x9b2J") == "c1⟦U+009B⟧2J"
    assert inert("user\u202etxt") == "user⟦U+202E⟧txt"
    assert inert("\u2066x\u2069") == "⟦U+2066⟧x⟦U+2069⟧"
    # marked, so a control is never read as the same letters typed
    assert inert("user\u202etxt") != inert("user\\u202etxt")
    assert inert("half \ud83d") == "half \ufffd"  # as the report files write it


def test_invisible_characters_that_hide_or_reorder_text_are_marked():
    for char in "\u200b\u200e\u200f\u061c\u2028\u2029\u2060\ufeff":
        assert inert(f"a{char}b") == f"a⟦U+{ord(char):04X}⟧b"
    # joiners that emoji and scripts need stay as they are
    for text in ("👨\u200d👩\u200d👧", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"):
        assert inert(text) is text


def test_newline_and_tab_are_kept_only_where_several_lines_are_shown():
    assert inert("a\nb\tc") == "a␊b␉c"
    assert inert("a\nb\tc", multiline=True) == "a\nb\tc"
    assert inert("a\r\nb", multiline=True) == "a␍\nb"  # CR is shown even with its newline


def test_safe_text_and_markup_are_left_as_they_are():
    text = "[bold red]not markup[/] — café 東京 ✓ ␛ \\x1b"
    assert inert(text) is text
    assert inert(text, multiline=True) is text


def test_pieces_give_back_the_original_and_show_the_inert_text():
    for text in HOSTILE.values():
        pieces = inert_pieces(text)
        assert "".join(original for original, _ in pieces) == text
        assert "".join(shown for _, shown in pieces) == inert(text)
        for original, shown in pieces:
            assert len(original) == 1 or original == shown  # controls stand alone


def test_json_output_keeps_its_meaning_without_raw_controls():
    value = {"id": "c1\x9b2J", "name": "user\u202etxt", "esc": "\x1b]0;x\x07", "del": "\x7f"}
    text = json.dumps(value, ensure_ascii=False, indent=2)
    assert RAW_CONTROL.search(text)  # the serialiser leaves C1, DEL and bidi raw
    safe = inert_json(text)
    assert RAW_CONTROL.search(safe) is None
    assert json.loads(safe) == value
