"""Hostile strings for the untrusted-text tests: one for each way text can drive a terminal."""

from __future__ import annotations

import re

# Hostile strings an eval set, an agent or a judge could hold (one per way to hurt a terminal).
HOSTILE = {
    "csi_clear": "before\x1b[2Jafter",
    "csi_alt_screen_off": "x\x1b[?1049ly",
    "csi_report_cursor": "ask\x1b[6n",
    "osc0_bel": "title\x1b]0;PWNED\x07end",
    "osc2_st": "title\x1b]2;PWNED\x1b\\end",
    "osc8_link": "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
    "osc52_clipboard": "\x1b]52;c;cm0gLXJmIH4=\x07",
    "dcs": "\x1bP1$qm\x1b\\",
    "c1_csi": "c1\x9b2Jc1",
    "c1_osc": "\x9d0;PWNED\x9c",
    "bel": "ding\x07dong",
    "backspace": "secret\x08\x08\x08\x08\x08\x08public",
    "lone_cr": "shown\roverwritten",
    "del": "a\x7fb",
    "nul": "a\x00b",
    "bidi_override": "user\u202etxt.exe",
    "bidi_isolate": "\u2066isolated\u2069",
    "invisible": "zero\u200bwidth\ufeff\u200fmark",
    "lone_surrogate": "half \ud83d emoji",
}

# What must never be in text written to a terminal: C0 (but newline/tab), DEL, C1, bidi,
# invisible characters that hide or split text.
RAW_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e"
    "\u2060-\u2064\u2066-\u2069\ufeff\ud800-\udfff]"
)
