package dev.phoneagent.helper;

import java.util.ArrayList;
import java.util.List;
import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Result;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;

/**
 * Runs the Robolectric test classes named on the command line with JUnit 4 and closes with
 * `robolectric: N passed, N failed` (exit 1 on any failure, or when no test ran).
 */
public final class RoboMain {
  private RoboMain() {}

  public static void main(String[] args) throws Exception {
    List<Class<?>> classes = new ArrayList<Class<?>>();
    for (String a : args) classes.add(Class.forName(a));
    JUnitCore core = new JUnitCore();
    core.addListener(new RunListener() {
      @Override
      public void testFinished(Description d) {
        System.out.println("  done " + d.getClassName().replace("dev.phoneagent.helper.", "") + "." + d.getMethodName());
      }

      @Override
      public void testFailure(Failure f) {
        System.out.println("FAIL " + f.getTestHeader() + "\n" + f.getTrace());
      }
    });
    Result r = core.run(classes.toArray(new Class<?>[0]));
    int failed = r.getFailureCount();
    int passed = r.getRunCount() - failed;
    System.out.println("robolectric: " + passed + " passed, " + failed + " failed");
    System.exit(failed == 0 && r.getRunCount() > 0 && r.getIgnoreCount() == 0 ? 0 : 1);
  }
}
