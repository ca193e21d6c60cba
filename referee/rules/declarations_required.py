"""役の宣言 (gekifugo): ☆ effects happen only when declared with the play (RULES.md §6)."""
from typing import Final

ID: Final = "declarations_required"
NAME_JA = "役の宣言"
NAME_EN = "declare your plays"
SUMMARY = ("Every ☆ effect fires only if declared with the play (declare: [...]); sequences must declare their "
           "shape. A declaration whose condition is not met is void.")
SUMMARY_JA = ("☆の効果は出すときに宣言したときだけ起きる（declare）。階段などの形も宣言が必要。"
              "条件を満たさない宣言は無効。")
PARAMS: dict = {}
DECLARATIONS_REQUIRED = True  # read by Ruleset.declarations
