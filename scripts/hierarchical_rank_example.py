"""The score table of the ``calibsim rank --method bayes`` example (issue 35): naive Bayes
and C4.5 on 12 shipped UCI data sets, 10 x 10 stratified cv, one row per fold.

    python scripts/hierarchical_rank_example.py    # -> figures/bayes/rank_example/uci_12_nb_c45_10x10.csv
    calibsim rank --scores figures/bayes/rank_example/uci_12_nb_c45_10x10.csv --method bayes \\
        --folds-per-run 10 --rope 0.01 --posterior-plot figures/bayes/rank_example/posterior.png
"""

from pathlib import Path

import calibsim
from calibsim.comparison import accuracy_table

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["breast-cancer", "breast-w", "colic", "credit-a", "diabetes", "heart-statlog",
         "hepatitis", "ionosphere", "labor", "sonar", "iris", "vote"]


def main():
    data = {n: calibsim.load_uci(n) for n in NAMES}
    table = accuracy_table({"naive_bayes": "naive_bayes", "c45": "c45"}, data,
                           design="10x10", random_state=35)
    out = ROOT / "figures" / "bayes" / "rank_example" / "uci_12_nb_c45_10x10.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    table[["dataset", "learner", "fold", "accuracy"]].to_csv(out, index=False)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
