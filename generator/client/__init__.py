"""A live MCP server spoken to as its client, for `conform` and `import`: transports, session, listing, findings."""
