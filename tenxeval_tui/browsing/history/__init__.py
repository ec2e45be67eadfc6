"""The history of a report folder: an SQLite index of its reports (:mod:`.index`), the
runs and cases read from it (:mod:`.queries`, :mod:`.series`) and the trend gate
(:mod:`.trend`). No UI."""
