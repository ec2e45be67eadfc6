"""Variant specs: the variants file (TOML or JSON), agent flags, names and their errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenxeval_tui.evaluation.variant_spec import (
    Variant,
    VariantError,
    agent_variants,
    folder_name,
    load_variants_file,
    parse_variants,
)


def test_a_toml_file_gives_named_variants_with_params_and_state(tmp_path: Path) -> None:
    file = tmp_path / "variants.toml"
    file.write_text(
        '[[variants]]\nname = "small"\nparams = { model = "small-1" }\n\n'
        '[[variants]]\nagent = "pkg.mod:other"\nstate = { tone = "terse" }\n'
    )
    small, other = load_variants_file(file, default_agent="pkg.mod:agent")
    assert small == Variant(name="small", params={"model": "small-1"})
    assert other.name == "pkg.mod:other" and other.state == {"tone": "terse"}


def test_a_json_file_may_be_a_plain_list(tmp_path: Path) -> None:
    file = tmp_path / "variants.json"
    file.write_text('[{"name": "a"}, {"name": "b", "params": {"temperature": 0.2}}]')
    assert [v.name for v in load_variants_file(file)] == ["a", "b"]


def test_an_unnamed_variant_is_named_by_the_run_s_agent() -> None:
    (variant,) = parse_variants([{"params": {"x": 1}}], "here", default_agent="m:a")
    assert variant.name == "m:a"


@pytest.mark.parametrize(
    ("entries", "problem"),
    [
        ([{"name": "a"}, {"name": "a"}], "here: two variants named 'a'"),
        ([{"name": "a b"}, {"name": "a_b"}], "would share the report folder 'a_b'"),
        ([{"nme": "a"}], "here: variants[0].nme: Extra inputs are not permitted"),
        ([{"name": "a", "params": 3}], "here: variants[0].params: Input should be a valid"),
        (["a"], "here: variants[0]: expected a table, not str"),
        ({"other": 1}, "here: expected a list of variants, not dict"),
        ([{"params": {}}], "here: variants[0]: no name and no agent"),
    ],
)
def test_bad_variants_say_where_and_why(entries: object, problem: str) -> None:
    with pytest.raises(VariantError, match=None) as caught:
        parse_variants(entries, "here")
    assert problem in str(caught.value)


def test_a_broken_file_names_its_place(tmp_path: Path) -> None:
    file = tmp_path / "v.json"
    file.write_text('{"variants": [}')
    with pytest.raises(VariantError, match=r"v\.json:1:15: invalid JSON"):
        load_variants_file(file)
    toml = tmp_path / "v.toml"
    toml.write_text("[[variants]\n")
    with pytest.raises(VariantError, match=r"v\.toml: invalid TOML"):
        load_variants_file(toml)
    with pytest.raises(VariantError, match="variants file not found"):
        load_variants_file(tmp_path / "missing.toml")


def test_each_agent_flag_is_a_variant_named_by_its_spec() -> None:
    assert [v.name for v in agent_variants(["m:a", "m:b"])] == ["m:a", "m:b"]
    with pytest.raises(VariantError, match="two variants named 'm:a'"):
        agent_variants(["m:a", "m:a"])


def test_folder_names_keep_only_safe_characters() -> None:
    assert folder_name("pkg.mod:agent") == "pkg.mod_agent"
    assert folder_name("../..") == "variant"
    assert folder_name("\x1b[31mred") == "31mred"
