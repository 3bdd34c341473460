import java.io.PrintWriter;

import weka.classifiers.Classifier;
import weka.classifiers.bayes.BayesNet;
import weka.classifiers.bayes.NaiveBayes;
import weka.classifiers.functions.VotedPerceptron;
import weka.classifiers.lazy.IB1;
import weka.classifiers.trees.J48;
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
 * class is not binary. Uses only Weka's public API. Compiled with WekaIO.java. Written for calibsim.
 */
public class WekaDistributions {
  static void report(PrintWriter out, Classifier c, Instances test) throws Exception {
    for (String line : WekaIO.predictionsAndDistributions(c, test)) out.println(line);
  }

  public static void main(String[] args) throws Exception {
    WekaIO.eachSplit(args[0], (data, train, test, out) -> {
      BayesNet tan = WekaIO.tan(train);
      out.println(WekaIO.tanParents(tan, data));
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
    });
  }
}
