package dev.phoneagent.helper.core;

import java.util.ArrayList;
import java.util.List;

/**
 * A main-based runner for the core's JVM tests (no test framework to fetch): every test is a
 * Runnable that throws on failure. Prints one line per failure and the closing line
 * "N passed, N failed"; exits 1 on any failure.
 */
public final class TestMain {
  private TestMain() {}

  interface Test {
    void run() throws Exception;
  }

  static final List<String> names = new ArrayList<String>();
  static final List<Test> tests = new ArrayList<Test>();

  static void test(String name, Test t) {
    names.add(name);
    tests.add(t);
  }

  static void check(boolean cond, String message) {
    if (!cond) throw new AssertionError(message);
  }

  static void eq(Object want, Object got, String what) {
    if (want == null ? got != null : !want.equals(got)) throw new AssertionError(what + ": want " + want + ", got " + got);
  }

  public static void main(String[] args) {
    CoreTests.register();
    EngineTests.register();
    HttpTests.register();
    TitleTests.register();
    int passed = 0, failed = 0;
    for (int i = 0; i < tests.size(); i++) {
      try {
        tests.get(i).run();
        passed++;
      } catch (Throwable e) {
        failed++;
        System.out.println("FAIL " + names.get(i) + ": " + e);
      }
    }
    System.out.println(passed + " passed, " + failed + " failed");
    System.exit(failed == 0 ? 0 : 1);
  }
}
