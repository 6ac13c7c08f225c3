package dev.phoneagent.helper.core;

import java.util.Map;

/**
 * Guarded touches (PROTOCOL.md §7, capability guarded_touch): the touch carries the target it was
 * aimed at, and the helper checks it right before injecting — the same rule as the client's own
 * re-check (src/device/protocol/guard.ts): a visible node of the same identity (class, resource id,
 * text and description with digits stripped; an edit field by its hint) nearest to where it was,
 * moved at most 20 px, enabled, the touch point inside it and on no higher touchable window.
 * Anything else: STALE or OCCLUDED, and nothing is touched.
 */
public final class Guards {
  private Guards() {}

  public static final int MAX_MOVE_PX = 20;

  static String str(Map<String, Object> g, String k) {
    Object v = g.get(k);
    return v instanceof String ? (String) v : "";
  }

  static String strip(String s) {
    return s.replaceAll("[0-9]+", "#");
  }

  static boolean editable(Map<String, Object> g) {
    return Boolean.TRUE.equals(g.get("editable"));
  }

  @SuppressWarnings("unchecked")
  static Rect bounds(Map<String, Object> g) {
    Map<String, Object> b = (Map<String, Object>) g.get("bounds");
    return new Rect(Selectors.i(b, "left"), Selectors.i(b, "top"), Selectors.i(b, "right"), Selectors.i(b, "bottom"));
  }

  public static boolean sameIdentity(Node n, Map<String, Object> g) {
    String hint = n.hint == null ? "" : n.hint;
    boolean sameText =
        editable(g) ? n.editable && hint.equals(str(g, "hint")) : strip(n.visibleText()).equals(strip(str(g, "text")));
    return n.className.equals(str(g, "class_name")) && n.resourceId.equals(str(g, "resource_id")) && sameText
        && strip(n.desc).equals(strip(str(g, "desc")));
  }

  static double dist(Rect a, Rect b) {
    double dx = (a.left + a.right) / 2.0 - (b.left + b.right) / 2.0;
    double dy = (a.top + a.bottom) / 2.0 - (b.top + b.bottom) / 2.0;
    return Math.sqrt(dx * dx + dy * dy);
  }

  static Node find(Tree t, Map<String, Object> g) {
    Rect was = bounds(g);
    Node best = null;
    double bestD = Double.POSITIVE_INFINITY;
    for (Node n : t.nodes) {
      if (!n.visible || !sameIdentity(n, g)) continue;
      double d = dist(n.bounds, was);
      if (d < bestD) {
        best = n;
        bestD = d;
      }
    }
    return best;
  }

  static String label(Map<String, Object> g) {
    for (String k : new String[] {"text", "desc", "hint", "resource_id"}) if (!str(g, k).isEmpty()) return str(g, k);
    String c = str(g, "class_name");
    return c.substring(c.lastIndexOf('.') + 1);
  }

  /**
   * The tree the check runs on: Android's own query for the target (by view id: every node with that
   * id; by text or description: not complete, so it counts only when it found the identity), else
   * the whole tree. Null when nothing could be read.
   */
  static Tree candidates(Device d, Map<String, Object> g) {
    try {
      String id = str(g, "resource_id");
      String text = editable(g) ? "" : str(g, "text");
      if (text.isEmpty()) text = str(g, "desc");
      if (!id.isEmpty()) {
        Tree t = d.lookup(id, null);
        if (t != null) return t;
      } else if (!text.isEmpty()) {
        Tree t = d.lookup(null, text);
        if (t != null && find(t, g) != null) return t;
      }
      return d.read();
    } catch (Device.ReadFailed e) {
      return null;
    }
  }

  /** null when the touch at (x, y) may go ahead; else {code, message}. */
  public static String[] check(Tree t, Map<String, Object> g, int x, int y) {
    String label = label(g);
    Node n = find(t, g);
    if (n == null) return new String[] {"STALE", "\"" + label + "\" is no longer on screen; re-read the page and decide again"};
    long moved = Math.round(dist(n.bounds, bounds(g)));
    if (moved > MAX_MOVE_PX)
      return new String[] {
        "STALE",
        "\"" + label + "\" moved " + moved + " px since the page was read (keyboard or layout change); re-read the page and decide again"
      };
    if (!n.enabled) return new String[] {"STALE", "\"" + label + "\" is disabled now; re-read the page"};
    Rect b = n.bounds;
    if (!(x >= b.left && x < b.right && y >= b.top && y < b.bottom))
      return new String[] {
        "STALE", "the touch point (" + x + "," + y + ") is no longer on \"" + label + "\"; re-read the page and decide again"
      };
    Win own = t.window(n.window);
    if (own != null)
      for (Win w : t.windows) {
        if (w.id == own.id || w.layer <= own.layer || !w.touchable) continue;
        Rect r = w.bounds;
        if ((x >= r.left && x < r.right && y >= r.top && y < r.bottom) || w.takesTouchesBelow(own))
          return new String[] {
            "OCCLUDED", "the touch point is covered by a " + w.type + " window \"" + w.title + "\"; close it or re-observe"
          };
      }
    return null;
  }
}
