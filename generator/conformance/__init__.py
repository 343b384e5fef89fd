"""`conform`: a live server held to a contract (its listing, example calls and probes, results judged)."""
