"""Layer 5, front ends: the ``nardy-fast`` command, the demo job and terminal play."""
