package dev.phoneagent.helper.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Selector resolution, occlusion and identity tokens (PROTOCOL.md §7): every given field matches
 * exactly, across the windows an agent may target, and must name exactly one visible node.
 */
public final class Selectors {
  private Selectors() {}

  /** A resolved node, or the error code and message of a receipt. */
  public static final class Resolved {
    public final Node node;
    public final Win window;
    public final String code, message;

    Resolved(Node node, Win window, String code, String message) {
      this.node = node;
      this.window = window;
      this.code = code;
      this.message = message;
    }

    public boolean ok() {
      return node != null;
    }
  }

  static String str(Map<String, Object> s, String k) {
    Object v = s.get(k);
    return v instanceof String ? (String) v : null;
  }

  public static boolean matches(Node n, Map<String, Object> s) {
    String v;
    if ((v = str(s, "resource_id")) != null && !n.resourceId.equals(v)) return false;
    if ((v = str(s, "text")) != null && !n.visibleText().equals(v)) return false;
    if ((v = str(s, "content_desc")) != null && !n.desc.equals(v)) return false;
    if ((v = str(s, "class_name")) != null && !(v.indexOf('.') >= 0 ? n.className.equals(v) : n.shortClass().equals(v)))
      return false;
    if ((v = str(s, "package_name")) != null && !n.pkg.equals(v)) return false;
    @SuppressWarnings("unchecked")
    Map<String, Object> b = (Map<String, Object>) s.get("bounds");
    if (b != null) {
      Rect r = new Rect(i(b, "left"), i(b, "top"), i(b, "right"), i(b, "bottom"));
      if (!r.equals(n.bounds)) return false;
    }
    return true;
  }

  static int i(Map<String, Object> m, String k) {
    return ((Number) m.get(k)).intValue();
  }

  public static Resolved resolve(Tree t, Map<String, Object> s) {
    return resolve(t, s, "exact");
  }

  /** As resolve, with scroll_to's target_match: "title" matches text and description by title (Titles). */
  public static Resolved resolve(Tree t, Map<String, Object> s, String match) {
    if (t.nodes.isEmpty())
      return new Resolved(null, null, "READ_FAILED", "the tree read returned no nodes; re-observe and retry");
    if (!t.windowsComplete || t.windows.isEmpty())
      return new Resolved(null, null, "UNAVAILABLE", "window information is incomplete; re-observe and retry");
    List<Node> hits = Titles.hits(targetable(t), s, match);
    if (hits.isEmpty()) return new Resolved(null, null, "NOT_FOUND", "no visible node matches " + Json.write(s) + "; re-observe");
    if (hits.size() > 1)
      return new Resolved(
          null, null, "AMBIGUOUS",
          hits.size() + " nodes match " + Json.write(s) + "; add resource_id, text, class_name or bounds to make it unique");
    Node n = hits.get(0);
    return new Resolved(n, t.window(n.window), null, null);
  }

  /** The visible nodes of targetable windows that match every field of the selector. */
  static List<Node> hits(Tree t, Map<String, Object> s) {
    return Titles.hits(targetable(t), s, "exact");
  }

  /** The visible nodes of the windows an agent may target. */
  static List<Node> targetable(Tree t) {
    List<Node> out = new ArrayList<Node>();
    for (Node n : t.nodes) {
      Win w = t.window(n.window);
      if (w != null && w.targetable(t.foregroundPackage) && n.visible) out.add(n);
    }
    return out;
  }

  /** The parts of a node still visible: clipped to its window and the screen, minus higher touchable windows. */
  public static List<Rect> visibleParts(Tree t, Node n, Win w, int width, int height) {
    List<Rect> parts = new ArrayList<Rect>();
    Rect base = n.bounds.intersect(w.bounds).intersect(new Rect(0, 0, width, height));
    if (base.isEmpty()) return parts;
    parts.add(base);
    List<Rect> holes = new ArrayList<Rect>();
    for (Win o : t.windows) {
      if (o.id == w.id || o.layer <= w.layer || !o.touchable) continue;
      holes.add(o.type.equals("input_method") && t.keyboardBounds != null ? t.keyboardBounds : o.bounds);
    }
    return Rect.subtract(parts, holes);
  }

  /** The identity token: first 16 hex digits of SHA-256 over class, id, package, description, text, bounds. */
  public static String token(Node n) {
    Rect b = n.bounds;
    String key =
        n.className + "\u0001" + n.resourceId + "\u0001" + n.pkg + "\u0001" + n.desc + "\u0001" + n.visibleText()
            + "\u0001" + b.left + "," + b.top + "," + b.right + "," + b.bottom;
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      StringBuilder s = new StringBuilder();
      for (int k = 0; k < 8; k++) s.append(String.format("%02x", h[k] & 0xff));
      return s.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** NodeState of a receipt's before/after. */
  public static Map<String, Object> state(Tree t, Node n) {
    Map<String, Object> m =
        Json.obj(
            "node_id", n.id, "seq", t.seq, "token", token(n), "class_name", n.className, "text", n.visibleText(),
            "bounds", n.bounds.toJson(), "enabled", n.enabled, "checked", n.checked, "selected", n.selected,
            "focused", n.focused);
    m.put("range", n.rangeJson());
    m.put("selection", n.selectionJson());
    return m;
  }

  /** ControlInfo of read_control. */
  public static Map<String, Object> control(Tree t, Node n, Win w, int width, int height) {
    Map<String, Object> m =
        Json.obj(
            "node_id", n.id, "seq", t.seq, "window", w.id, "class_name", n.className, "package_name", n.pkg,
            "resource_id", n.resourceId, "text", n.visibleText(), "content_desc", n.desc);
    if (n.hint != null) m.put("hint", n.hint);
    m.put("bounds", n.bounds.toJson());
    m.put("visible_area", Rect.area(visibleParts(t, n, w, width, height)));
    m.put(
        "flags",
        Json.obj(
            "clickable", n.clickable, "long_clickable", n.longClickable, "editable", n.editable, "scrollable",
            n.scrollable, "checkable", n.checkable, "checked", n.checked, "enabled", n.enabled, "focused", n.focused,
            "selected", n.selected, "password", n.password));
    m.put("range", n.rangeJson());
    m.put("selection", n.selectionJson());
    m.put("actions", new ArrayList<Object>(n.actions));
    m.put("token", token(n));
    return m;
  }
}
