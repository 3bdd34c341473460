import weka.classifiers.bayes.NaiveBayes;
import weka.classifiers.lazy.IB1;
import weka.classifiers.trees.J48;

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
 * measureNumLeaves). Compiled with WekaIO.java. Written for calibsim.
 */
public class WekaOracle {
  public static void main(String[] args) throws Exception {
    WekaIO.eachSplit(args[0], (data, train, test, out) -> {
      NaiveBayes nb = new NaiveBayes();
      nb.buildClassifier(train);
      J48 tree = new J48();
      tree.buildClassifier(train);
      IB1 ib1 = new IB1();
      ib1.buildClassifier(train);
      out.println((int) tree.measureTreeSize() + " " + (int) tree.measureNumLeaves());
      out.println(WekaIO.predictions(nb, test));
      out.println(WekaIO.predictions(tree, test));
      out.println(WekaIO.predictions(ib1, test));
    });
  }
}
