package dev.phoneagent.helper.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Coordinates → pixel strokes, and the screen-dependent checks that run before any input (PROTOCOL.md §7). */
public final class Geometry {

  final int width, height;

  Geometry(int width, int height) {
    this.width = width;
    this.height = height;
  }

  public static Geometry of(DeviceInfo i) {
    return new Geometry(i.width, i.height);
  }

  /** A normalized coordinate converts once: min(w−1, round(n/1000·w)). */
  public int[] px(double x, double y, String space) {
    if (!"normalized".equals(space)) return new int[] {(int) Math.round(x), (int) Math.round(y)};
    return new int[] {
      (int) Math.min(width - 1, Math.round(x / 1000 * width)), (int) Math.min(height - 1, Math.round(y / 1000 * height))
    };
  }

  boolean inside(int x, int y) {
    return x >= 0 && y >= 0 && x < width && y < height;
  }

  public int minSeparation() {
    return Math.max(8, (int) Math.round(0.02 * Math.min(width, height)));
  }

  static double d(Map<String, Object> m, String k) {
    return ((Number) m.get(k)).doubleValue();
  }

  /** The strokes of a gesture request (tap, long_press, swipe, touch_gesture, pinch). */
  @SuppressWarnings("unchecked")
  public List<Stroke> strokes(Map<String, Object> r) {
    String a = (String) r.get("action");
    String sp = (String) r.get("coord_space");
    List<Stroke> out = new ArrayList<Stroke>();
    if (a.equals("tap") || a.equals("long_press")) {
      int[] p = px(d(r, "x"), d(r, "y"), sp);
      out.add(new Stroke().add(p[0], p[1], 0).add(p[0], p[1], (int) d(r, "duration_ms")));
    } else if (a.equals("swipe")) {
      int[] p = px(d(r, "x1"), d(r, "y1"), sp);
      int[] q = px(d(r, "x2"), d(r, "y2"), sp);
      out.add(new Stroke().add(p[0], p[1], 0).add(q[0], q[1], (int) d(r, "duration_ms")));
    } else if (a.equals("touch_gesture")) {
      List<Object> frames = (List<Object>) r.get("frames");
      int fingers = ((List<Object>) ((Map<String, Object>) frames.get(0)).get("points")).size();
      for (int i = 0; i < fingers; i++) {
        Stroke s = new Stroke();
        for (Object fo : frames) {
          Map<String, Object> f = (Map<String, Object>) fo;
          Map<String, Object> pt = (Map<String, Object>) ((List<Object>) f.get("points")).get(i);
          int[] p = px(d(pt, "x"), d(pt, "y"), sp);
          s.add(p[0], p[1], (int) d(f, "at_ms"));
        }
        out.add(s);
      }
    } else if (a.equals("pinch")) {
      int[] c = px(d(r, "x"), d(r, "y"), sp);
      double unit = "normalized".equals(sp) ? Math.min(width, height) / 1000.0 : 1;
      int dur = (int) d(r, "duration_ms");
      int steps = Math.max(2, Math.min(32, (int) Math.ceil(dur / 50.0) + 1));
      Stroke s1 = new Stroke();
      Stroke s2 = new Stroke();
      for (int k = 0; k < steps; k++) {
        double f = k / (double) (steps - 1);
        double dist = (d(r, "start_distance") + (d(r, "end_distance") - d(r, "start_distance")) * f) * unit;
        double th = Math.toRadians(d(r, "angle_degrees") + d(r, "rotation_degrees") * f);
        double ox = Math.cos(th) * dist / 2;
        double oy = Math.sin(th) * dist / 2;
        int t = (int) Math.round(dur * f);
        s1.add((int) Math.round(c[0] + ox), (int) Math.round(c[1] + oy), t);
        s2.add((int) Math.round(c[0] - ox), (int) Math.round(c[1] - oy), t);
      }
      out.add(s1);
      out.add(s2);
    }
    return out;
  }

  /** Null when the request's geometry is valid, else the message of a 400. */
  @SuppressWarnings("unchecked")
  public String check(Map<String, Object> r) {
    String a = (String) r.get("action");
    if (a.equals("action_sequence")) {
      List<Object> ms = (List<Object>) r.get("actions");
      for (int i = 0; i < ms.size(); i++) {
        String m = check((Map<String, Object>) ms.get(i));
        if (m != null) return "actions[" + i + "]: " + m;
      }
      return null;
    }
    List<Stroke> strokes = strokes(r);
    for (int i = 0; i < strokes.size(); i++)
      for (int[] p : strokes.get(i).points)
        if (!inside(p[0], p[1]))
          return a + ": finger " + i + " at (" + p[0] + "," + p[1] + ") px is outside the " + width + "x" + height
              + " screen; nothing was dispatched";
    int sep = minSeparation();
    for (int i = 0; i < strokes.size(); i++)
      for (int j = i + 1; j < strokes.size(); j++) {
        List<int[]> pa = strokes.get(i).points;
        List<int[]> pb = strokes.get(j).points;
        for (int k = 0; k < pa.size() && k < pb.size(); k++) {
          int[] a0 = pa.get(k), b0 = pb.get(k);
          int[] a1 = k + 1 < pa.size() ? pa.get(k + 1) : a0;
          int[] b1 = k + 1 < pb.size() ? pb.get(k + 1) : b0;
          double dist = minSegmentDistance(a0, a1, b0, b1);
          if (dist < sep)
            return a + ": fingers " + i + " and " + j + " come within " + String.format("%.1f", dist) + " px of each other (minimum "
                + sep + " px) around " + a0[2] + " ms; touch points that merge or cross are rejected";
        }
      }
    return null;
  }

  /** Smallest distance between two fingers moving linearly at the same time from a0→a1 and b0→b1. */
  static double minSegmentDistance(int[] a0, int[] a1, int[] b0, int[] b1) {
    double dx0 = a0[0] - b0[0], dy0 = a0[1] - b0[1];
    double vx = (a1[0] - a0[0]) - (b1[0] - b0[0]);
    double vy = (a1[1] - a0[1]) - (b1[1] - b0[1]);
    double vv = vx * vx + vy * vy;
    double t = vv == 0 ? 0 : Math.min(1, Math.max(0, -(dx0 * vx + dy0 * vy) / vv));
    return Math.hypot(dx0 + vx * t, dy0 + vy * t);
  }
}
