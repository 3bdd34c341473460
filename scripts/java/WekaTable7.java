import weka.classifiers.bayes.BayesNet;
import weka.classifiers.functions.VotedPerceptron;

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
 * Uses only Weka's public API. Compiled with WekaIO.java. Written for calibsim.
 */
public class WekaTable7 {
  public static void main(String[] args) throws Exception {
    WekaIO.eachSplit(args[0], (data, train, test, out) -> {
      BayesNet tan = WekaIO.tan(train);             // default score: BAYES
      out.println(WekaIO.tanParents(tan, data));
      out.println(WekaIO.predictions(tan, test));
      if (data.numClasses() == 2) {
        VotedPerceptron vp = new VotedPerceptron();
        vp.buildClassifier(train);
        out.println(WekaIO.predictions(vp, test));
      } else {
        out.println("-");
      }
    });
  }
}
