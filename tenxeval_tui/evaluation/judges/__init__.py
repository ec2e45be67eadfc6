"""The LLM judges the judged criteria ask: their settings and client, one run's pool of
them, their replies, the reply cache on disk, token usage and rate limits.

- :mod:`.models`: :class:`~.models.JudgeSettings` (from a criterion's config and the
  environment), the :class:`~.models.JudgeModel` protocol and :class:`~.models.OpenAIJudge`.
- :mod:`.pool`: :class:`~.pool.JudgePool`, the judges of one run (shared clients, calls in
  flight bounded, rate limits per endpoint and model, the cache).
- :mod:`.reply`, :mod:`.usage`: one judge answer; its token usage, checked or estimated.
- :mod:`.errors`, :mod:`.environment`: :class:`~.errors.JudgeError` and the judges'
  environment variables, alone (a run without judges needs them, not the client).
- :mod:`.cache`: the reply cache on disk (lookups, expiry, size cap, list / clear / prune).
- :mod:`.http`, :mod:`.ratelimit`: the HTTP client's whole-request deadline; sliding-window
  limits.

Importing this package imports none of them (nor ``openai``).
"""
