package dev.phoneagent.helper.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Request schemas of `POST /v3/action` (src/device/protocol/actions.ts in Java) and their refinements. */
public final class Requests {
  private Requests() {}

  public static final class Invalid extends Exception {
    public Invalid(String message) {
      super(message);
    }
  }

  static final String OP_ID_RULE = "op_id: 1–64 characters of A–Z a–z 0–9 . _ : -";

  static Schema opId() {
    return Schema.str().matching("[A-Za-z0-9._:-]{1,64}", OP_ID_RULE).opt();
  }

  static Schema coordSpace() {
    return new Schema.Enum("normalized", "pixel").def("normalized");
  }

  public static Schema.Obj selector() {
    Schema.Obj bounds =
        Schema.obj().f("left", Schema.num()).f("top", Schema.num()).f("right", Schema.num()).f("bottom", Schema.num());
    return Schema.obj()
        .f("resource_id", Schema.str().opt())
        .f("text", Schema.str().opt())
        .f("content_desc", Schema.str().opt())
        .f("class_name", Schema.str().opt())
        .f("package_name", Schema.str().opt())
        .f("bounds", bounds.opt());
  }

  static final String[] CONTROL_OPS = {
    "click", "long_click", "focus", "show_on_screen", "set_progress", "scroll_forward", "scroll_backward",
    "set_text", "set_selection", "replace_selection", "ime_enter"
  };
  static final String[] CONDITIONS = {
    "appears", "disappears", "enabled", "disabled", "checked", "unchecked", "selected", "text_equals",
    "value_equals", "stable"
  };

  /** The target of a guarded touch (PROTOCOL.md §7, src/device/protocol/guard.ts). */
  static Schema.Obj guard() {
    Schema.Obj bounds =
        Schema.obj().f("left", Schema.num()).f("top", Schema.num()).f("right", Schema.num()).f("bottom", Schema.num());
    return Schema.obj()
        .f("class_name", Schema.str().len(0, 512))
        .f("resource_id", Schema.str().len(0, 512))
        .f("text", Schema.str().len(0, 4096))
        .f("desc", Schema.str().len(0, 4096))
        .f("editable", new Schema.Bool())
        .f("hint", Schema.str().len(0, 4096).opt())
        .f("bounds", bounds);
  }

  static Schema.Obj base(String name) {
    return Schema.obj().f("action", new Schema.Enum(name)).f("op_id", opId());
  }

  static final Map<String, Schema.Obj> SCHEMAS = new HashMap<String, Schema.Obj>();

