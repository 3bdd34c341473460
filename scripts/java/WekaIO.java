import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.FileReader;
import java.io.FileWriter;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.zip.GZIPInputStream;

import weka.classifiers.Classifier;
import weka.classifiers.bayes.BayesNet;
import weka.classifiers.bayes.net.ParentSet;
import weka.classifiers.bayes.net.estimate.SimpleEstimator;
import weka.classifiers.bayes.net.search.local.TAN;
import weka.core.Instance;
import weka.core.Instances;

/**
 * What calibsim's Weka drivers share, written once: reading an ARFF file (the class is
 * the last attribute; .arff.gz read as is), cutting a data set into the training and test sets of a split
 * given as a line of 0-based test indices, walking a jobs file, and printing Weka's
 * predictions and class distributions. The drivers (WekaOracle, WekaDistributions,
 * WekaTable7, WekaGeneralFolds, WekaFoldRunner, benchmarks/java/WekaFoldTiming) are
 * compiled together with this file. Uses only Weka's public API. Written for calibsim.
 */
final class WekaIO {
  private WekaIO() {}

  /** What a driver does with one split of one data set. */
  interface SplitJob {
    void run(Instances data, Instances train, Instances test, PrintWriter out) throws Exception;
  }

  /** What a driver does with one line "a b c" of a jobs file (its fields). */
  interface LineJob {
    void run(String[] fields) throws Exception;
  }

  /** The data of an ARFF file (gzip-compressed when its name ends in .gz). */
  static Instances load(String path) throws Exception {
    BufferedReader r = path.endsWith(".gz")
        ? new BufferedReader(new InputStreamReader(new GZIPInputStream(new FileInputStream(path))))
        : new BufferedReader(new FileReader(path));
    Instances d = new Instances(r);
    r.close();
    d.setClassIndex(d.numAttributes() - 1);
    return d;
  }

  /** {train, test}: the test instances in the listed order, the training set in file order. */
  static Instances[] split(Instances data, String testIndices) {
    String[] idx = testIndices.trim().split("\\s+");
    boolean[] isTest = new boolean[data.numInstances()];
    Instances train = new Instances(data, 0), test = new Instances(data, 0);
    for (String s : idx) isTest[Integer.parseInt(s)] = true;
    for (String s : idx) test.add(data.instance(Integer.parseInt(s)));
    for (int i = 0; i < data.numInstances(); i++) {
      if (!isTest[i]) train.add(data.instance(i));
    }
    return new Instances[] {train, test};
  }

  /** Calls job with the whitespace-separated fields of every line of the jobs file. */
  static void eachLine(String jobs, LineJob job) throws Exception {
    BufferedReader list = new BufferedReader(new FileReader(jobs));
    String line;
    while ((line = list.readLine()) != null) job.run(line.trim().split("\\s+"));
    list.close();
  }

  /** Every split of data listed in a splits file (one line of test indices per split). */
  static ArrayList<Instances[]> readSplits(Instances data, String path) throws Exception {
    ArrayList<Instances[]> out = new ArrayList<Instances[]>();
    BufferedReader splits = new BufferedReader(new FileReader(path));
    String f;
    while ((f = splits.readLine()) != null) out.add(split(data, f));
    splits.close();
    return out;
  }

  /** Jobs lines "data.arff splits.txt out.txt": job runs on every split, writing to out. */
  static void eachSplit(String jobs, SplitJob job) throws Exception {
    eachLine(jobs, p -> {
      Instances data = load(p[0]);
      PrintWriter out = new PrintWriter(new FileWriter(p[2]));
      for (Instances[] s : readSplits(data, p[1])) job.run(data, s[0], s[1], out);
      out.close();
    });
  }

  /** The predicted class indices of the test instances (-1 for a missing prediction). */
  static String predictions(Classifier c, Instances test) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < test.numInstances(); i++) {
      double p = c.classifyInstance(test.instance(i));
      if (i > 0) sb.append(' ');
      sb.append(Instance.isMissingValue(p) ? -1 : (int) p);
    }
    return sb.toString();
  }

  /**
   * Two lines: the predicted class indices (-1 for missing) and every test instance's class
   * distribution, numClasses numbers each, exact (Double.toString). Each instance is
   * classified, then its distribution asked, in turn: IB1 widens its attribute ranges with
   * every instance it sees, so this order is part of the answer.
   */
  static String[] predictionsAndDistributions(Classifier c, Instances test) throws Exception {
    StringBuilder pred = new StringBuilder(), dist = new StringBuilder();
    for (int i = 0; i < test.numInstances(); i++) {
      double p = c.classifyInstance(test.instance(i));
      if (i > 0) pred.append(' ');
      pred.append(Instance.isMissingValue(p) ? -1 : (int) p);
      for (double q : c.distributionForInstance(test.instance(i))) {
        if (dist.length() > 0) dist.append(' ');
        dist.append(Double.toString(q));
      }
    }
    return new String[] {pred.toString(), dist.toString()};
  }

  /** BayesNet with the TAN search (default score) and SimpleEstimator -A 0.5, built on train. */
  static BayesNet tan(Instances train) throws Exception {
    BayesNet tan = new BayesNet();
    tan.setSearchAlgorithm(new TAN());
    SimpleEstimator estimator = new SimpleEstimator();
    estimator.setAlpha(0.5);
    tan.setEstimator(estimator);
    tan.buildClassifier(train);
    return tan;
  }

  /** The tree parent of every attribute in a TAN network (-1 for none besides the class). */
  static String tanParents(BayesNet tan, Instances data) {
    StringBuilder parents = new StringBuilder();
    for (int a = 0; a < data.numAttributes() - 1; a++) {
      ParentSet ps = tan.getParentSet(a);
      int par = -1;
      for (int k = 0; k < ps.getNrOfParents(); k++) {
        if (ps.getParent(k) != data.classIndex()) par = ps.getParent(k);
      }
      if (a > 0) parents.append(' ');
      parents.append(par);
    }
    return parents.toString();
  }
}
