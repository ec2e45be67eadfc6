"""Naming the problems of big or very broken eval sets: every problem located in one scan.

1. 4,000 cases, each with a bad field: ``validate`` names all 4,000 (target <= 2 s).
2. 1,000 duplicate eval_ids in a file of about 1 MB (target <= 2 s).
3. A file of about 62 MB with one bad field in its last case (target <= 10 s).

Each prints the seconds (median of a few runs) and the problems found.

Run: .venv/bin/python bench/locate.py [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.dataset import validate_eval_set_file


def case(index: int, padding: int = 0) -> dict[str, Any]:
    return {
        "eval_id": f"case_{index}",
        "name": f"Weather {index}",
        "conversation": [
            {
                "user_content": {"role": "user", "content": f"Weather in city {index}?"},
                "expected_final_response": {
                    "role": "assistant",
                    "content": f"Sunny in city {index}." + " It stays dry." * padding,
                },
                "expected_tool_trajectory": [{"name": "get_weather", "args": {"city": index}}],
            }
        ],
        "tags": ["weather", "smoke"],
        "metadata": {"context": "Forecasts come from the national weather service."},
    }


def bad_fields(count: int) -> dict[str, Any]:
    cases = [case(i) for i in range(count)]
    for item in cases:
        item["tags"] = "smoke"  # a string where a list belongs
    return {"eval_set_id": "bad-fields", "eval_cases": cases}


def duplicates(count: int) -> dict[str, Any]:
    cases = [case(i) for i in range(count * 2)]
    for index in range(count):
        cases[count + index]["eval_id"] = f"case_{index}"
    return {"eval_set_id": "duplicates", "eval_cases": cases}


def big_file(megabytes: int) -> dict[str, Any]:
    one = len(json.dumps(case(0, padding=60), indent=2))
    cases = [case(i, padding=60) for i in range(megabytes * 1_000_000 // one)]
    cases[-1]["conversation"][0]["user_content"]["role"] = 5
    return {"eval_set_id": "big", "eval_cases": cases}


SCENARIOS = [
    ("4,000 cases, a bad field in each", lambda: bad_fields(4_000), 4_000, 2.0),
    ("1,000 duplicate eval_ids", lambda: duplicates(1_000), 1_000, 2.0),
    ("62 MB, one bad field in the last case", lambda: big_file(62), 1, 10.0),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for label, build, expected, target in SCENARIOS:
            path = Path(tmp) / "bench.evalset.json"
            path.write_text(json.dumps(build(), indent=2), encoding="utf-8")
            size = path.stat().st_size / 1e6
            times, found = [], 0
            for _ in range(args.repeats):
                start = time.perf_counter()
                problems = validate_eval_set_file(path)
                times.append(time.perf_counter() - start)
                found = len(problems)
            median = statistics.median(times)
            good = median <= target and found == expected
            ok = ok and good
            print(
                f"{label} ({size:.1f} MB): {median:.2f} s, {found} problems named "
                f"(target <= {target:g} s, {expected} problems) {'ok' if good else 'MISSED'}"
            )
            if problems and problems[-1].line is None:
                print("  the last problem has no line", file=sys.stderr)
                ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
