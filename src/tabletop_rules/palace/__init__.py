"""Palace (Russian variant): play cards of one rank that beat the pile, or take it."""
