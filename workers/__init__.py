"""Background work: RQ jobs that play the bot seats, and the bot strategies."""
