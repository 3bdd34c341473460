import java.io.BufferedReader;
import java.io.FileReader;
import java.io.FileWriter;
import java.io.PrintWriter;

import weka.classifiers.Classifier;
import weka.classifiers.bayes.NaiveBayes;
import weka.classifiers.lazy.IB1;
import weka.classifiers.trees.J48;
import weka.core.Instance;
import weka.core.Instances;

/**
 * Weka's answers on splits fixed by calibsim (driver for scripts/weka_oracle.py).
 *
 * Usage: java -cp weka.jar:DIR WekaOracle JOBS
 * JOBS has one line per data set: "data.arff folds.txt out.txt". The class is the
 * last attribute. folds.txt has one line per split holding the 0-based indices of
 * its test instances; the training set is every other instance, in file order.
 * For each split, NaiveBayes, J48 and IB1 (default options) are built on the
 * training set and classify the test instances in the listed order; out.txt gets
 * four lines per split: "size leaves" of the J48 tree, then the predicted class
 * indices of NaiveBayes, J48 and IB1 (-1 for a missing prediction). Uses only
 * Weka's public API (buildClassifier, classifyInstance, measureTreeSize,
 * measureNumLeaves). Written for calibsim.
 */
public class WekaOracle {
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
        NaiveBayes nb = new NaiveBayes();
        nb.buildClassifier(train);
        J48 tree = new J48();
        tree.buildClassifier(train);
        IB1 ib1 = new IB1();
        ib1.buildClassifier(train);
        out.println((int) tree.measureTreeSize() + " " + (int) tree.measureNumLeaves());
        out.println(predictions(nb, test));
        out.println(predictions(tree, test));
        out.println(predictions(ib1, test));
      }
      folds.close();
      out.close();
    }
    list.close();
  }
}
