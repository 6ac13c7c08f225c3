package dev.phoneagent.helper.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** An axis-aligned pixel rectangle [left, right) × [top, bottom), and rectangle-set arithmetic for occlusion. */
public final class Rect {
  public final int left, top, right, bottom;

  public Rect(int left, int top, int right, int bottom) {
    this.left = left;
    this.top = top;
    this.right = right;
    this.bottom = bottom;
  }

  public boolean isEmpty() {
    return right <= left || bottom <= top;
  }

  public long area() {
    return isEmpty() ? 0 : (long) (right - left) * (bottom - top);
  }

  public Rect intersect(Rect o) {
    return new Rect(Math.max(left, o.left), Math.max(top, o.top), Math.min(right, o.right), Math.min(bottom, o.bottom));
  }

  public boolean contains(Rect o) {
    return o.left >= left && o.top >= top && o.right <= right && o.bottom <= bottom;
  }

  public int centerX() {
    return (left + right) / 2;
  }

  public int centerY() {
    return (top + bottom) / 2;
  }

  /** This rectangle minus another: up to four disjoint pieces. */
  public List<Rect> minus(Rect o) {
    List<Rect> out = new ArrayList<Rect>();
    Rect x = intersect(o);
    if (x.isEmpty()) {
      if (!isEmpty()) out.add(this);
      return out;
    }
    add(out, new Rect(left, top, right, x.top));
    add(out, new Rect(left, x.bottom, right, bottom));
    add(out, new Rect(left, x.top, x.left, x.bottom));
    add(out, new Rect(x.right, x.top, right, x.bottom));
    return out;
  }

  private static void add(List<Rect> out, Rect r) {
    if (!r.isEmpty()) out.add(r);
  }

  /** Subtract every rectangle of `holes` from every piece of `pieces`. */
  public static List<Rect> subtract(List<Rect> pieces, List<Rect> holes) {
    List<Rect> cur = pieces;
    for (Rect h : holes) {
      List<Rect> next = new ArrayList<Rect>();
      for (Rect p : cur) next.addAll(p.minus(h));
      cur = next;
    }
    return cur;
  }

  public static long area(List<Rect> rs) {
    long a = 0;
    for (Rect r : rs) a += r.area();
    return a;
  }

  public Map<String, Object> toJson() {
    return Json.obj("left", left, "top", top, "right", right, "bottom", bottom);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Rect)) return false;
    Rect r = (Rect) o;
    return r.left == left && r.top == top && r.right == right && r.bottom == bottom;
  }

  @Override
  public int hashCode() {
    return ((left * 31 + top) * 31 + right) * 31 + bottom;
  }

  @Override
  public String toString() {
    return "[" + left + "," + top + "][" + right + "," + bottom + "]";
  }
}
