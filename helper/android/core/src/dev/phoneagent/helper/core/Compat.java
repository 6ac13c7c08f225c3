package dev.phoneagent.helper.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The plugin-compatible `POST /action` (PROTOCOL.md §8). Every input goes through the Engine, so
 * the one-input lock and receipts hold here too; answers are `{ok, payload}` / `{ok:false, summary}`.
 */
final class Compat {
  final Protocol p;
  /** read_screen's refs (index = ref − 1), valid until the next read_screen. */
  private List<Node> refs = new ArrayList<Node>();

  Compat(Protocol p) {
    this.p = p;
  }

  static HttpServer.Response answer(int status, boolean ok, String text) {
    return new HttpServer.Response(status, Json.write(ok ? Json.obj("ok", true, "payload", text) : Json.obj("ok", false, "summary", text)));
  }

  static final String SUPPORTED = "read_screen, tap_node, tap_point, long_press, type_text, press, press_back, launch_app, swipe, screenshot";

  /** Token, method and size, from the headers alone (PROTOCOL.md §2, §8); null to read the body. */
  HttpServer.Response refusal(String method, Map<String, String> headers, long contentLength) {
    if (!Auth.same(headers.get("x-android-bridge-token"), p.token))
      return answer(401, false, "missing or wrong x-android-bridge-token");
    if (!method.equals("POST")) return answer(405, false, "POST only");
    if (contentLength > p.limits.maxBodyBytes) return answer(413, false, "the body is over " + p.limits.maxBodyBytes + " bytes");
    return null;
  }

  HttpServer.Response handle(String method, Map<String, String> headers, byte[] body) {
    HttpServer.Response refused = refusal(method, headers, body == null ? Long.MAX_VALUE : body.length);
    if (refused != null) return refused;
    Map<String, Object> m;
    try {
      Object j = Json.parse(new String(body, StandardCharsets.UTF_8));
      if (!(j instanceof Map)) return answer(400, false, "the body must be a JSON object");
      @SuppressWarnings("unchecked")
      Map<String, Object> mm = (Map<String, Object>) j;
      m = mm;
    } catch (Json.ParseError e) {
      return answer(400, false, e.getMessage());
    }
    try {
      return run(m);
    } catch (Requests.Invalid e) {
      return answer(400, false, e.getMessage());
    }
  }

  static int intParam(Map<String, Object> m, String k, Integer dflt, int min, int max) throws Requests.Invalid {
    Object v = m.get(k);
    if (v == null && dflt != null) return dflt;
    if (!(v instanceof Number) || ((Number) v).doubleValue() != Math.rint(((Number) v).doubleValue()))
      throw new Requests.Invalid(k + ": expected an integer");
    int i = ((Number) v).intValue();
    if (i < min || i > max) throw new Requests.Invalid(k + ": expected " + min + ".." + max);
    return i;
  }

  static String strParam(Map<String, Object> m, String k) throws Requests.Invalid {
    Object v = m.get(k);
    if (!(v instanceof String)) throw new Requests.Invalid(k + ": expected a string");
    return (String) v;
  }

  HttpServer.Response run(Map<String, Object> m) throws Requests.Invalid {
    Object a = m.get("action");
    DeviceInfo info = p.device.info();
    if ("read_screen".equals(a)) return readScreen();
    if ("tap_node".equals(a)) return touchRef(intParam(m, "ref", null, 0, Integer.MAX_VALUE), 50, "tap");
    if ("tap_point".equals(a)) {
      int x = intParam(m, "x", null, 0, Integer.MAX_VALUE), y = intParam(m, "y", null, 0, Integer.MAX_VALUE);
      return input(Json.obj("action", "tap", "x", x, "y", y, "coord_space", "pixel"), "tapped (" + x + "," + y + ")");
    }
    if ("long_press".equals(a)) {
      int ms = intParam(m, "duration_ms", 700, 300, 2000);
      if (m.get("ref") != null) return touchRef(intParam(m, "ref", null, 0, Integer.MAX_VALUE), ms, "long_press");
      if (m.get("x") == null || m.get("y") == null) throw new Requests.Invalid("long_press needs ref, or x and y");
      int x = intParam(m, "x", null, 0, Integer.MAX_VALUE), y = intParam(m, "y", null, 0, Integer.MAX_VALUE);
      return input(Json.obj("action", "long_press", "x", x, "y", y, "coord_space", "pixel", "duration_ms", Math.max(500, ms)), "long-pressed (" + x + "," + y + ")");
    }
    if ("type_text".equals(a)) return input(Json.obj("action", "ime_commit", "text", strParam(m, "text")), "typed text");
    if ("press_back".equals(a)) return input(Json.obj("action", "key", "key", "back"), "pressed back");
    if ("press".equals(a)) {
      String k = strParam(m, "key");
      if (!k.equals("back") && !k.equals("home") && !k.equals("recents") && !k.equals("enter")) throw new Requests.Invalid("key: one of back|home|recents|enter");
      return input(Json.obj("action", "key", "key", k), "pressed " + k);
    }
    if ("launch_app".equals(a)) {
      String q = strParam(m, "query");
      String pkg = Engine.findLabel(p.device.launchables(), q);
      return input(Json.obj("action", "launch_app", "package", pkg != null ? pkg : q), "launched " + (pkg != null ? pkg : q));
    }
    if ("swipe".equals(a)) {
      String d = strParam(m, "direction");
      int w = info.width, h = info.height, cx = w / 2, cy = h / 2;
      int[] v;
      if (d.equals("up")) v = new int[] {cx, h * 3 / 4, cx, h / 4};
      else if (d.equals("down")) v = new int[] {cx, h / 4, cx, h * 3 / 4};
      else if (d.equals("left")) v = new int[] {w * 3 / 4, cy, w / 4, cy};
      else if (d.equals("right")) v = new int[] {w / 4, cy, w * 3 / 4, cy};
      else throw new Requests.Invalid("direction: one of up|down|left|right");
      return input(Json.obj("action", "swipe", "x1", v[0], "y1", v[1], "x2", v[2], "y2", v[3], "coord_space", "pixel", "duration_ms", 400), "swiped " + d);
    }
    if ("screenshot".equals(a)) {
      Device.Image img = p.device.screenshot("png", 1, 100);
      if (img == null) return answer(200, false, "this Android version has no screenshot API for accessibility services (API 30+)");
      return answer(200, true, Json.write(Json.obj("mediaType", "image/png", "width", img.width, "height", img.height, "base64", Base64.getEncoder().encodeToString(img.bytes))));
    }
    throw new Requests.Invalid("unknown action " + Json.write(a) + "; supported: " + SUPPORTED);
  }

