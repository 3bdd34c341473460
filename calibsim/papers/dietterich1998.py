"""Dietterich (1998): Figures 4 and 5 and the tests on null data with real learners (stub)."""

LAYOUTS = {"figure4": lambda **kw: {}, "figure5": lambda **kw: {}, "null_learners": lambda **kw: {}}
