"""役の宣言 (gekifugo): ☆ effects happen only when declared with the play (RULES.md §6)."""
from typing import Final

ID: Final = "declarations_required"
NAME_JA = "役の宣言"
SUMMARY = ("Every ☆ effect fires only if declared with the play (declare: [...]); sequences must declare their "
           "shape. A declaration whose condition is not met is void.")
PARAMS: dict = {}
DECLARATIONS_REQUIRED = True  # read by Ruleset.declarations
