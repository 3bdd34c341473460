import java.io.BufferedReader;
import java.io.FileReader;
import java.io.FileWriter;
import java.io.PrintWriter;

import weka.classifiers.Classifier;
import weka.classifiers.bayes.BayesNet;
import weka.classifiers.bayes.net.ParentSet;
import weka.classifiers.bayes.net.estimate.SimpleEstimator;
import weka.classifiers.bayes.net.search.local.TAN;
import weka.classifiers.functions.VotedPerceptron;
import weka.core.Instance;
import weka.core.Instances;

/**
 * Weka's TAN and voted perceptron on splits fixed by calibsim (driver for
 * scripts/weka_table7_check.py).
 *
 * Usage: java -cp weka.jar:DIR WekaTable7 JOBS
 * JOBS has one line per data set: "data.arff folds.txt out.txt". The class is the
 * last attribute. folds.txt has one line per split holding the 0-based indices of
 * its test instances; the training set is every other instance, in file order.
 * For each split, out.txt gets three lines: the tree parent of every attribute in
 * Weka's TAN network (-1 for none besides the class), the predicted class indices
 * of BayesNet with the TAN search and SimpleEstimator -A 0.5, and those of
 * VotedPerceptron with default options ("-" when the class is not binary).
 * Uses only Weka's public API. Written for calibsim.
 */
public class WekaTable7 {
  static Instances load(String path) throws Exception {
    BufferedReader r = new BufferedReader(new FileReader(path));
    Instances d = new Instances(r);
    r.close();
    d.setClassIndex(d.numAttributes() - 1);
    return d;
  }

  static String predictions(Classifier c, Instances test) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < test.numInstances(); i++) {
      double p = c.classifyInstance(test.instance(i));
      if (i > 0) sb.append(' ');
      sb.append(Instance.isMissingValue(p) ? -1 : (int) p);
    }
    return sb.toString();
  }

  public static void main(String[] args) throws Exception {
    BufferedReader list = new BufferedReader(new FileReader(args[0]));
    String line;
    while ((line = list.readLine()) != null) {
      String[] p = line.trim().split("\\s+");
      Instances data = load(p[0]);
      BufferedReader folds = new BufferedReader(new FileReader(p[1]));
      PrintWriter out = new PrintWriter(new FileWriter(p[2]));
      String f;
      while ((f = folds.readLine()) != null) {
        String[] idx = f.trim().split("\\s+");
        boolean[] isTest = new boolean[data.numInstances()];
        Instances train = new Instances(data, 0), test = new Instances(data, 0);
        for (String s : idx) isTest[Integer.parseInt(s)] = true;
        for (String s : idx) test.add(data.instance(Integer.parseInt(s)));
        for (int i = 0; i < data.numInstances(); i++) {
          if (!isTest[i]) train.add(data.instance(i));
        }
        BayesNet tan = new BayesNet();
        tan.setSearchAlgorithm(new TAN());            // default score: BAYES
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
        out.println(predictions(tan, test));
        if (data.numClasses() == 2) {
          VotedPerceptron vp = new VotedPerceptron();
          vp.buildClassifier(train);
          out.println(predictions(vp, test));
        } else {
          out.println("-");
        }
      }
      folds.close();
      out.close();
    }
    list.close();
  }
}
