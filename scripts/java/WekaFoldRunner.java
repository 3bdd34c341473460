import java.io.FileWriter;
import java.io.PrintWriter;

import weka.classifiers.bayes.NaiveBayes;
import weka.classifiers.trees.J48;
import weka.core.Instances;
import weka.core.Utils;

/**
 * Driver of scripts/weka_j48_check.py. Usage: java -cp weka.jar:DIR WekaFoldRunner JOBS C M.
 * For each line "train.arff test.arff out.txt" of JOBS: fit J48 (confidence C, minimum
 * instances per leaf M) and NaiveBayes on the training file; out.txt gets the tree's
 * "size leaves", then per test instance J48's class, the index of its largest probability,
 * the same two for NaiveBayes, and both learners' probability of class 0. Compiled with
 * WekaIO.java; uses only Weka's public API. Written for calibsim.
 */
public class WekaFoldRunner {
  public static void main(String[] args) throws Exception {
    WekaIO.eachLine(args[0], p -> {
      Instances train = WekaIO.load(p[0]);
      Instances test = WekaIO.load(p[1]);
      J48 tree = new J48();
      tree.setConfidenceFactor(Float.parseFloat(args[1]));
      tree.setMinNumObj(Integer.parseInt(args[2]));
      tree.buildClassifier(train);
      NaiveBayes nb = new NaiveBayes();
      nb.buildClassifier(train);
      PrintWriter out = new PrintWriter(new FileWriter(p[2]));
      out.println((int) tree.measureTreeSize() + " " + (int) tree.measureNumLeaves());
      for (int i = 0; i < test.numInstances(); i++) {
        double[] dj = tree.distributionForInstance(test.instance(i));
        double[] dn = nb.distributionForInstance(test.instance(i));
        out.println((int) tree.classifyInstance(test.instance(i)) + " " + Utils.maxIndex(dj) + " "
                    + (int) nb.classifyInstance(test.instance(i)) + " " + Utils.maxIndex(dn) + " "
                    + dj[0] + " " + dn[0]);
      }
      out.close();
    });
  }
}