  HttpServer.Response input(Map<String, Object> req, String summary) throws Requests.Invalid {
    Map<String, Object> r = p.engine.run(p.engine.validate(req));
    String status = (String) r.get("status");
    if (status.equals("completed") || status.equals("observed")) return answer(200, true, summary);
    @SuppressWarnings("unchecked")
    Map<String, Object> e = (Map<String, Object>) r.get("error");
    return answer(200, false, e != null ? e.get("code") + ": " + e.get("message") : status);
  }

  static boolean listed(Node n) {
    return !n.visibleText().isEmpty() || !n.desc.isEmpty() || n.clickable || n.longClickable || n.editable || n.scrollable || n.checkable;
  }

  static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  HttpServer.Response readScreen() {
    Tree t;
    try {
      t = p.device.read();
    } catch (Device.ReadFailed e) {
      return answer(200, false, "the screen could not be read; retry");
    }
    List<Node> list = new ArrayList<Node>();
    StringBuilder b = new StringBuilder();
    for (Node n : t.nodes) {
      Win w = t.window(n.window);
      if (w == null || !w.targetable(t.foregroundPackage) || !n.visible || !listed(n)) continue;
      list.add(n);
      StringBuilder flags = new StringBuilder();
      if (n.clickable) flags.append(" clickable");
      if (n.longClickable) flags.append(" long-clickable");
      if (n.editable) flags.append(" editable");
      if (n.scrollable) flags.append(" scrollable");
      if (n.checkable) flags.append(n.checked ? " checked" : " unchecked");
      if (n.focused) flags.append(" focused");
      if (n.selected) flags.append(" selected");
      if (n.password) flags.append(" password");
      if (!n.enabled) flags.append(" disabled");
      String text = !n.visibleText().isEmpty() ? n.visibleText() : n.desc;
      b.append('[').append(list.size()).append("] ").append(n.shortClass()).append(" \"").append(escape(text)).append('"')
          .append(flags).append(" @(").append(n.bounds.centerX()).append(',').append(n.bounds.centerY()).append(")\n");
    }
    refs = list;
    return answer(200, true, b.toString());
  }

  /** Touch the centre of the largest visible part of a ref's node, like a finger would. */
  HttpServer.Response touchRef(int ref, int ms, String action) throws Requests.Invalid {
    if (ref < 1 || ref > refs.size()) return answer(200, false, "ref " + ref + " is unknown; call read_screen first");
    Node old = refs.get(ref - 1);
    Tree t;
    try {
      t = p.device.read();
    } catch (Device.ReadFailed e) {
      return answer(200, false, "the screen could not be read; retry");
    }
    Node n = NativeActions.findAgain(t, old);
    Win w = n == null ? null : t.window(n.window);
    if (n == null || w == null) return answer(200, false, "ref " + ref + " is gone from the screen; call read_screen again");
    Rect best = null;
    for (Rect r : Selectors.visibleParts(t, n, w, p.device.info().width, p.device.info().height))
      if (best == null || r.area() > best.area()) best = r;
    if (best == null) return answer(200, false, "ref " + ref + " is fully covered; dismiss what covers it");
    Map<String, Object> req = Json.obj("action", action, "x", best.centerX(), "y", best.centerY(), "coord_space", "pixel");
    if (action.equals("long_press")) req.put("duration_ms", Math.max(500, ms));
    return input(req, action + " on [" + ref + "] " + n.shortClass());
  }
}
