"""`import`: a contract written from what a live server lists (the server read, its facts, the files written)."""
