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

  /** The SDK in a test's name, "name[26]" → "26" (a name without the marker: "?"). */
  static String sdkOf(String method) {
    int open = method == null ? -1 : method.lastIndexOf('[');
    return open < 0 || !method.endsWith("]") ? "?" : method.substring(open + 1, method.length() - 1);
  }

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
        // Robolectric names a test per SDK, "name[26]" (tools/robolectric.ts asks for the marker on every SDK).
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
    final Map<String, Long> classMs = new LinkedHashMap<String, Long>();
    final Map<String, Integer> perSdk = new java.util.TreeMap<String, Integer>();
    core.addListener(new RunListener() {
      private long started;

      @Override
      public void testStarted(Description d) {
        started = System.nanoTime();
      }

      @Override
      public void testFinished(Description d) {
        String k = d.getClassName().replace("dev.phoneagent.helper.", "");
        long ms = (System.nanoTime() - started) / 1_000_000;
        classMs.put(k, (classMs.containsKey(k) ? classMs.get(k) : 0L) + ms);
        String sdk = sdkOf(d.getMethodName());
        perSdk.put(sdk, (perSdk.containsKey(sdk) ? perSdk.get(sdk) : 0) + 1);
        System.out.println("  done " + k + "." + d.getMethodName() + " (" + ms + " ms)");
      }

      @Override
      public void testFailure(Failure f) {
        System.out.println("FAIL " + f.getTestHeader() + "\n" + f.getTrace());
      }
    });
    Result r = core.run(request);
    // Where the time goes (the per-SDK sandbox start-up falls to each SDK's first test).
    for (Map.Entry<String, Long> e : classMs.entrySet()) System.out.println("  time " + e.getKey() + ": " + e.getValue() / 1000 + " s");
    int failed = r.getFailureCount();
    int passed = r.getRunCount() - failed;
    StringBuilder sdks = new StringBuilder();
    for (Map.Entry<String, Integer> e : perSdk.entrySet()) sdks.append(sdks.length() == 0 ? "" : ", ").append("SDK ").append(e.getKey()).append(": ").append(e.getValue());
    System.out.println("robolectric: " + r.getRunCount() + " tests (" + sdks + ")");
    System.out.println("robolectric: " + passed + " passed, " + failed + " failed");
    System.exit(failed == 0 && r.getRunCount() > 0 && r.getIgnoreCount() == 0 ? 0 : 1);
  }
}
