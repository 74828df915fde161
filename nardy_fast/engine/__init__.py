"""Layer 3, play and evaluation, in three parts, highest first: ``decisions`` (a position
valued by method, the cube, whole matches) > ``play`` (policies, turns, luck, rollouts,
strength matches, worker pools, variance reduction) > ``evaluation`` (the network, n-ply
search, the ``Evaluator``, the match table, the cube model).  Imports only from ``core``
and ``tables``; training, which makes the engine's data, is a layer of its own above it."""
