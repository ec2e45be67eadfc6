"""`tenxeval-tui import` on realistic sizes: CSV and JSON Lines files of many rows.

Prints seconds (and rows per second) to import a 20,000-row CSV and JSONL file (query,
expected answer, tags, a tool-call JSON cell and two extra columns) and write the eval
set, through the same function the command calls, and the whole console script on the
CSV (target: <= 5 s for 20,000 rows; a spreadsheet export is rarely larger).
Run: .venv/bin/python bench/import_rows.py [rows]
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tenxeval_tui.evaluation.dataset.importing import import_eval_set

TARGET_S = 5.0


def rows(count: int) -> list[dict[str, str]]:
    return [
        {
            "question": f"What is the weather in city {i}? Answer in one sentence, please.",
            "answer": f"The weather in city {i} is sunny, {i % 35} degrees.",
            "tags": "weather,smoke" if i % 3 else "weather",
            "expected_tools": json.dumps([{"name": "get_weather", "args": {"city": f"c{i}"}}]),
            "owner": "team-a",
            "priority": str(i % 5),
        }
        for i in range(count)
    ]


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    data = rows(count)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        csv_path = folder / "rows.csv"
        with csv_path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(data[0]))
            writer.writeheader()
            writer.writerows(data)
        jsonl_path = folder / "rows.jsonl"
        jsonl_path.write_text("".join(json.dumps(r) + "\n" for r in data), encoding="utf-8")
        for path in (csv_path, jsonl_path):
            start = time.perf_counter()
            result = import_eval_set(path)
            result.eval_set.to_file(folder / f"{path.suffix[1:]}.evalset.json")
            seconds = time.perf_counter() - start
            assert len(result.eval_set) == count
            print(
                f"import {path.suffix:7} {count} rows: {seconds:6.2f} s "
                f"({count / seconds:,.0f} rows/s, {path.stat().st_size / 1e6:.1f} MB)"
            )
            ok = ok and seconds <= TARGET_S
        script = Path(sys.executable).parent / "tenxeval-tui"
        start = time.perf_counter()
        subprocess.run(
            [str(script), "import", str(csv_path), "-o", str(folder / "cli.evalset.json")],
            check=True,
            capture_output=True,
        )
        seconds = time.perf_counter() - start
        print(f"tenxeval-tui import (.csv, whole command): {seconds:6.2f} s")
        ok = ok and seconds <= TARGET_S
    print(f"target <= {TARGET_S} s: {'OK' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    from support.own_settings import own_settings

    with own_settings():  # never the developer's settings file and state
        raise SystemExit(main())
