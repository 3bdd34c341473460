import java.io.BufferedReader;
import java.io.FileReader;
import java.io.FileWriter;
import java.io.PrintWriter;

import weka.classifiers.Classifier;
import weka.classifiers.bayes.BayesNet;
import weka.classifiers.bayes.NaiveBayes;
import weka.classifiers.bayes.net.ParentSet;
import weka.classifiers.bayes.net.estimate.SimpleEstimator;
import weka.classifiers.bayes.net.search.local.TAN;
import weka.classifiers.functions.VotedPerceptron;
import weka.classifiers.lazy.IB1;
import weka.classifiers.trees.J48;
import weka.core.Instance;
import weka.core.Instances;

/**
 * Weka's predictions and class distributions on splits fixed by calibsim (driver
 * for scripts/weka_oracle.py --missing-class and --tan-vp-numeric).
 *
 * Usage: java -cp weka.jar:DIR WekaDistributions JOBS
 * JOBS has one line per data set: "data.arff splits.txt out.txt". The class is the
 * last attribute. splits.txt has one line per split holding the 0-based indices of
 * its test instances; the training set is every other instance, in file order, so
 * a training set can miss classes that the header declares. For each split,
 * out.txt gets eleven lines: the tree parent of every attribute in the TAN network
 * (-1 for none besides the class), then for NaiveBayes, J48, IB1, BayesNet (TAN
 * search, SimpleEstimator -A 0.5) and VotedPerceptron (default options), in this
 * order, a line of predicted class indices (classifyInstance, -1 if missing) and a
 * line of distributionForInstance, numClasses numbers per test instance, printed
 * with Double.toString (exact). The voted perceptron's two lines are "-" when the
 * class is not binary. Uses only Weka's public API. Written for calibsim.
 */
public class WekaDistributions {
  static Instances load(String path) throws Exception {
    BufferedReader r = new BufferedReader(new FileReader(path));
    Instances d = new Instances(r);
    r.close();
    d.setClassIndex(d.numAttributes() - 1);
    return d;
  }

  static void report(PrintWriter out, Classifier c, Instances test) throws Exception {
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
    out.println(pred);
    out.println(dist);
  }

  public static void main(String[] args) throws Exception {
    BufferedReader list = new BufferedReader(new FileReader(args[0]));
    String line;
    while ((line = list.readLine()) != null) {
      String[] p = line.trim().split("\\s+");
      Instances data = load(p[0]);
      BufferedReader splits = new BufferedReader(new FileReader(p[1]));
      PrintWriter out = new PrintWriter(new FileWriter(p[2]));
      String f;
      while ((f = splits.readLine()) != null) {
        String[] idx = f.trim().split("\\s+");
        boolean[] isTest = new boolean[data.numInstances()];
        Instances train = new Instances(data, 0), test = new Instances(data, 0);
        for (String s : idx) isTest[Integer.parseInt(s)] = true;
        for (String s : idx) test.add(data.instance(Integer.parseInt(s)));
        for (int i = 0; i < data.numInstances(); i++) {
          if (!isTest[i]) train.add(data.instance(i));
        }
        BayesNet tan = new BayesNet();
        tan.setSearchAlgorithm(new TAN());
        SimpleEstimator estimator = new SimpleEstimator();
        estimator.setAlpha(0.5);
        tan.setEstimator(estimator);
        tan.buildClassifier(train);
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
        out.println(parents);
        NaiveBayes nb = new NaiveBayes();
        nb.buildClassifier(train);
        report(out, nb, test);
        J48 j48 = new J48();
        j48.buildClassifier(train);
        report(out, j48, test);
        IB1 ib1 = new IB1();
        ib1.buildClassifier(train);
        report(out, ib1, test);
        report(out, tan, test);
        if (data.numClasses() == 2) {
          VotedPerceptron vp = new VotedPerceptron();
          vp.buildClassifier(train);
          report(out, vp, test);
        } else {
          out.println("-");
          out.println("-");
        }
      }
      splits.close();
      out.close();
    }
    list.close();
  }
}
