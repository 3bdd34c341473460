"""Status and evidence of the differences from the papers: the hand-typed part of the register.

Each rule matches the register's rows by paper and by regular expressions on their
``where`` and ``cell`` columns; the first matching rule gives the row its status
("not comparable", "explained by experiment", "partly explained", "explained by argument"
or "open"), its evidence (the study, test or argument, with its result in a sentence)
and, optionally, the variant studies whose numbers and side effects
:mod:`calibsim.papers._differences` puts beside the paper's (the first variant's value in
the ``variant`` columns, every variant's side effects in ``side_effects``). Rows no rule
matches are "open" (or "not comparable" when they have no paper value).
``tests/test_differences.py`` checks that every rule matches a row, that each "explained
by experiment" row's variant lies within 3 SE of the paper's value, closer to it than
ours, and breaks no other cell it touches, and that each "partly explained" row's variant
moves the cell closer but either breaks another cell or stays beyond 3 SE. Numbers quoted
in the evidence sentences are the variant outputs' at the time of writing (the variant
columns are recomputed on every run).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PAPERS", "STATUS", "Rule"]

#: The papers the register covers. Here, with the hand-typed rules, rather than in
#: :mod:`calibsim.papers._differences`, so that the command line's parser can offer them
#: without importing numpy, pandas and scipy.
PAPERS = ("bouckaert2003", "bouckaert_frank2004", "dietterich1998", "scheffer_herbrich1997",
          "ulas2012")


@dataclass(frozen=True)
class Rule:
    """Status and evidence of the differences whose ``where`` and ``cell`` match."""

    paper: str
    where: str            # regular expression searched in the ``where`` column
    cell: str             # regular expression searched in the ``cell`` column
    status: str
    evidence: str
    variant: str | tuple = ""   # key(s) of calibsim.papers._differences_variants.VARIANTS
    always: bool = False  # list matching cells even when within 3 SE (named in issue 22)


_EXP, _ARG, _OPEN = "explained by experiment", "explained by argument", "open"
_PART, _NC = "partly explained", "not comparable"
_NETWORKS = ("our Sets 1-4 are BAN networks found by scripts/search_ban_networks.py to match "
             "the paper's accuracy gaps; the paper's networks are unpublished, so accuracies "
             "of a few tenths of a percent apart are a property of the sources, not of the "
             "learners or tests")

_T56_BREAKS = ("the same variant moves k-fold cv's replicability at α = 5% (df 5 -> 6) away "
               "from the paper: Table 5 at Sets 1, 3 and 4 and Table 6's minimum at α = 5% "
               "(41.2% -> 34.6%, paper 42.6%) go from agreeing to differing (side effects)")

STATUS = (
    # ------------------------------------------------------------ Bouckaert (2003)
    Rule("bouckaert2003", "^Table 3$", ".", _ARG, _NETWORKS + "."),
    Rule("bouckaert2003", "^Table 4$", r"^(k-fold cv|use all data|folds averaged var|folds "
         r"averaged T|runs averaged var|sorted runs), α = 0\.01$", _EXP,
         "Calibration sample size: with the df calibrated on 10,000 null data sets instead "
         "of Figure 2's 1000 (studies/variants/bouckaert2003_table4_df10000.toml, same Set 1 "
         "scores), these Type I errors at α = 1% fall from 1.2-1.9% to 0.3-0.7% (variant "
         "column), beside the paper's 0.4-0.8%: on 1000 data sets the 1% calibration rests "
         "on about 10 rejections and its integer df comes out 1-3 too large (10-13 vs 6-11). "
         "Re-judged (issue 34): the variant touches all 36 Table 4 cells and breaks none; "
         "the same α = 1% df applied to replicability (bouckaert2003_table56_df10000.toml) "
         "fixes Table 6's k-fold cv at α = 1% and moves no α = 1% cell from agreeing to "
         "differing.", variant="df10000", always=True),
    Rule("bouckaert2003", "^Table 4$", r"^runs averaged T, α = 0\.1$", _EXP,
         "Calibration sample size: with the df from 10,000 data sets (7 -> 8) the rate "
         "rises from 7.3% to the variant value, beside the paper's 10.5%. Re-judged (issue "
         "34): the variant breaks none of the 36 Table 4 cells.",
         variant="df10000", always=True),
    Rule("bouckaert2003", "^Table 5$", "^5x2 cv", _OPEN,
         "Same difference as Bouckaert & Frank (2004) Table 5 (the same 5x2 cv numbers). "
         "Tried: (1) the 5x2cv F (all ten differences instead of the first; "
         "studies/variants/bouckaert_frank2004_table5_cv5x2.toml) raises Set 1 to the "
         "paper's value but leaves Sets 2-4 far below it: the numerator is ruled out; "
         "(2) unstratified 2-fold partitions (studies/variants/"
         "bouckaert_frank2004_table5_cv5x2_unstratified.toml, variant column): leaves every set "
         "where it was (Sets 1-4: 63.1, 53.5, 46.6, 1.3%; at Set 4 the t still rejects 4.6 times "
         "in 10), so stratification is ruled out too; the papers' higher consistency at Sets 1-3 "
         "and their 'conservative' test at Set 4 suggest their 5x2cv t rejected less often than "
         "ours, which neither the numerator nor the partitions explain. "
         "Not tried: Weka 3.3's 5x2cv code (not available offline); sources with the "
         "paper's exact gaps (its networks are unpublished).",
         variant=("cv5x2_unstratified", "cv5x2_f")),
    Rule("bouckaert2003", "^Table 5$", "^k-fold cv", _OPEN,
         "One cell of 40 at 3.8 SE. Tried: the df from 10,000 data sets "
         "(studies/variants/bouckaert2003_table56_df10000.toml; k-fold cv df 5 -> 6 at "
         "α = 5%) moves it away from the paper (variant column), so the calibration sample "
         "is not the cause; " + _NETWORKS + ". Not tried: a Set 2 with the paper's exact "
         "gap (2.77 pp, ours 2.65).", variant="t56_df10000"),
    Rule("bouckaert2003", "^Table 6$", r"^k-fold cv, α = 0\.01 ", _PART,
         "Calibration sample size, in part: with the df from 10,000 null data sets (k-fold "
         "cv df 7 -> 6 at α = 1%; studies/variants/bouckaert2003_table56_df10000.toml, "
         "651 s with the calibration) the minimum over the sets falls from 24.5% to the "
         "variant value, beside the paper's 12.8%. Re-judged from 'explained by experiment' "
         "(issue 34): " + _T56_BREAKS + ", so the 10,000-data-set df does not reproduce the "
         "paper's Tables 5-6 as a whole.", variant="t56_df10000"),
    Rule("bouckaert2003", "^Table 6$", ".", _OPEN,
         "Tried: the df from 10,000 data sets (studies/variants/"
         "bouckaert2003_table56_df10000.toml) gives the same df here and so the same "
         "minimum (variant column): the calibration sample is ruled out. Ours takes the "
         "minimum at Set 4, whose gap is 0.5-0.8 pp smaller than the paper's; "
         + _NETWORKS + ". Not tried: a Set 4 with the paper's exact gap (11.27 pp; the "
         "network search is open-ended and the paper's networks are unpublished).",
         variant="t56_df10000"),
    Rule("bouckaert2003", "^Table 7$", "nearest neighbor", _OPEN,
         "Every pair with nearest neighbor (IB1) rejects more often than the paper's, the "
         "other pairs agree. Suspected: Weka 3.3's IB1 (the paper's) vs our Weka 3.6 IB1 "
         "(on 10 binary attributes most test instances have exact duplicates in training, "
         "and IB1 takes the first nearest one); the df is calibrated on naive Bayes vs C4.5 "
         "only, so a pair with a different variance structure is not covered by it. Not "
         "tried: Weka 3.3 (not available offline); an IB1 with another distance-tie rule "
         "(a learner option in the fast kernels, outside issue 34; it would no longer be "
         "Weka's IB1, which calibsim must equal)."),
    Rule("bouckaert2003", "figure2", "same at 1%, 5% and 10%", _PART,
         "Calibration sample size, in part. On 1000 data sets our df falls with α by about 3 "
         "(mean 11.9 / 9.9 / 8.7 over the 'about 11' tests and all r). On 10,000 data sets "
         "(studies/variants/bouckaert2003_calibration_10000.toml at r = 10 and "
         "bouckaert2003_calibration_10000_runs.toml at r = 20 and 50; own cells in the "
         "side-effects column) the spread of each test's df over α shrinks from 3-4 to "
         "1-2 at every r run: at r = 10 it is <= 1 for 4 of the 6 tests (the rule agrees), "
         "at r = 20 and 50 for 2 of 6 (it still differs). The calibration sample explains "
         "most of the fall, not all of it. The shipped df table (another 10,000 data sets, "
         "calibsim/data/df/df_table.csv) confirms a fall that is not noise: the continuous "
         "df of use all data at r = 10 is 11.3 (95% interval 10.7-11.6) at α = 1% and 9.4 "
         "(9.1-9.7) at 10%. Not tried: Weka 3.3's C4.5 (the papers') in place of our Weka "
         "3.6 J48, which shapes the null distribution's tails.",
         variant="df_10000"),
    Rule("bouckaert2003", "figure2", "k-fold cv", _PART,
         "On 1000 data sets our k-fold cv df is 5 (paper: about 6); on 10,000 data sets "
         "(studies/variants/bouckaert2003_calibration_10000.toml) it is the variant value "
         "at α = 5% (6 at α = 1% and 2.5% too). Re-judged from 'explained by experiment' "
         "(issue 34): the df itself is explained by the calibration sample size, but "
         + _T56_BREAKS + ".", variant=("df_10000", "t56_df10000"), always=True),
    Rule("bouckaert2003", "figure2", "corrected resampling", _ARG,
         "The corrected resampled t's df reaches the grid's top (100) at r = 80-90: no df in "
         "2..100 brings its Type I error up to α, so 'about 10% below r - 1' cannot be met "
         "there; the rule checks r >= 20, where most cells agree."),
    Rule("bouckaert2003", "figure2", "folds", _ARG,
         "Our 'folds' test gets df 0 (none keeps Type I error <= α) at every r, the paper "
         "reports a very low df; the paper reports zeros only for the runs tests, and on "
         "1000 data sets a df of 1-2 and 0 are a few rejections apart."),
    # -------------------------------------------------- Bouckaert & Frank (2004)
    Rule("bouckaert_frank2004", "^Table 5$", "^5x2 cv", _OPEN,
         "The 5x2cv t is consistent on 1.5% of Set 4's training sets (paper 16.9%); at "
         "Set 4 it rejects 4.6 of 10 times on average, so consistency needs a power near 0 "
         "or 1 per training set. Tried: (1) the 5x2cv F, all ten differences "
         "(studies/variants/bouckaert_frank2004_table5_cv5x2.toml): 8.6%, the numerator is "
         "not the cause; (2) unstratified 2-fold partitions (studies/variants/"
         "bouckaert_frank2004_table5_cv5x2_unstratified.toml, variant column): leaves every set "
         "where it was (Sets 1-4: 63.1, 53.5, 46.6, 1.3%; at Set 4 the t still rejects 4.6 times "
         "in 10), so stratification is ruled out too; the papers' higher consistency at Sets 1-3 "
         "and their 'conservative' test at Set 4 suggest their 5x2cv t rejected less often than "
         "ours, which neither the numerator nor the partitions explain. "
         "Not tried: Weka 3.3's 5x2cv code (not available offline); a Set 4 with the "
         "paper's 11.27-pp gap (ours 10.5).", variant=("cv5x2_unstratified", "cv5x2_f")),
    Rule("bouckaert_frank2004", "^Table 5$", "^accuracy", _ARG, _NETWORKS + "."),
    # --------------------------------------------------------- Dietterich (1998)
    Rule("dietterich1998", "^Figure 4$", "resampled t", _NC,
         "No paper value: the paper does not give its (e1, e2) pairs per ε and its Type I "
         "errors survive only as a figure, so these cells count neither as agreements nor "
         "as differences. Our 'widest' pairs are the upper end; the 'balanced' pairs "
         "(variant column) give the same rate at ε <= 0.2 and lower rates at ε = 0.3, 0.4; "
         "under both the resampled t is far above α = 5% at every ε, which is the paper's "
         "claim (a separate cell, which agrees).", variant="balanced"),
    Rule("dietterich1998", "letter", "most powerful", _OPEN,
         "Two-sided rule (issue 34): on letter recognition the 5x2cv t and McNemar are as "
         "powerful (mean power over λ > 0 18.4% and 18.5%; 35% each at a 9.4-point "
         "difference), so the paper's 'slightly more powerful' is not reproduced on this "
         "task; it is on EXP6 (9.2% vs 6.9%, beyond 2 SE). The paper itself also says the "
         "two have 'similar power', which ours agrees with. No further experiment: the point "
         "estimates already favour McNemar, so no smaller Monte Carlo error would make the "
         "5x2cv t more powerful here; our damaged distance (weights on letter's eight "
         "even-numbered attributes) is ours, the paper's is not in its text."),
    Rule("dietterich1998", "pima", "powerful", _NC,
         "Not tested here (issue 34): on Pima the undamaged learners differ by only 2.96 "
         "points at λ = 1 (C4.5 28.5%, IB1 31.4% at 200 training instances), so every "
         "acceptable test's power stays below 10% (at most 8.6%) and no order between them "
         "is measured. A larger damage range would need C4.5 with random errors beyond its "
         "undamaged learning curve, which is not Dietterich's design."),
    # ------------------------------------------------ Scheffer & Herbrich (1997)
    Rule("scheffer_herbrich1997", "worked examples", "one channel", _ARG,
         "Contrast row, not the paper's model: with the five FEM problems pooled into one "
         "channel (A6 dropped) far more labels are needed (24 / 39); the paper's c = 5 / 8 "
         "are reproduced with its five problems (A6), in the rows above."),
    Rule("scheffer_herbrich1997", "readings|worked examples|paper's claims",
         r"P\(acc >= 26%\)|P\(acc >= 31%\)|c = 5, acc|c = 8, acc|with c = 5|with c = 8", _ARG,
         "Two readings, both computed (calibsim.papers._differences."
         "scheffer_herbrich_readings): 'at least ceil(a m) hits' gives FEM 0.9973 / 0.9677 "
         "and Landsat 0.0231 (paper 0.99 / 0.93 / 0.02); the strict 'more than' reading "
         "gives FEM 0.9909 / 0.9330 (binomial; hypergeometric 0.9936 / 0.9477) but Landsat "
         "0.0054. No single reading reproduces all three, so the paper does not use one "
         "convention; calibsim keeps 'at least' (Landsat agrees, the FEM label counts c = 5 "
         "and 8 agree under both) and lists the strict reading here instead of switching."),
    Rule("scheffer_herbrich1997", "readings", "Landsat", _ARG,
         "The strict reading's Landsat probability (0.5%) is the evidence against that "
         "reading: the paper's 2% matches 'at least' (2.3%)."),
    Rule("scheffer_herbrich1997", "simulation", "corrected repeated cv", _OPEN,
         "Our own simulation's claim check (not a number of the paper): the corrected "
         "repeated cv's Type I error rises with p (5.5% -> 12.5%, 6 SE) but its step from "
         "p = 1 to 2 falls by 0.50 pp, 2.0 paired SE, at the rule's limit. The page gives a "
         "cause (at p = 1 naive Bayes is the slightly better learner on these folds; tuning "
         "first moves C4.5 towards it, removing those rejections), from the study's own "
         "rejections. Not tried: a rerun on more data sets to see whether the dip stays "
         "beyond 2 SE (the study's 800 data sets took 8-44 min)."),
    Rule("scheffer_herbrich1997", "simulation", "honest protocols", _PART,
         "Nested cv shows a gain of +0.46 pp (SE 0.07) over the untuned learner at p = 8. "
         "The page's argument: stratified cv is itself optimistic on null data, most for "
         "strongly pruned trees, and the honest protocols choose on stratified inner splits. "
         "Tested in part (studies/variants/scheffer_herbrich1997_cv_bias.toml, 300 other "
         "null data sets, 219 s on the loaded machine): under 10 x 10 stratified cv the "
         "default C4.5 scores 50.59% (SE 0.21) and confidence 0.05 51.13% (0.21), +0.55 pp; "
         "under plain folds both score 50.0% and the edge is the variant value (-0.11 pp, "
         "unpaired SE 0.32): the estimator's bias, and the pruned trees' edge, come from "
         "stratification. Not rerun: the honest protocols themselves with plain inner and "
         "outer folds (the tuning code's inner splits are always stratified), which would "
         "show the claim's gain vanish.", variant="cv_bias"),
    # ---------------------------------------------------------- Ulaş et al. (2012)
    Rule("ulas2012", "Table 5", "sv2", _PART,
         "The paper's value is its rank among our seven learners, computed exactly from its "
         "Table 4 wins (which reproduce Table 5(a)'s eight-learner ranks): 4.59 (5.07 among "
         "eight). Variant studies/variants/ulas2012_real_svm.toml: with LIBSVM's default "
         "coef0 = 0 (the paper used LIBSVM 2.82 and gives no kernel parameters) the "
         "quadratic kernel (x'y/D)^2 is even and fails on twonorm, balance-scale, car; sv2's "
         "rank moves past the paper's to the variant value; input scaling to [0, 1] instead "
         "(sv2_minmax) brings it within 1 SE (4.84). Re-judged from 'explained by "
         "experiment' (issue 34): both variants push mlp's rank from agreeing to differing "
         "(3.64 -> 3.14 and 3.23, paper 4.28; side effects). With the paper's 1/3 hold-out "
         "too (studies/variants/ulas2012_real_holdout.toml) coef0 = 0 gives 5.62 (z 3.0) "
         "and breaks mlp the same way (3.23), so the hold-out does not reconcile them.",
         variant=("sv2_libsvm", "sv2_minmax", "holdout_sv2_libsvm")),
    Rule("ulas2012", "Table 5", "svl", _OPEN,
         "The paper's value is its rank among our seven learners from its Table 4 wins: "
         "2.82 (3.05 among eight). Tried: [0, 1] input scaling leaves svl's rank where it is "
         "(4.34, svl_minmax): scaling is ruled out; with sv2 at coef0 = 0 svl's rank "
         "improves to 3.66, part of the way; the paper's 1/3 hold-out "
         "(studies/variants/ulas2012_real_holdout.toml, variant column; all seven learners "
         "rerun on 2/3 of each data set, 3081 s on the loaded machine) leaves it at 4.27 "
         "(z 4.8) and moves no other rank across 3 SE: the training-set size is ruled out. "
         "Not tried: one-hot nominal attributes (the engine passes no attribute types to "
         "pipeline steps), the 6 data sets we lack.", variant=("holdout", "sv2_libsvm")),
    Rule("ulas2012", "Multi²Test order", "training time", _ARG,
         "The prior order is our measured training time (5nn < c45 < sv2 < lnp < svr < svl "
         "< mlp), not the paper's; Multi²Test overrides nothing (0 overrides), so its "
         "order is the prior order. With the paper's own cost order (space, §4.5.2) the "
         "order is reproduced exactly (Kendall τ = 1, the next row of "
         "ulas2012_real_orders.csv)."),
    Rule("ulas2012", "synthetic.*Bonferroni", "4-3-2-1", _EXP,
         "Decided by the first-pass correction the paper does not name: with Bonferroni "
         "(our default) the most probable ordering at λ = 0.1 is 3-4-1-2; the variant with "
         "no correction, in the same report, reaches 4-3-2-1 (P = 0.987) as the paper "
         "says. Re-judged (issue 34): the no-correction variant changes no other claim's "
         "verdict (Fig. 4's three claims and Fig. 5's start agree under both corrections; "
         "the first reversal differs under both)."),
    Rule("ulas2012", "synthetic", "reversing", _ARG,
         "Our first reversal is 2-3-1-4, the paper's 2-3-4-1, under both corrections: a "
         "learner that overrides only learner 1 keeps its place behind the other cheaper "
         "learners in average rank, so the post-hoc test separates 1 from 2 and 3 first "
         "(argument in ulas2012_synthetic_report.md, 'What differs and why')."),
)
