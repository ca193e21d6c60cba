"""UECda contest protocol 20070 (shared/UECDA.md): a server that referees contest clients with our engine, and a
client that enters our bots into any UECda server."""
