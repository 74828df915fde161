"""The engine's middle part, game loops: fixed policies and policy names (``policy``,
``_policies``), one turn of a C loop (``turn``, ``_turn``), the luck of a roll (``luck``,
``_luck``) and the luck net's reader (``lucknet``, ``_lucknet``), rollouts (``rollout``,
``_rollout``) and their settings (``settings``), strength matches (``strength``,
``_match``), worker pools (``parallel``) and variance reduction (``variance``).  Imports from ``engine.evaluation`` below it."""
