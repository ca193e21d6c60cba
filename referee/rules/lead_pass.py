"""リードのパス (lead pass, the UECda server): the player leading on an empty field may pass."""
from typing import Final

ID: Final = "lead_pass"
NAME_JA = "親のパス"
NAME_EN = "the leader may pass"
SUMMARY = ("The player leading on an empty field may pass (the UECda server accepts it). The turn moves on; if "
           "nobody plays before everyone has passed, the same leader leads again.")
SUMMARY_JA = "空の場の親もパスできる（UECdaサーバーの扱い）。全員がパスしたら同じ人がまた親。"
PARAMS: dict = {}
LEAD_MAY_PASS = True  # read by Ruleset.lead_may_pass
