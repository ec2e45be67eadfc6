"""Content hashes of what a run is made of: cases, eval sets, configs, and a case's
fingerprint.

Every hash is the SHA-256 (hex) of canonical JSON (:mod:`tenxeval_tui.evaluation.canonical`):
two values equal as JSON hash the same whatever the file's layout or key order.

- :func:`case_sha256`: the case as its model dumps it, fields at their default left out
  (``exclude_defaults``), so reformatting the file, reordering its keys or spelling out a
  default changes nothing, and a field a later version adds (with a default) does not
  change the hash of cases that do not use it. Each turn's ``invocation_id`` is left out
  too: an id made up when a file has none (a new one at every load), not content.
- :func:`eval_set_sha256`: the whole eval set the same way (every case, in file order,
  and the set's own fields).
- :func:`config_sha256`: the config's fields that can change a case's outcome: its
  criteria, timeout, repeats and pass rule, the agent model, prices, the user
  simulator. Where reports go (``reporter``), how many cases run at once
  (``parallel``, ``max_concurrency``), ``verbose`` and the run's ``max_cost`` budget
  are left out.
- :func:`judge_models`: the model each judged criterion calls, as resolved at run time
  (``judge_model``, else ``$TENXEVAL_JUDGE_MODEL``).
- :func:`case_fingerprint`: what makes a case's result reusable (``run --reuse``).

A case hashed as it is read (a streamed run hashes every case for its set's hash) can be
:func:`noted <note_case_sha256>`; the evaluator then :func:`takes <read_case_sha256>`
that hash, once, instead of hashing the same case again before its turns.
"""

from __future__ import annotations

import hashlib
import os
import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tenxeval_tui.evaluation.canonical import canonical_json, sha256_json

if TYPE_CHECKING:  # the models are imported where used: see the package's docs
    from tenxeval_tui.evaluation.config.eval_config import EvalConfig
    from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet

CONFIG_FIELDS_NOT_HASHED = frozenset(
    {"reporter", "parallel", "max_concurrency", "verbose", "max_cost"}
)
"""Config fields that cannot change a case's outcome, left out of :func:`config_sha256`."""


# Left out of the dump that drops defaults: pydantic makes a default to compare with, and
# these defaults are fresh uuids (two a case, a tenth of the hashing at 100,000 cases). A
# turn's invocation_id is no content; a case's eval_id never equals a fresh uuid, so it is
# always kept, and is put back as it is.
_NOT_COMPARED: dict[str, Any] = {"eval_id": True, "conversation": {"__all__": {"invocation_id"}}}


def case_content(case: EvalCase) -> dict[str, Any]:
    """The case as :func:`case_sha256` hashes it (and an eval set diff compares it)."""
    data = case.model_dump(mode="json", exclude_defaults=True, exclude=_NOT_COMPARED)
    return {"eval_id": case.eval_id, **data}


def case_sha256(case: EvalCase) -> str:
    """The content hash of one case (see the module docs)."""
    return sha256_json(case_content(case))


# id(case) -> (the case, weakly; its hash when read). Weak so that a case never run (a
# stopped run) leaves nothing behind, and an id reused by another case is never mistaken.
_NOTED: dict[int, tuple[weakref.ref[EvalCase], str]] = {}


def note_case_sha256(case: EvalCase, canonical: bytes) -> None:
    """Notes ``case``'s hash from its canonical JSON (``canonical_json(case_content(case))``,
    taken by the caller): the next :func:`read_case_sha256` of this very object returns
    it. Only for a case that nothing changes before it runs."""
    key = id(case)
    _NOTED[key] = (weakref.ref(case, lambda _: _NOTED.pop(key, None)), _hex(canonical))


def read_case_sha256(case: EvalCase) -> str:
    """:func:`case_sha256` of ``case``: its noted hash (taken once: a repeat or a later run
    of the same object hashes it again), else computed now."""
    noted = _NOTED.pop(id(case), None)
    if noted is not None and noted[0]() is case:
        return noted[1]
    return case_sha256(case)


def _hex(canonical: bytes) -> str:
    return hashlib.sha256(canonical).hexdigest()


def eval_set_sha256(eval_set: EvalSet) -> str:
    """The content hash of a whole eval set (see the module docs)."""
    data = eval_set.model_dump(mode="json", exclude_defaults=True, exclude={"eval_cases"})
    return sha256_json({**data, "eval_cases": [case_content(c) for c in eval_set.eval_cases]})


def config_sha256(config: EvalConfig | Mapping[str, Any]) -> str:
    """The hash of the outcome-changing fields of ``config`` (a config or its JSON dump)."""
    from tenxeval_tui.evaluation.config.eval_config import EvalConfig

    data = config.model_dump(mode="json") if isinstance(config, EvalConfig) else dict(config)
    return sha256_json({k: v for k, v in data.items() if k not in CONFIG_FIELDS_NOT_HASHED})


def judge_models(config: EvalConfig, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """``criterion name -> judge model`` of the enabled criteria that call a judge.

    A judged criterion with no model set and no ``$TENXEVAL_JUDGE_MODEL`` is left out (it
    cannot run anyway). Which criteria call a judge is told by their classes
    (``requires_judge``), so a project's own judged criteria count too.
    """
    from tenxeval_tui.evaluation.criteria.base import get_criterion_class
    from tenxeval_tui.evaluation.judges.environment import ENV_JUDGE_MODEL

    env = os.environ if environ is None else environ
    models: dict[str, str] = {}
    for name, criterion in config.criteria.enabled_items():
        try:
            judged = get_criterion_class(name).requires_judge
        except KeyError:
            continue
        model = criterion.judge_model or env.get(ENV_JUDGE_MODEL)
        if judged and model:
            models[name] = model
    return models


def case_fingerprint(
    case_sha256: str,
    agent_sha256: str | None,
    config_sha256: str,
    judge_models: Mapping[str, str],
    cassette_sha256: str | None = None,
) -> str:
    """What a case's result depends on, as one hash: the case's content, the agent's code,
    the config, the judge models and the tool cassette it replays (if any).

    Two runs of a case with the same fingerprint ran the same case on the same code the
    same way: ``run --reuse`` may take the earlier result instead of running it again.
    An unknown agent hash (``None``) still fingerprints, but only matches another
    unknown one.
    """
    return sha256_json(
        {
            "case": case_sha256,
            "agent": agent_sha256,
            "config": config_sha256,
            "judges": dict(judge_models),
            "cassette": cassette_sha256,
        }
    )


__all__ = [
    "CONFIG_FIELDS_NOT_HASHED",
    "canonical_json",
    "case_content",
    "case_fingerprint",
    "case_sha256",
    "config_sha256",
    "eval_set_sha256",
    "judge_models",
    "note_case_sha256",
    "read_case_sha256",
    "sha256_json",
]
