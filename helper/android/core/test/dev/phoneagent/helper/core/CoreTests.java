package dev.phoneagent.helper.core;

import static dev.phoneagent.helper.core.TestMain.check;
import static dev.phoneagent.helper.core.TestMain.eq;
import static dev.phoneagent.helper.core.TestMain.test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** JSON, geometry, occlusion, UTF-16, selectors, tokens, schemas, auth. */
final class CoreTests {
  private CoreTests() {}

  @SuppressWarnings("unchecked")
  static Map<String, Object> obj(String json) throws Exception {
    return (Map<String, Object>) Json.parse(json);
  }

  static String invalid(String json) throws Exception {
    try {
      Requests.parse(Json.parse(json));
    } catch (Requests.Invalid e) {
      return e.getMessage();
    }
    throw new AssertionError("accepted: " + json);
  }

  static Node node(String cls, String text, Rect b) {
    Node n = new Node();
    n.className = cls;
    n.text = text;
    n.bounds = b;
    n.window = 1;
    return n;
  }

  static Tree tree(Node... nodes) {
    Tree t = new Tree();
    t.foregroundPackage = "app";
    Win w = new Win();
    w.id = 1;
    w.pkg = "app";
    w.layer = 1;
    w.bounds = new Rect(0, 0, 1000, 2000);
    t.windows.add(w);
    for (Node n : nodes) {
      n.id = t.nodes.size();
      n.pkg = "app";
      t.nodes.add(n);
    }
    return t;
  }

