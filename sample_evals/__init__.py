"""Offline demo agents and eval sets (no API key, no network).

- ``sample_evals.weather_graph:build_graph``: a 10xGraph weather agent (a scripted
  model node and a ``get_weather`` tool node), ``weather_graph.evalset.json``.
- ``sample_evals.plain_agent:support_agent``: a plain-Python support agent,
  ``plain_agent.evalset.json``.
"""
