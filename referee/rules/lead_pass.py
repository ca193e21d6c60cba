"""リードのパス (lead pass, the UECda server): the player leading on an empty field may pass."""
from typing import Final

ID: Final = "lead_pass"
NAME_JA = "親のパス"
SUMMARY = ("The player leading on an empty field may pass (the UECda server accepts it). The turn moves on; if "
           "nobody plays before everyone has passed, the same leader leads again.")
PARAMS: dict = {}
LEAD_MAY_PASS = True  # read by Ruleset.lead_may_pass