  static void register() {
    test("json: round trip of Unicode, escapes, numbers, nesting", new TestMain.Test() {
      public void run() throws Exception {
        String s = "{\"a\":\"A😀B中文\\n\\\"q\\\"\",\"n\":-12,\"d\":1.5,\"l\":[true,false,null],\"o\":{}}";
        Map<String, Object> m = obj(s);
        eq("A😀B中文\n\"q\"", m.get("a"), "string");
        eq(-12L, m.get("n"), "integer");
        eq(1.5, m.get("d"), "double");
        eq(Json.parse(Json.write(m)).toString(), m.toString(), "round trip");
        eq("\"\\u0001\"", Json.write("\u0001"), "control characters are escaped");
      }
    });
    test("json: malformed input is an error naming the offset", new TestMain.Test() {
      public void run() {
        for (String bad : Arrays.asList("{\"action\": \"tap\", ", "{not json", "[1,]", "\"open", "{} x")) {
          try {
            Json.parse(bad);
            throw new AssertionError("accepted " + bad);
          } catch (Json.ParseError e) {
            check(e.getMessage().contains("offset"), e.getMessage());
          }
        }
      }
    });
    test("rect: subtraction leaves the uncovered area", new TestMain.Test() {
      public void run() {
        Rect r = new Rect(0, 0, 100, 100);
        eq(10000L - 2500L, Rect.area(r.minus(new Rect(50, 50, 150, 150))), "corner cut");
        eq(0L, Rect.area(r.minus(new Rect(-1, -1, 101, 101))), "fully covered");
        eq(10000L, Rect.area(r.minus(new Rect(200, 200, 300, 300))), "disjoint");
        eq(10000L - 2000L, Rect.area(Rect.subtract(r.minus(new Rect(0, 0, 100, 10)), Arrays.asList(new Rect(0, 90, 100, 100)))), "two bars");
      }
    });
    test("occlusion: a higher touchable window hides the node; the keyboard's bounds count", new TestMain.Test() {
      public void run() {
        Node n = node("android.widget.EditText", "x", new Rect(0, 1500, 1000, 1700));
        Tree t = tree(n);
        Win kb = new Win();
        kb.id = 2;
        kb.type = "input_method";
        kb.layer = 5;
        kb.bounds = new Rect(0, 0, 1000, 2000); // the window is bigger than the keys
        t.windows.add(kb);
        t.keyboardBounds = new Rect(0, 1400, 1000, 2000);
        eq(0L, Rect.area(Selectors.visibleParts(t, n, t.window(1), 1000, 2000)), "behind the keyboard");
        t.keyboardBounds = new Rect(0, 1600, 1000, 2000);
        eq(100000L, Rect.area(Selectors.visibleParts(t, n, t.window(1), 1000, 2000)), "half visible");
        kb.touchable = false;
        eq(200000L, Rect.area(Selectors.visibleParts(t, n, t.window(1), 1000, 2000)), "untouchable windows do not cover");
        Node off = node("android.view.View", "off", new Rect(0, 2100, 100, 2200));
        eq(0L, Rect.area(Selectors.visibleParts(t, off, t.window(1), 1000, 2000)), "off screen");
      }
    });
    test("guards: a dialog takes a touch outside its bounds on the app below; a toast-like overlay does not", new TestMain.Test() {
      public void run() throws Exception {
        Node n = node("android.widget.Button", "Delete", new Rect(40, 1800, 960, 1900));
        Tree t = tree(n);
        Map<String, Object> g = obj("{\"class_name\":\"android.widget.Button\",\"resource_id\":\"\",\"text\":\"Delete\",\"desc\":\"\","
            + "\"editable\":false,\"bounds\":{\"left\":40,\"top\":1800,\"right\":960,\"bottom\":1900}}");
        check(Guards.check(t, g, 500, 1850) == null, "nothing above: the touch may go");
        Win dialog = new Win();
        dialog.id = 2;
        dialog.type = "dialog";
        dialog.layer = 2;
        dialog.title = "Enjoying the app?";
        dialog.bounds = new Rect(100, 800, 900, 1200); // the touch point is outside it
        t.windows.add(dialog);
        String[] r = Guards.check(t, g, 500, 1850);
        eq("OCCLUDED", r == null ? null : r[0], "the dialog takes it");
        dialog.type = "overlay";
        check(Guards.check(t, g, 500, 1850) == null, "an overlay beside the point does not");
      }
    });
    test("utf16: a selection cannot split a surrogate pair", new TestMain.Test() {
      public void run() {
        String s = "A😀B中文";
        eq(6, s.length(), "UTF-16 length");
        check(Utf16.checkRange(s, 1, 3) == null, "emoji [1,3] is whole");
        check(Utf16.checkRange(s, 2, 2) != null, "2 splits the emoji");
        check(Utf16.checkRange(s, 0, 7) != null, "beyond the text");
        check(Utf16.checkRange(s, 3, 1) != null, "end before start");
        eq("AxB中文", Utf16.replace(s, 1, 3, "x"), "replace the emoji");
      }
    });
    test("selectors: exact AND match, short class names, bounds, visible only", new TestMain.Test() {
      public void run() throws Exception {
        Node a = node("android.widget.Button", "OK", new Rect(0, 0, 10, 10));
        Node b = node("android.widget.Button", "Cancel", new Rect(0, 10, 10, 20));
        Node hidden = node("android.widget.Button", "OK", new Rect(0, 20, 10, 30));
        hidden.visible = false;
        Tree t = tree(a, b, hidden);
        eq(0, Selectors.resolve(t, obj("{\"text\":\"OK\"}")).node.id, "text");
        eq("AMBIGUOUS", Selectors.resolve(t, obj("{\"class_name\":\"Button\"}")).code, "short class");
        eq("NOT_FOUND", Selectors.resolve(t, obj("{\"text\":\"ok\"}")).code, "case sensitive");
        eq(1, Selectors.resolve(t, obj("{\"class_name\":\"android.widget.Button\",\"bounds\":{\"left\":0,\"top\":10,\"right\":10,\"bottom\":20}}")).node.id, "bounds");
        t.windowsComplete = false;
        eq("UNAVAILABLE", Selectors.resolve(t, obj("{\"text\":\"OK\"}")).code, "incomplete windows are never 'gone'");
      }
    });
    test("selectors: the keyboard, bars and background apps are never targets", new TestMain.Test() {
      public void run() throws Exception {
        Node key = node("android.widget.Button", "Enter", new Rect(0, 0, 10, 10));
        Tree t = tree(key);
        Win kb = new Win();
        kb.id = 2;
        kb.type = "input_method";
        t.windows.add(kb);
        key.window = 2;
        eq("NOT_FOUND", Selectors.resolve(t, obj("{\"text\":\"Enter\"}")).code, "keyboard key");
        key.window = 1;
        t.window(1).pkg = "other";
        t.foregroundPackage = "app";
        eq("NOT_FOUND", Selectors.resolve(t, obj("{\"text\":\"Enter\"}")).code, "background app");
      }
    });
    test("tokens: change with text and bounds, hide passwords", new TestMain.Test() {
      public void run() {
        Node n = node("android.widget.EditText", "one", new Rect(0, 0, 10, 10));
        String t1 = Selectors.token(n);
        eq(16, t1.length(), "16 hex digits");
        n.text = "two";
        check(!t1.equals(Selectors.token(n)), "text changes the token");
        String t2 = Selectors.token(n);
        n.bounds = new Rect(0, 1, 10, 11);
        check(!t2.equals(Selectors.token(n)), "bounds change the token");
        n.password = true;
        String p1 = Selectors.token(n);
        n.text = "secret";
        eq(p1, Selectors.token(n), "a password's text never enters the token");
        eq("", n.toJson().get("text"), "a password's text is never exposed");
      }
    });
    test("schemas: a wrong type names the field; unknown keys are refused", new TestMain.Test() {
      public void run() throws Exception {
        check(invalid("{\"action\":\"tap\",\"x\":\"left\",\"y\":10}").startsWith("x:"), "names x");
        check(invalid("{\"action\":\"key\",\"key\":\"home\",\"bogus\":1}").contains("bogus"), "unknown key");
        check(invalid("{\"action\":\"teleport\"}").contains("action_sequence"), "lists every action");
        check(invalid("{\"action\":\"key\",\"key\":\"home\",\"op_id\":\"has space\"}").contains("op_id"), "op_id rule");
        check(invalid("{\"action\":\"read_control\",\"selector\":{\"package_name\":\"p\"}}").contains("package and bounds alone"), "package-only selector");
        check(invalid("{\"action\":\"tap\",\"x\":1001,\"y\":1}").contains("0..1000"), "normalized range");
        check(invalid("{\"action\":\"tap\",\"x\":1,\"y\":1,\"duration_ms\":500}").contains("duration_ms"), "tap duration");
        check(invalid("{\"action\":\"launch_app\"}").contains("package or label"), "launch_app needs one");
        check(invalid("{\"action\":\"control_action\",\"request\":{\"selector\":{\"text\":\"a\"},\"action\":\"set_selection\",\"start\":3,\"end\":1}}").contains("end must be"), "end ≥ start");
        check(invalid("{\"action\":\"wait_until\",\"condition\":\"appears\"}").contains("needs a selector"), "wait needs selector");
      }
    });
    test("schemas: defaults are applied", new TestMain.Test() {
      public void run() throws Exception {
        Map<String, Object> r = Requests.parse(Json.parse("{\"action\":\"tap\",\"x\":500,\"y\":500}"));
        eq("normalized", r.get("coord_space"), "coord_space");
        eq(50.0, r.get("duration_ms"), "tap duration");
        Map<String, Object> s = Requests.parse(Json.parse("{\"action\":\"scroll_to\",\"container\":{\"text\":\"a\"},\"target\":{\"text\":\"b\"}}"));
        eq("forward", s.get("direction"), "direction");
        eq(10.0, s.get("max_scrolls"), "max_scrolls");
      }
    });
    test("schemas: sequences validate every member first and cap group waits", new TestMain.Test() {
      public void run() throws Exception {
        String wait = "{\"action\":\"wait_until\",\"condition\":\"appears\",\"selector\":{\"text\":\"a\"},\"timeout_ms\":5000}";
        check(invalid("{\"action\":\"action_sequence\",\"actions\":[" + wait + "]}").contains("actions.0.timeout_ms"), "group wait");
        check(invalid("{\"action\":\"action_sequence\",\"actions\":[{\"action\":\"tap\",\"x\":1,\"y\":1}]}").contains("sequence member"), "members");
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 9; i++) many.append(i == 0 ? "" : ",").append("{\"action\":\"wait_until\",\"condition\":\"stable\"}");
        check(invalid("{\"action\":\"action_sequence\",\"actions\":[" + many + "]}").contains("at most 8"), "burst limit");
      }
    });
    test("geometry: normalized → pixels, never one past the edge", new TestMain.Test() {
      public void run() {
        Geometry g = new Geometry(1080, 2400);
        int[] p = g.px(1000, 1000, "normalized");
        eq(1079, p[0], "x");
        eq(2399, p[1], "y");
        eq(540, g.px(500, 0, "normalized")[0], "centre");
        eq(22, g.minSeparation(), "2% of the short side");
      }
    });
    test("geometry: points outside, merging fingers are rejected; a pinch is two strokes", new TestMain.Test() {
      public void run() throws Exception {
        Geometry g = new Geometry(1080, 2400);
        check(g.check(Requests.parse(Json.parse("{\"action\":\"tap\",\"x\":1080,\"y\":5,\"coord_space\":\"pixel\"}"))) != null, "x = width is outside");
        String merge = "{\"action\":\"touch_gesture\",\"frames\":[{\"at_ms\":0,\"points\":[{\"x\":300,\"y\":500},{\"x\":700,\"y\":500}]},{\"at_ms\":200,\"points\":[{\"x\":500,\"y\":500},{\"x\":500,\"y\":500}]}]}";
        check(g.check(Requests.parse(Json.parse(merge))).contains("merge or cross"), "merge");
        String cross = "{\"action\":\"touch_gesture\",\"frames\":[{\"at_ms\":0,\"points\":[{\"x\":300,\"y\":500},{\"x\":700,\"y\":500}]},{\"at_ms\":200,\"points\":[{\"x\":700,\"y\":500},{\"x\":300,\"y\":500}]}]}";
        check(g.check(Requests.parse(Json.parse(cross))) != null, "fingers crossing mid-segment");
        Map<String, Object> pinch = Requests.parse(Json.parse("{\"action\":\"pinch\",\"x\":500,\"y\":500,\"start_distance\":200,\"end_distance\":400}"));
        check(g.check(pinch) == null, "a pinch in the middle is fine");
        List<Stroke> s = g.strokes(pinch);
        eq(2, s.size(), "two fingers");
        eq(500, s.get(0).endTime(), "default 500 ms");
        int[] a = s.get(0).points.get(s.get(0).points.size() - 1), b = s.get(1).points.get(s.get(1).points.size() - 1);
        eq(432.0, (double) Math.round(Math.hypot(a[0] - b[0], a[1] - b[1])), "end distance = 400‰ of the short side");
        check(g.check(Requests.parse(Json.parse("{\"action\":\"pinch\",\"x\":5,\"y\":500,\"start_distance\":100,\"end_distance\":900}"))) != null, "a pinch leaving the screen");
      }
    });
    test("capabilities follow the API level", new TestMain.Test() {
      public void run() {
        check(!DeviceInfo.capabilitiesFor(24, true).contains("touch_gesture"), "no continued strokes before 26");
        check(DeviceInfo.capabilitiesFor(26, true).contains("pinch"), "pinch from 26");
        check(!DeviceInfo.capabilitiesFor(29, true).contains("screenshot"), "no screenshot API before 30");
        check(DeviceInfo.capabilitiesFor(30, true).contains("screenshot_jpeg"), "screenshots from 30");
        check(!DeviceInfo.capabilitiesFor(34, false).contains("ime_commit"), "no ime_commit without the IME");
        check(DeviceInfo.capabilitiesFor(34, true).containsAll(Limits.ACTION_NAMES), "all actions on 34");
      }
    });
    test("auth: bearer parsing and comparison", new TestMain.Test() {
      public void run() {
        String t = Auth.newToken();
        eq(64, t.length(), "32 bytes hex");
        check(!t.equals(Auth.newToken()), "random per start");
        check(Auth.same(Auth.bearer("Bearer " + t), t), "bearer");
        check(!Auth.same(Auth.bearer("Bearer " + t + "x"), t), "wrong");
        check(!Auth.same(Auth.bearer(null), t), "missing");
        check(!Auth.same(Auth.bearer("Basic " + t), t), "other scheme");
      }
    });
  }
}
