package dev.phoneagent.helper.core;

import static dev.phoneagent.helper.core.TestMain.check;
import static dev.phoneagent.helper.core.TestMain.eq;
import static dev.phoneagent.helper.core.TestMain.test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * scroll_to's title match (Titles): the cases of helper/conformance/title-cases.json, the file the
 * TypeScript side runs too (test/device/scroll-target.test.ts), so the two rules cannot drift apart.
 */
final class TitleTests {
  private TitleTests() {}

  /** The shared cases, found from the repository root (where vitest and `npm run helper:jvm` run). */
  @SuppressWarnings("unchecked")
  static Map<String, Object> cases() throws Exception {
    Path p = Paths.get(System.getProperty("user.dir"), "helper", "conformance", "title-cases.json");
    if (!Files.exists(p)) throw new AssertionError("no " + p + ": run the tests from the repository root");
    return (Map<String, Object>) Json.parse(new String(Files.readAllBytes(p), StandardCharsets.UTF_8));
  }

  static void register() {
    test("titles: every case of title-cases.json, as the TypeScript side reads them", new TestMain.Test() {
      @SuppressWarnings("unchecked")
      public void run() throws Exception {
        Map<String, Object> c = cases();
        List<Object> titles = (List<Object>) c.get("titles");
        List<Object> matches = (List<Object>) c.get("matches");
        check(titles.size() > 5 && matches.size() > 5, "the cases file has cases");
        for (Object o : titles) {
          List<Object> t = (List<Object>) o;
          eq(t.get(1), Titles.titleOf((String) t.get(0)), "titleOf " + Json.write(t.get(0)));
        }
        for (Object o : matches) {
          List<Object> m = (List<Object>) o;
          eq(m.get(2), Titles.matches((String) m.get(0), (String) m.get(1)), "matches " + Json.write(m));
        }
      }
    });
    test("titles: an exact node wins; without one, the nodes that match by title; exact mode finds none", new TestMain.Test() {
      public void run() throws Exception {
        Node a = CoreTests.node("android.widget.TextView", "Bluetooth, pairing", new Rect(0, 0, 100, 50));
        Node b = CoreTests.node("android.widget.TextView", "Bluetooth", new Rect(0, 60, 100, 110));
        Map<String, Object> want = CoreTests.obj("{\"text\":\"Bluetooth\"}");
        eq(Arrays.asList(b), Titles.hits(Arrays.asList(a, b), want, "title"), "the exact node");
        eq(Arrays.asList(a), Titles.hits(Arrays.asList(a), want, "title"), "the titled node");
        eq(0, Titles.hits(Arrays.asList(a), want, "exact").size(), "exact: none");
        Map<String, Object> wrongClass = CoreTests.obj("{\"text\":\"Bluetooth\",\"class_name\":\"Button\"}");
        eq(0, Titles.hits(Arrays.asList(a), wrongClass, "title").size(), "other fields still match exactly");
        eq("Bluetooth, pairing", Titles.label(a), "the label is the node's text");
      }
    });
  }
}
