"""An editable box shows a value inertly; its edits give back the value they stand for."""

from __future__ import annotations

import pytest

from tenxeval_tui.authoring.shown_value import ShownValue

VALUE = "a\x1b[2Jb\x9bc\u202ed"


def test_the_box_shows_glyphs_and_an_untouched_box_gives_the_value_back():
    shown = ShownValue(VALUE)
    assert shown.shown == "a␛[2Jb⟦U+009B⟧c⟦U+202E⟧d"
    assert shown.edited(shown.shown) == VALUE
    assert shown.value == VALUE


def test_typing_elsewhere_keeps_every_control_it_did_not_touch():
    shown = ShownValue(VALUE)
    assert shown.edited("Xa␛[2Jb⟦U+009B⟧c⟦U+202E⟧d") == "X" + VALUE
    assert shown.edited("Xa␛[2Jb⟦U+009B⟧c⟦U+202E⟧dY") == "X" + VALUE + "Y"
    assert shown.edited("Xa␛[2J!b⟦U+009B⟧c⟦U+202E⟧dY") == "Xa\x1b[2J!b\x9bc\u202edY"


def test_deleting_a_glyph_deletes_the_control_it_stands_for():
    shown = ShownValue("a\x1bb\x07c")
    assert shown.edited("ab␇c") == "ab\x07c"
    assert shown.edited("abc") == "abc"


def test_a_glyph_the_user_types_is_saved_as_that_glyph():
    shown = ShownValue("a\x1bb")
    assert shown.edited("a␛␛b") in ("a\x1b␛b", "a␛\x1bb")
    assert shown.edited("a␛␛b").count("\x1b") == 1


def test_editing_inside_an_escape_turns_it_into_the_text_shown():
    shown = ShownValue("x\x9by")
    assert shown.edited("x\\x9y") == "x\\x9y"


def test_a_pasted_control_is_kept_and_shown_as_a_glyph():
    shown = ShownValue("ab")
    assert shown.edited("a\x1b[2Jb") == "a\x1b[2Jb"
    assert shown.shown == "a␛[2Jb"  # what the box must show instead


@pytest.mark.parametrize("multiline", [False, True])
def test_newlines_follow_the_kind_of_box(multiline):
    shown = ShownValue("one\ntwo\tx", multiline=multiline)
    assert shown.shown == ("one\ntwo\tx" if multiline else "one␊two␉x")
    assert shown.edited(shown.shown + "!") == "one\ntwo\tx!"
