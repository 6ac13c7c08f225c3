package dev.phoneagent.helper;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Result;
import org.junit.runner.manipulation.Filter;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;

/**
 * Runs the Robolectric test classes named on the command line (`Class`, or `Class#method` for one
 * test at every SDK it is configured for) with JUnit 4 in this one JVM, and closes with
 * `robolectric: N passed, N failed` (exit 1 on any failure, or when no test ran).
 */
public final class RoboMain {
  private RoboMain() {}

  public static void main(String[] args) throws Exception {
    final Map<Class<?>, Set<String>> only = new LinkedHashMap<Class<?>, Set<String>>();
    for (String a : args) {
      int hash = a.indexOf('#');
      Class<?> k = Class.forName(hash < 0 ? a : a.substring(0, hash));
      if (!only.containsKey(k)) only.put(k, new LinkedHashSet<String>());
      if (hash >= 0) only.get(k).add(a.substring(hash + 1));
    }
    Request request = Request.classes(only.keySet().toArray(new Class<?>[0])).filterWith(new Filter() {
      @Override
      public boolean shouldRun(Description d) {
        if (d.getMethodName() == null) return true;
        Set<String> names = only.get(d.getTestClass());
        if (names == null || names.isEmpty()) return true;
        // Robolectric names a test per SDK: "name[26]", …, and the last SDK plain "name".
        String m = d.getMethodName();
        int bracket = m.indexOf('[');
        return names.contains(bracket < 0 ? m : m.substring(0, bracket));
      }

      @Override
      public String describe() {
        return "the named test methods";
      }
    });
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
    Result r = core.run(request);
    int failed = r.getFailureCount();
    int passed = r.getRunCount() - failed;
    System.out.println("robolectric: " + passed + " passed, " + failed + " failed");
    System.exit(failed == 0 && r.getRunCount() > 0 && r.getIgnoreCount() == 0 ? 0 : 1);
  }
}
