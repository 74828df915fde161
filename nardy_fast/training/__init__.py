"""Layer 4 (beside ``analysis``), training: what makes the package's data.  Temporal-
difference self-play (``train``, ``_selfplay``), look-ahead labels (``labels``), supervised
training (``supervised``) and its schedules (``schedule``), the luck net (``lucknet``) and
the match equity table's start data (``metbuild``).  Imports from ``engine``, ``tables``
and ``core``; the engine keeps the readers of what training writes."""
