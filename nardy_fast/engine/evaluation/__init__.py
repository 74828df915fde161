"""The engine's lowest part, evaluation: the network (``_net``) and its n-ply search
(``_search``), the registry of shipped nets (``nets``), the ``Evaluator``, the match
equity table (``met``), the cube model (``cubemodel``) and its C loop (``_cubeloop``).
Imports only from ``core``, ``tables`` and nothing else of the engine."""
