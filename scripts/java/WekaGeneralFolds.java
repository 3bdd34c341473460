import java.io.FileWriter;
import java.io.PrintWriter;

import weka.classifiers.trees.J48;
import weka.core.Instances;

/**
 * Driver of scripts/weka_c45_general_check.py. Usage: java -cp weka.jar:DIR WekaGeneralFolds
 * JOBS. For each line "train.arff test.arff out.txt" of JOBS: fit J48 (default options);
 * out.txt gets the tree's "size leaves", then per test instance the predicted class and
 * the class distribution (Double.toString, exact). Compiled with WekaIO.java; uses only
 * Weka's public API. Written for calibsim.
 */
public class WekaGeneralFolds {
  public static void main(String[] args) throws Exception {
    WekaIO.eachLine(args[0], p -> {
      Instances train = WekaIO.load(p[0]);
      Instances test = WekaIO.load(p[1]);
      J48 tree = new J48();
      tree.buildClassifier(train);
      PrintWriter out = new PrintWriter(new FileWriter(p[2]));
      out.println((int) tree.measureTreeSize() + " " + (int) tree.measureNumLeaves());
      for (int i = 0; i < test.numInstances(); i++) {
        StringBuilder sb = new StringBuilder();
        sb.append((int) tree.classifyInstance(test.instance(i)));
        double[] d = tree.distributionForInstance(test.instance(i));
        for (int c = 0; c < d.length; c++) sb.append(" ").append(Double.toString(d[c]));
        out.println(sb.toString());
      }
      out.close();
    });
  }
}
