"""Response criteria: ROUGE-1, exact match, keywords; and their registration."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tenxeval_tui.evaluation import (
    ContainsKeywordsCriterion,
    CriterionConfig,
    CriterionConfigError,
    EvalCase,
    EvalConfig,
    ExactMatchCriterion,
    ExecutionResult,
    ResponseMatchCriterion,
    RougeMatchCriterion,
    build_criteria,
)
from tenxeval_tui.evaluation.criteria import get_criterion_class
from tenxeval_tui.evaluation.criteria.porter import porter_stem
from tenxeval_tui.evaluation.criteria.response import rouge1


def reply(text: str) -> ExecutionResult:
    return ExecutionResult(actual_response=text)


def expecting(text: str | None) -> EvalCase:
    return EvalCase.single_turn("r", "q", expected_response=text)


def test_rouge1_matches_google_adk_definition() -> None:
    # Stemming makes "cats"/"cat" and "running"/"runs" count; "the" and "are" do not match.
    # candidate tokens: the, cat, are, run (4); reference: a, cat, run (3); overlap 2.
    precision, recall, f1 = rouge1("The cats are running", "a cat runs")
    assert (precision, recall) == pytest.approx((2 / 4, 2 / 3))
    assert f1 == pytest.approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))


def test_rouge1_counts_repeated_words_with_multiplicity() -> None:
    # A set-based F1 (10xGraph 0.10.3) would score this 1.0.
    _, recall, _ = rouge1("sunny", "sunny sunny")
    assert recall == pytest.approx(0.5)


@pytest.mark.parametrize("criterion_class", [RougeMatchCriterion, ResponseMatchCriterion])
async def test_rouge_criteria_score_and_threshold(
    criterion_class: type[RougeMatchCriterion],
) -> None:
    criterion = criterion_class(CriterionConfig(threshold=0.5))
    case = expecting("It is sunny in Paris today")
    good = await criterion.evaluate(reply("Today it is sunny in Paris!"), case)
    assert (good.score, good.passed) == (pytest.approx(1.0), True)
    poor = await criterion.evaluate(reply("Rain expected in London"), case)
    assert poor.score == pytest.approx(2 * (1 / 4) * (1 / 6) / (1 / 4 + 1 / 6))
    assert not poor.passed
    assert poor.details["precision"] == pytest.approx(1 / 4)
    assert poor.details["expected_response"] == "It is sunny in Paris today"


async def test_empty_reply_scores_zero_against_an_expectation() -> None:
    result = await RougeMatchCriterion().evaluate(reply(""), expecting("sunny"))
    assert (result.score, result.passed) == (0.0, False)


async def test_expected_empty_reply_is_met_by_an_empty_reply() -> None:
    assert (await RougeMatchCriterion().evaluate(reply("  "), expecting(""))).score == 1.0
    assert (await ExactMatchCriterion().evaluate(reply(""), expecting(""))).score == 1.0
    assert (await RougeMatchCriterion().evaluate(reply("hi"), expecting(""))).score == 0.0


@pytest.mark.parametrize(
    "criterion", [RougeMatchCriterion(), ResponseMatchCriterion(), ExactMatchCriterion()]
)
async def test_no_expected_response_passes_and_says_so(criterion: RougeMatchCriterion) -> None:
    result = await criterion.evaluate(reply("anything at all"), expecting(None))
    assert (result.score, result.passed) == (1.0, True)
    assert "no expectation" in result.details["note"]


async def test_last_turn_with_an_expectation_is_compared() -> None:
    case = EvalCase.multi_turn("m", [("hi", "hello"), ("weather?", "sunny"), ("thanks", None)])
    result = await ExactMatchCriterion().evaluate(reply("sunny"), case)
    assert result.score == 1.0


@pytest.mark.parametrize(
    ("actual", "expected", "score"),
    [
        ("Paris", "Paris", 1.0),
        ("  Paris\n", "Paris", 1.0),
        ("paris", "Paris", 0.0),
        ("Paris.", "Paris", 0.0),
        ("", "Paris", 0.0),
    ],
)
async def test_exact_match(actual: str, expected: str, score: float) -> None:
    result = await ExactMatchCriterion().evaluate(reply(actual), expecting(expected))
    assert result.score == score
    assert result.details["match"] is (score == 1.0)


@settings(max_examples=50)
@given(st.text(max_size=40))
def test_exact_match_implies_full_rouge(text: str) -> None:
    assert rouge1(text, text)[2] == pytest.approx(1.0)


async def test_contains_keywords_share_found_ignoring_case() -> None:
    criterion = ContainsKeywordsCriterion(
        CriterionConfig.contains_keywords(["Sunny", "paris", "°C", "PARIS"], threshold=0.6)
    )
    result = await criterion.evaluate(reply("It's SUNNY in Paris"), expecting(None))
    assert result.details["keywords"] == ["Sunny", "paris", "°C"]  # duplicates count once
    assert result.score == pytest.approx(2 / 3)
    assert result.passed
    assert result.details["missing"] == ["°C"]
    empty = await criterion.evaluate(reply(""), expecting(None))
    assert (empty.score, empty.passed) == (0.0, False)


async def test_contains_keywords_ignores_the_unicode_form_and_blanks_around_keywords() -> None:
    composed, decomposed = "caf\u00e9", "cafe\u0301"  # "café" typed two ways
    criterion = ContainsKeywordsCriterion(
        CriterionConfig.contains_keywords([decomposed, " Paris "], threshold=1.0)
    )
    result = await criterion.evaluate(reply(f"A {composed} in Paris."), expecting(None))
    assert (result.score, result.details["missing"]) == (1.0, [])


@pytest.mark.parametrize("keywords", [[], ["ok", "  "]])
def test_contains_keywords_without_keywords_fails_at_configuration(keywords: list[str]) -> None:
    config = EvalConfig()
    config.enable_criterion("contains_keywords", CriterionConfig(keywords=keywords))
    with pytest.raises(CriterionConfigError, match="contains_keywords"):
        build_criteria(config)


def test_every_deterministic_criterion_is_registered_by_its_documented_name() -> None:
    expected = {
        "tool_trajectory_avg_score": "TrajectoryMatchCriterion",
        "tool_name_match_score": "ToolNameMatchCriterion",
        "node_order_score": "NodeOrderMatchCriterion",
        "response_match_score": "ResponseMatchCriterion",
        "rouge_match": "RougeMatchCriterion",
        "exact_match": "ExactMatchCriterion",
        "contains_keywords": "ContainsKeywordsCriterion",
    }
    for name, class_name in expected.items():
        assert get_criterion_class(name).__name__ == class_name


def test_default_config_builds_trajectory_and_response_match() -> None:
    built = build_criteria(EvalConfig.default())
    assert [c.name for c in built] == ["tool_trajectory_avg_score", "response_match_score"]
    assert [c.threshold for c in built] == [1.0, 0.8]


def test_scoring_a_reply_imports_neither_rouge_score_nor_nltk() -> None:
    code = (
        "import sys, tenxeval_tui.evaluation as e\n"
        "from tenxeval_tui.evaluation.criteria.response import rouge1\n"
        "rouge1('the cats were running', 'a cat runs')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('rouge_score', 'nltk')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


async def test_composite_and_weighted_take_10xgraphs_arguments() -> None:
    from tenxeval_tui.evaluation import (
        CompositeCriterion,
        EvalCase,
        ExactMatchCriterion,
        ExecutionResult,
        RougeMatchCriterion,
        WeightedCriterion,
    )

    case = EvalCase.single_turn("c", "q", expected_response="the cat sat")
    reply = ExecutionResult(actual_response="the cat sat down")
    exact = ExactMatchCriterion(CriterionConfig(threshold=1.0))  # 0.0, fails
    rouge = RougeMatchCriterion(CriterionConfig(threshold=0.5))  # 6/7, passes
    low = CriterionConfig(threshold=0.0)
    both = await CompositeCriterion([exact, rouge], require_all=True, config=low).evaluate(
        reply, case
    )
    assert (both.score, both.passed, both.details["require_all"]) == (0.0, False, True)
    either = await CompositeCriterion([exact, rouge], require_all=False, config=low).evaluate(
        reply, case
    )
    assert (either.score, either.passed) == (pytest.approx(6 / 7), True)
    weighted = WeightedCriterion(criteria_weights=[(exact, 1.0), (rouge, 3.0)], config=low)
    assert weighted.criteria_weights == [(exact, 1.0), (rouge, 3.0)]
    assert (await weighted.evaluate(reply, case)).score == pytest.approx(3 / 4 * 6 / 7)


@settings(max_examples=200)
@given(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz ingedlyation,.!0123É", max_size=60),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz ingedlyation,.!0123É", max_size=60),
)
def test_rouge1_equals_the_rouge_score_librarys_own_scorer(a: str, b: str) -> None:
    from rouge_score import rouge_scorer

    library = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True)
    theirs = library.score(target=b, prediction=a)["rouge1"]
    ours = rouge1(a, b)
    if theirs.fmeasure == 0.0 and a.strip() == b.strip():
        assert ours == (1.0, 1.0, 1.0)
    else:
        assert ours == (theirs.precision, theirs.recall, theirs.fmeasure)


_SUFFIXES = [
    "sses",
    "ies",
    "ss",
    "s",
    "ied",
    "eed",
    "ed",
    "ing",
    "at",
    "bl",
    "iz",
    "y",
    "ational",
    "tional",
    "enci",
    "anci",
    "izer",
    "bli",
    "alli",
    "entli",
    "eli",
    "ousli",
    "ization",
    "ation",
    "ator",
    "alism",
    "iveness",
    "fulness",
    "ousness",
    "aliti",
    "iviti",
    "biliti",
    "fulli",
    "logi",
    "icate",
    "ative",
    "alize",
    "iciti",
    "ical",
    "ful",
    "ness",
    "al",
    "ance",
    "ence",
    "er",
    "ic",
    "able",
    "ible",
    "ant",
    "ement",
    "ment",
    "ent",
    "ion",
    "ou",
    "ism",
    "ate",
    "iti",
    "ous",
    "ive",
    "ize",
    "e",
    "ll",
]


def test_the_porter_stemmer_gives_nltks_stems_for_a_large_english_vocabulary() -> None:
    import pydoc_data.topics
    import re

    from nltk.stem.porter import PorterStemmer

    text = " ".join(pydoc_data.topics.topics.values()).lower()
    words = set(re.findall(r"[a-z0-9]+", text)) | {"dying", "skies", "news", "ties", "cried"}
    assert len(words) > 3000
    nltk = PorterStemmer()
    assert {w: porter_stem(w) for w in words} == {w: nltk.stem(w) for w in words}


@settings(max_examples=3000)
@given(
    st.text(alphabet="bcdfglmnprstvwxyzaeiou0", max_size=6),
    st.sampled_from(_SUFFIXES),
    st.sampled_from(["", *_SUFFIXES]),
)
def test_the_porter_stemmer_gives_nltks_stems_for_every_suffix_rule(
    stem: str, suffix: str, more: str
) -> None:
    from nltk.stem.porter import PorterStemmer

    word = stem + suffix + more
    assert porter_stem(word) == PorterStemmer().stem(word)
