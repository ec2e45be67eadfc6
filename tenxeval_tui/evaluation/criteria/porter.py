"""The Porter stemmer as ROUGE-1 uses it: nltk's ``PorterStemmer()`` in its default mode.

``rouge_score``'s ``RougeScorer(use_stemmer=True)`` (what Google ADK and 10xGraph score
``response_match_score`` with) stems each word of more than three characters with nltk's
Porter stemmer, whose default mode (``NLTK_EXTENSIONS``) departs from Porter's 1980
algorithm in a few places: a handful of irregular words, ``-ies`` / ``-ied`` of
four-letter words, ``-y`` only after a consonant, ``-bli``, ``-alli``, ``-fulli`` and
``-logi`` in step 2, and a two-letter stem ending vowel-consonant counting as ``*o``.

The same stems, written here: importing ``rouge_score`` imports all of nltk, about 0.3
CPU-seconds that every run's worker paid before its first response score. A test checks
this stemmer against nltk's on a large vocabulary and ROUGE-1 against ``rouge_score``'s.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

_VOWELS = frozenset("aeiou")

_IRREGULAR = {
    "sky": "sky",
    "skies": "sky",
    "dying": "die",
    "lying": "lie",
    "tying": "tie",
    "news": "news",
    "innings": "inning",
    "inning": "inning",
    "outings": "outing",
    "outing": "outing",
    "cannings": "canning",
    "canning": "canning",
    "howe": "howe",
    "proceed": "proceed",
    "exceed": "exceed",
    "succeed": "succeed",
}
"""Words nltk maps straight to a stem, before any step."""

Condition = Callable[[str], bool] | None
Rule = tuple[str, str, Condition]


def _consonants(word: str) -> list[bool]:
    """Whether each letter is a consonant: not a vowel, and ``y`` only at the start or
    after a vowel (so ``y`` after a consonant is a vowel)."""
    flags: list[bool] = []
    for index, letter in enumerate(word):
        if letter in _VOWELS:
            flags.append(False)
        elif letter == "y":
            flags.append(index == 0 or not flags[index - 1])
        else:
            flags.append(True)
    return flags


def _measure(stem: str) -> int:
    """Porter's *m*: how many vowel-consonant sequences the stem has."""
    flags = _consonants(stem)
    return sum(1 for before, after in itertools.pairwise(flags) if not before and after)


def _positive(stem: str) -> bool:
    return _measure(stem) > 0


def _above_one(stem: str) -> bool:
    return _measure(stem) > 1


def _has_vowel(stem: str) -> bool:
    return not all(_consonants(stem))


def _double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _consonants(word)[-1]


def _ends_cvc(word: str) -> bool:
    """Porter's ``*o`` (consonant-vowel-consonant, the last not w, x or y), or, as nltk
    adds, a two-letter word vowel-consonant."""
    flags = _consonants(word)
    if len(word) >= 3 and flags[-3] and not flags[-2] and flags[-1] and word[-1] not in "wxy":
        return True
    return len(word) == 2 and not flags[0] and flags[1]


def _apply(word: str, rules: Sequence[Rule]) -> str:
    """The first rule whose suffix the word has decides: its replacement when its
    condition holds for the rest of the word, else the word unchanged. Suffix ``*d``
    means a double consonant; an empty suffix matches every word."""
    for suffix, replacement, condition in rules:
        if suffix == "*d":
            if not _double_consonant(word):
                continue
            stem = word[:-2]
        elif word.endswith(suffix):
            stem = word[: len(word) - len(suffix)]
        else:
            continue
        return stem + replacement if condition is None or condition(stem) else word
    return word


def _step1a(word: str) -> str:
    if len(word) == 4 and word.endswith("ies"):
        return word[:-3] + "ie"
    return _apply(
        word, [("sses", "ss", None), ("ies", "i", None), ("ss", "ss", None), ("s", "", None)]
    )


def _step1b(word: str) -> str:
    if word.endswith("ied"):
        return word[:-3] + ("ie" if len(word) == 4 else "i")
    if word.endswith("eed"):
        stem = word[:-3]
        return stem + "ee" if _measure(stem) > 0 else word
    for suffix in ("ed", "ing"):
        if word.endswith(suffix) and _has_vowel(word[: -len(suffix)]):
            stem = word[: -len(suffix)]
            break
    else:
        return word
    last = stem[-1]
    return _apply(
        stem,
        [
            ("at", "ate", None),
            ("bl", "ble", None),
            ("iz", "ize", None),
            ("*d", last, lambda _: last not in "lsz"),
            ("", "e", lambda rest: _measure(rest) == 1 and _ends_cvc(rest)),
        ],
    )


def _step1c(word: str) -> str:
    return _apply(word, [("y", "i", lambda stem: len(stem) > 1 and _consonants(stem)[-1])])


_STEP2: list[Rule] = [
    ("ational", "ate", _positive),
    ("tional", "tion", _positive),
    ("enci", "ence", _positive),
    ("anci", "ance", _positive),
    ("izer", "ize", _positive),
    ("bli", "ble", _positive),
    ("alli", "al", _positive),
    ("entli", "ent", _positive),
    ("eli", "e", _positive),
    ("ousli", "ous", _positive),
    ("ization", "ize", _positive),
    ("ation", "ate", _positive),
    ("ator", "ate", _positive),
    ("alism", "al", _positive),
    ("iveness", "ive", _positive),
    ("fulness", "ful", _positive),
    ("ousness", "ous", _positive),
    ("aliti", "al", _positive),
    ("iviti", "ive", _positive),
    ("biliti", "ble", _positive),
    ("fulli", "ful", _positive),
]


def _step2(word: str) -> str:
    if word.endswith("alli") and _positive(word[:-4]):
        return _step2(word[:-4] + "al")
    # nltk's last rule: its condition looks at the word less "ogi", not less "logi"
    return _apply(word, [*_STEP2, ("logi", "log", lambda _: _positive(word[:-3]))])


_STEP3: list[Rule] = [
    ("icate", "ic", _positive),
    ("ative", "", _positive),
    ("alize", "al", _positive),
    ("iciti", "ic", _positive),
    ("ical", "ic", _positive),
    ("ful", "", _positive),
    ("ness", "", _positive),
]

_STEP4: list[Rule] = [
    *((suffix, "", _above_one) for suffix in ("al", "ance", "ence", "er", "ic", "able", "ible")),
    *((suffix, "", _above_one) for suffix in ("ant", "ement", "ment", "ent")),
    ("ion", "", lambda stem: _above_one(stem) and stem[-1] in "st"),
    *((suffix, "", _above_one) for suffix in ("ou", "ism", "ate", "iti", "ous", "ive", "ize")),
]


def _step5a(word: str) -> str:
    if not word.endswith("e"):
        return word
    stem = word[:-1]
    measure = _measure(stem)
    return stem if measure > 1 or (measure == 1 and not _ends_cvc(stem)) else word


def _step5b(word: str) -> str:
    return word[:-1] if word.endswith("ll") and _measure(word[:-1]) > 1 else word


def porter_stem(word: str) -> str:
    """The stem nltk's ``PorterStemmer().stem(word)`` gives (lower-cased first)."""
    stem = word.lower()
    if stem in _IRREGULAR:
        return _IRREGULAR[stem]
    if len(word) <= 2:
        return stem
    for step in (_step1a, _step1b, _step1c, _step2):
        stem = step(stem)
    stem = _apply(stem, _STEP3)
    stem = _apply(stem, _STEP4)
    return _step5b(_step5a(stem))


__all__ = ["porter_stem"]
