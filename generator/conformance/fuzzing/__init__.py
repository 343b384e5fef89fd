"""`conform --fuzz`: arguments drawn from and broken against input schemas, calls, findings."""
