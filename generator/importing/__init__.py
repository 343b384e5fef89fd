"""`import`: a contract written from what a live server lists (facts, envelope, files)."""
