"""`mock`: a contract served as an MCP server publishes it (listings, answers, revisions)."""
