package dev.phoneagent.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.phoneagent.helper.core.HttpLimits;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.annotation.Config;

/**
 * The conformance suite (`npm run conformance`, helper/conformance) against the helper's HTTP server
 * serving from inside Robolectric: HelperService and AndroidDevice over real widgets (ConformanceWorld),
 * the helper keyboard on, the same checks as against the virtual phone and the scripted JVM tree.
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {26, 30, 34})
public class ConformanceTest {
  /** Short HTTP deadlines, announced in hello.limits, keep the hostile timeout checks quick. */
  static final HttpLimits LIMITS = new HttpLimits(HttpLimits.DEFAULTS.maxBodyBytes, 400, 800);
  static final long SUITE_MS = 15 * 60_000;

  RoboSystem sys;
  HelperService service;

  @Before
  public void boot() throws Exception {
    sys = RoboSystem.boot();
    ConformanceWorld.install(sys);
    sys.keyboard.start();
    service = sys.connectHelper(LIMITS);
    sys.settle();
  }

  @After
  public void shutdown() {
    sys.shutdown();
  }

  @Test
  public void theWholeSuitePasses() throws Exception {
    String repo = System.getProperty("phoneagent.repo");
    List<String> argv = new ArrayList<String>(Arrays.asList(
        new File(repo, "node_modules/.bin/tsx").getPath(), "helper/conformance/cli.ts", "--url", "http://127.0.0.1:" + service.port(),
        "--token", sys.token()));
    final Process p = new ProcessBuilder(argv).directory(new File(repo)).redirectErrorStream(true).start();
    final List<String> lines = java.util.Collections.synchronizedList(new ArrayList<String>());
    Thread reader = new Thread(new Runnable() {
      @Override
      public void run() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
          for (String l; (l = r.readLine()) != null; ) {
            lines.add(l);
            System.out.println("  [sdk " + android.os.Build.VERSION.SDK_INT + "] " + l);
          }
        } catch (java.io.IOException e) {
          lines.add("reading the suite's output failed: " + e);
        }
      }
    }, "conformance-output");
    reader.start();
    try {
      sys.serve(new Callable<Boolean>() {
        @Override
        public Boolean call() {
          return !p.isAlive();
        }
      }, SUITE_MS);
    } finally {
      p.destroy();
    }
    reader.join(10_000);
    List<String> failed = new ArrayList<String>();
    for (String l : new ArrayList<String>(lines)) if (l.startsWith("FAIL")) failed.add(l);
    assertTrue(String.join("\n", failed), failed.isEmpty());
    boolean summary = false;
    for (String l : new ArrayList<String>(lines)) summary |= l.matches("\\d+/\\d+ checks passed");
    assertTrue("the suite printed no summary:\n" + String.join("\n", lines), summary);
    assertEquals(0, p.exitValue());
  }
}
