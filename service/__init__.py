"""The game service: storage, tokens, settings and bot scheduling, shared by the API and the workers."""
