import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;

import weka.classifiers.bayes.NaiveBayes;
import weka.classifiers.trees.J48;
import weka.core.Instances;

/**
 * Times Weka's NaiveBayes + J48 (default options) in-process on given folds.
 *
 * Usage: java -cp weka.jar:. WekaFoldTiming LIST
 * LIST has one line per data set: "data.arff folds.txt"; folds.txt has one line per
 * split holding the 0-based indices of its test instances. The harness then reads
 * commands from standard input, one per line, so that a caller can interleave its
 * rounds with other timings: "warmup" fits and predicts every split once (for the JIT)
 * and prints "ok"; "time" does the same, timed, and prints "pairs seconds checksum";
 * "quit" ends. Compiled with scripts/java/WekaIO.java. Written for calibsim's
 * benchmark; it uses only Weka's public API.
 */
public class WekaFoldTiming {
  static long fitAll(ArrayList<Instances[]> splits) throws Exception {
    long checksum = 0;
    for (Instances[] s : splits) {
      NaiveBayes nb = new NaiveBayes();
      nb.buildClassifier(s[0]);
      J48 tree = new J48();
      tree.buildClassifier(s[0]);
      for (int i = 0; i < s[1].numInstances(); i++) {
        checksum += (long) nb.classifyInstance(s[1].instance(i));
        checksum += (long) tree.classifyInstance(s[1].instance(i));
      }
    }
    return checksum;
  }

  public static void main(String[] args) throws Exception {
    ArrayList<Instances[]> splits = new ArrayList<Instances[]>();
    WekaIO.eachLine(args[0], p -> splits.addAll(WekaIO.readSplits(WekaIO.load(p[0]), p[1])));
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    String cmd;
    while ((cmd = in.readLine()) != null) {
      cmd = cmd.trim();
      if (cmd.equals("warmup")) {
        fitAll(splits);
        System.out.println("ok");
      } else if (cmd.equals("time")) {
        long t0 = System.nanoTime();
        long checksum = fitAll(splits);
        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.println(splits.size() + " " + secs + " " + checksum);
      } else if (cmd.equals("quit")) {
        break;
      }
      System.out.flush();
    }
  }
}
