# C-level entry points of the input checks (_checks.pyx), for Cython wrappers.

# A contiguous uint8 24-point board from x (no copy when it is one); TypeError /
# ValueError naming `name`.
cpdef object as_board(object x, str name)

# Die i (0 or 1) of a roll as an int 1..6; TypeError / ValueError naming dice[i].
cpdef int check_die(object x, int i) except -1
