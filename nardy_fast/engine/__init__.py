"""Layer 3, play and evaluation: the network, n-ply search, fixed policies, the C game
loops (rollouts, self-play, strength matches, the cube's decisions), the ``Evaluator``,
rollouts, training and the cube model.  Imports only from ``core`` and ``tables``."""
