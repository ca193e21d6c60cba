"""階段 (stairs): 3+ consecutive ranks of one suit; how sequences compare (RULES.md §2)."""
from .base import Param

ID = "stairs"
NAME_JA = "階段"
SUMMARY = "3 or more consecutive ranks of one suit. A new sequence compares by its weakest card."
PARAMS = {"min_length": Param(3, "fewest cards in a stairs", lo=3, hi=13),
          "compare": Param("shift", "shift: new weakest beats old weakest (both sheets); "
                           "above: new weakest beats old strongest (UECda)", choices=("shift", "above"))}
DECLARABLE = True
SHAPE = True


def settings(params) -> dict:
    return {"compare": params["compare"], "min_stairs": params["min_length"]}