  static {
    SCHEMAS.put(
        "tap",
        base("tap").f("x", Schema.num()).f("y", Schema.num()).f("coord_space", coordSpace())
            .f("duration_ms", Schema.integer(1, 499).def(50.0)).f("guard", guard().opt()));
    SCHEMAS.put(
        "long_press",
        base("long_press").f("x", Schema.num()).f("y", Schema.num()).f("coord_space", coordSpace())
            .f("duration_ms", Schema.integer(500, 10_000).def(700.0)).f("guard", guard().opt()));
    SCHEMAS.put(
        "swipe",
        base("swipe").f("x1", Schema.num()).f("y1", Schema.num()).f("x2", Schema.num()).f("y2", Schema.num())
            .f("coord_space", coordSpace()).f("duration_ms", Schema.integer(10, 10_000).def(400.0))
            .f("guard", guard().opt()));
    Schema.Obj point = Schema.obj().f("x", Schema.num()).f("y", Schema.num());
    Schema.Obj frame =
        Schema.obj().f("at_ms", Schema.integer(0, Double.POSITIVE_INFINITY))
            .f("points", new Schema.Arr(point, 1, Limits.MAX_FINGERS));
    SCHEMAS.put(
        "touch_gesture",
        base("touch_gesture").f("coord_space", coordSpace())
            .f("frames", new Schema.Arr(frame, Limits.MIN_FRAMES, Limits.MAX_FRAMES)).f("guard", guard().opt()));
    SCHEMAS.put(
        "pinch",
        base("pinch").f("coord_space", coordSpace()).f("x", Schema.num()).f("y", Schema.num())
            .f("start_distance", Schema.num().positive()).f("end_distance", Schema.num().positive())
            .f("angle_degrees", Schema.num().range(-360, 360).def(0.0))
            .f("rotation_degrees", Schema.num().range(-360, 360).def(0.0))
            .f("duration_ms", Schema.integer(50, Limits.MAX_PINCH_MS).def(500.0)));
    SCHEMAS.put(
        "key",
        base("key").f("key", new Schema.Enum("back", "home", "recents", "enter", "delete", "search", "menu")));
    SCHEMAS.put(
        "set_text",
        base("set_text").f("selector", selector().opt()).f("text", Schema.str().len(0, Limits.MAX_TEXT_CHARS))
            .f("expected_token", Schema.str().opt()));
    SCHEMAS.put("ime_commit", base("ime_commit").f("text", Schema.str().len(0, Limits.MAX_TEXT_CHARS)));
    SCHEMAS.put(
        "launch_app",
        base("launch_app").f("package", Schema.str().len(1, 1000).opt()).f("label", Schema.str().len(1, 1000).opt())
            .f("activity", Schema.str().len(1, 1000).opt()));
    SCHEMAS.put("read_control", base("read_control").f("selector", selector()));
    Schema.Obj control =
        Schema.obj().f("selector", selector()).f("action", new Schema.Enum(CONTROL_OPS)).f("value", Schema.num().opt())
            .f("text", Schema.str().len(0, Limits.MAX_TEXT_CHARS).opt())
            .f("start", Schema.integer(0, Double.POSITIVE_INFINITY).opt())
            .f("end", Schema.integer(0, Double.POSITIVE_INFINITY).opt()).f("expected_token", Schema.str().opt());
    SCHEMAS.put("control_action", base("control_action").f("request", control));
    SCHEMAS.put(
        "wait_until",
        base("wait_until").f("condition", new Schema.Enum(CONDITIONS)).f("selector", selector().opt())
            .f("text", Schema.str().opt()).f("value", Schema.num().opt())
            .f("timeout_ms", Schema.integer(0, Limits.MAX_WAIT_MS).def(5000.0))
            .f("stable_ms", Schema.integer(0, Limits.MAX_WAIT_MS).opt()));
    SCHEMAS.put(
        "scroll_to",
        base("scroll_to").f("container", selector()).f("target", selector())
            .f("target_match", new Schema.Enum("exact", "title").def("exact"))
            .f("direction", new Schema.Enum("forward", "backward").def("forward"))
            .f("max_scrolls", Schema.integer(1, Limits.MAX_SCROLLS).def((double) Limits.DEFAULT_SCROLLS))
            .f("timeout_ms", Schema.integer(1, Limits.MAX_SCROLL_MS).def((double) Limits.DEFAULT_SCROLL_MS))
            .f("settle_ms", Schema.integer(0, 5000).def(300.0)));
    SCHEMAS.put(
        "action_sequence",
        base("action_sequence").f("actions", new Schema.Arr(new Member(), 1, Limits.MAX_BURST_ACTIONS)));
  }

  /** A sequence member: one of pinch, touch_gesture, wait_until, control_action, checked by its own schema. */
  static final class Member extends Schema {
    @Override
    @SuppressWarnings("unchecked")
    public Object check(Object v, String path, List<String> errs) {
      Object a = v instanceof Map ? ((Map<String, Object>) v).get("action") : null;
      if (!"pinch".equals(a) && !"touch_gesture".equals(a) && !"wait_until".equals(a) && !"control_action".equals(a)) {
        errs.add(path + ".action: a sequence member is one of pinch, touch_gesture, wait_until, control_action");
        return v;
      }
      Object out = SCHEMAS.get(a).check(v, path, errs);
      if (out instanceof Map) refine((Map<String, Object>) out, path + ".", errs);
      return out;
    }
  }

  /** Validate a body: the normalized request, or Invalid with every problem and its path. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> parse(Object body) throws Invalid {
    if (!(body instanceof Map)) throw new Invalid("the body must be a JSON object");
    Object name = ((Map<String, Object>) body).get("action");
    if (!(name instanceof String) || !SCHEMAS.containsKey(name))
      throw new Invalid(
          "unknown action " + Json.write(name) + "; supported actions: " + String.join(", ", Limits.ACTION_NAMES));
    List<String> errs = new ArrayList<String>();
    Map<String, Object> req = (Map<String, Object>) SCHEMAS.get(name).check(body, "", errs);
    if (errs.isEmpty()) refine(req, "", errs);
    if (!errs.isEmpty()) throw new Invalid(String.join("; ", errs));
    return req;
  }

  static double d(Map<String, Object> m, String k) {
    return ((Number) m.get(k)).doubleValue();
  }

  @SuppressWarnings("unchecked")
  static void refine(Map<String, Object> r, String p, List<String> errs) {
    String a = (String) r.get("action");
    String space = (String) r.get("coord_space");
    if (a.equals("tap") || a.equals("long_press") || a.equals("pinch")) space(errs, space, d(r, "x"), d(r, "y"), p + "point");
    if (a.equals("swipe")) {
      space(errs, space, d(r, "x1"), d(r, "y1"), p + "points.0");
      space(errs, space, d(r, "x2"), d(r, "y2"), p + "points.1");
    }
    if (a.equals("touch_gesture")) {
      List<Object> frames = (List<Object>) r.get("frames");
      int fingers = ((List<Object>) ((Map<String, Object>) frames.get(0)).get("points")).size();
      double prev = -1;
      for (int i = 0; i < frames.size(); i++) {
        Map<String, Object> f = (Map<String, Object>) frames.get(i);
        List<Object> pts = (List<Object>) f.get("points");
        double at = d(f, "at_ms");
        if (i == 0 && at != 0) errs.add(p + "frames.0.at_ms: the first frame must be at_ms 0");
        if (pts.size() != fingers)
          errs.add(p + "frames." + i + ".points: every frame needs the same number of fingers (" + fingers + "), frame " + i + " has " + pts.size());
        if (i > 0 && at <= prev) errs.add(p + "frames." + i + ".at_ms: at_ms must strictly increase");
        prev = at;
        for (int k = 0; k < pts.size(); k++) {
          Map<String, Object> pt = (Map<String, Object>) pts.get(k);
          space(errs, space, d(pt, "x"), d(pt, "y"), p + "frames." + i + ".points." + k);
        }
      }
      if (prev > Limits.MAX_GESTURE_MS) errs.add(p + "frames: a gesture lasts at most " + Limits.MAX_GESTURE_MS + " ms");
      if (r.get("guard") != null && fingers != 1)
        errs.add(p + "guard: a guard checks one finger: use it on one-finger gestures");
    }
    if (a.equals("launch_app") && r.get("package") == null && r.get("label") == null)
      errs.add(p + "(body): launch_app needs package or label");
    for (String k : new String[] {"selector", "container", "target"})
      if (r.get(k) != null) selectorRule((Map<String, Object>) r.get(k), p + k, errs);
    if (a.equals("control_action")) {
      Map<String, Object> q = (Map<String, Object>) r.get("request");
      selectorRule((Map<String, Object>) q.get("selector"), p + "request.selector", errs);
      String op = (String) q.get("action");
      if (op.equals("set_progress") && q.get("value") == null) errs.add(p + "request.value: set_progress needs value");
      if ((op.equals("set_text") || op.equals("replace_selection")) && q.get("text") == null)
        errs.add(p + "request.text: " + op + " needs text");
      if (op.equals("set_selection")) {
        if (q.get("start") == null) errs.add(p + "request.start: set_selection needs start");
        if (q.get("end") == null) errs.add(p + "request.end: set_selection needs end");
        if (q.get("start") != null && q.get("end") != null && d(q, "end") < d(q, "start"))
          errs.add(p + "request.end: end must be ≥ start");
      }
    }
    if (a.equals("wait_until")) {
      String c = (String) r.get("condition");
      if (!c.equals("stable") && r.get("selector") == null) errs.add(p + "selector: " + c + " needs a selector");
      if (c.equals("text_equals") && r.get("text") == null) errs.add(p + "text: text_equals needs text");
      if (c.equals("value_equals") && r.get("value") == null) errs.add(p + "value: value_equals needs value");
    }
    if (a.equals("action_sequence")) {
      List<Object> members = (List<Object>) r.get("actions");
      int text = 0;
      for (int i = 0; i < members.size(); i++) {
        Map<String, Object> m = (Map<String, Object>) members.get(i);
        if ("wait_until".equals(m.get("action")) && d(m, "timeout_ms") > Limits.MAX_GROUP_WAIT_MS)
          errs.add(p + "actions." + i + ".timeout_ms: a wait inside action_sequence lasts at most " + Limits.MAX_GROUP_WAIT_MS + " ms");
        Object t = "control_action".equals(m.get("action")) ? ((Map<String, Object>) m.get("request")).get("text") : m.get("text");
        if (t instanceof String) text += ((String) t).length();
      }
      if (text > Limits.MAX_SEQUENCE_TEXT_CHARS)
        errs.add(p + "actions: action_sequence carries at most " + Limits.MAX_SEQUENCE_TEXT_CHARS + " characters of text");
      if (Json.write(members).length() > Limits.MAX_SEQUENCE_PARAM_CHARS) errs.add(p + "actions: action_sequence parameters are too large");
    }
  }

  static void space(List<String> errs, String space, double x, double y, String path) {
    if ("normalized".equals(space) && (x < 0 || x > 1000 || y < 0 || y > 1000))
      errs.add(path + ": point (" + Schema.fmt(x) + "," + Schema.fmt(y) + ") is outside 0..1000");
    if ("pixel".equals(space) && (x < 0 || y < 0 || x != Math.rint(x) || y != Math.rint(y)))
      errs.add(path + ": pixel point (" + Schema.fmt(x) + "," + Schema.fmt(y) + ") must be integers ≥ 0");
  }

  static void selectorRule(Map<String, Object> s, String path, List<String> errs) {
    if (s.get("resource_id") == null && s.get("text") == null && s.get("content_desc") == null && s.get("class_name") == null)
      errs.add(path + ": a selector needs at least one of resource_id, text, content_desc, class_name (package and bounds alone are never a target)");
  }
}
