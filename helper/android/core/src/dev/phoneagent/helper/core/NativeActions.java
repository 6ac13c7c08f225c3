package dev.phoneagent.helper.core;

import java.util.List;
import java.util.Map;

/**
 * read_control, set_text and control_action on a resolved node (PROTOCOL.md §7); never a coordinate
 * fallback. The target is found with Android's query for its id or text when it has one (Run.resolveTarget).
 */
final class NativeActions {
  private NativeActions() {}

  static final List<String> TEXT_OPS = java.util.Arrays.asList("set_text", "set_selection", "replace_selection", "ime_enter");

  static void readControl(Run run) {
    @SuppressWarnings("unchecked")
    Selectors.Resolved r = run.resolveTarget((Map<String, Object>) run.req.get("selector"));
    if (r == null) return;
    run.receipt.status("observed", "not_delivered");
    run.receipt.put("control", Selectors.control(run.lastTree, r.node, r.window, run.info.width, run.info.height));
    run.receipt.put("after", Selectors.state(run.lastTree, r.node));
  }

  @SuppressWarnings("unchecked")
  static void setText(Run run) {
    Map<String, Object> sel = (Map<String, Object>) run.req.get("selector");
    Selectors.Resolved r;
    if (sel != null) r = run.resolveTarget(sel);
    else {
      Tree t = run.read();
      if (t == null) {
        run.receipt.fail("READ_FAILED", "the accessibility tree could not be read; re-observe and retry");
        return;
      }
      Node focused = null;
      for (Node n : t.nodes) if (n.focused && n.editable && n.visible) focused = n;
      if (focused == null) {
        run.receipt.fail("NOT_FOUND", "no editable field has focus; pass a selector or focus a field first");
        return;
      }
      run.lastTree = t;
      r = new Selectors.Resolved(focused, t.window(focused.window), null, null);
    }
    if (r == null) return;
    act(run, r, "set_text", null, (String) run.req.get("text"), -1, -1, run.str("expected_token"));
  }

  static void control(Run run) {
    @SuppressWarnings("unchecked")
    Map<String, Object> q = (Map<String, Object>) run.req.get("request");
    @SuppressWarnings("unchecked")
    Selectors.Resolved r = run.resolveTarget((Map<String, Object>) q.get("selector"));
    if (r == null) return;
    Double value = q.get("value") == null ? null : Double.valueOf(((Number) q.get("value")).doubleValue());
    int start = q.get("start") == null ? -1 : ((Number) q.get("start")).intValue();
    int end = q.get("end") == null ? -1 : ((Number) q.get("end")).intValue();
    act(run, r, (String) q.get("action"), value, (String) q.get("text"), start, end, (String) q.get("expected_token"));
  }

  /** The checks of every native write, in order: editable, support, token, range, occlusion; then the act. */
  static void act(Run run, Selectors.Resolved r, String op, Double value, String text, int start, int end, String token) {
    Node n = r.node;
    Tree t = run.lastTree;
    Receipt rc = run.receipt;
    rc.put("before", Selectors.state(t, n));
    if (TEXT_OPS.contains(op) && !op.equals("ime_enter") && !n.editable) {
      rc.fail("NOT_EDITABLE", n.shortClass() + " \"" + n.visibleText() + "\" is not an editable field; target the EditText");
      return;
    }
    String listed = op.equals("replace_selection") ? "set_text" : op;
    if (!n.actions.contains(listed) || (op.equals("replace_selection") && n.password)) {
      rc.fail("UNSUPPORTED", "the node does not support " + op + " (its actions: " + String.join(", ", n.actions) + ")");
      return;
    }
    if (token != null && !token.equals(Selectors.token(n))) {
      rc.fail("STALE", "the control changed since it was read (token " + token + " ≠ " + Selectors.token(n) + "); re-read it");
      return;
    }
    if (op.equals("set_progress")) {
      if (!n.hasRange()) {
        rc.fail("UNSUPPORTED", "the node has no range; it cannot be set to a value");
        return;
      }
      if (value < n.rangeMin || value > n.rangeMax) {
        rc.fail("OUT_OF_RANGE", "value " + Schema.fmt(value) + " is outside the control's range " + Schema.fmt(n.rangeMin) + ".." + Schema.fmt(n.rangeMax));
        return;
      }
    }
    if (op.equals("set_selection")) {
      String why = Utf16.checkRange(n.editText(), start, end);
      if (why != null) {
        rc.fail("OUT_OF_RANGE", why);
        return;
      }
    }
    if (!op.equals("show_on_screen") && Rect.area(Selectors.visibleParts(t, n, r.window, run.info.width, run.info.height)) == 0) {
      rc.fail("OCCLUDED", "the target has no visible area left (keyboard, dialog, overlay or off screen); dismiss what covers it or scroll it into view");
      return;
    }
    if (run.cancelled.get()) {
      rc.status("cancelled", "not_delivered").error("CANCELLED", "cancelled before input");
      return;
    }
    run.dispatched();
    boolean done;
    if (op.equals("replace_selection")) {
      String had = n.editText();
      int s = n.selStart >= 0 ? Math.min(n.selStart, had.length()) : had.length();
      int e = n.selEnd >= 0 ? Math.min(n.selEnd, had.length()) : s;
      String next = Utf16.replace(had, Math.min(s, e), Math.max(s, e), text);
      int cursor = Math.min(s, e) + text.length();
      done = run.device.nodeAction(n, "set_text", null, next, -1, -1)
          && run.device.nodeAction(n, "set_selection", null, null, cursor, cursor);
    } else done = run.device.nodeAction(n, op, value, text, start, end);
    if (!done) {
      rc.status("unknown", "unknown").error("INTERNAL", "Android refused " + op + " on the node; re-observe before retrying");
      return;
    }
    run.completed();
    // Read the node back by its view id when it has one (Android's query, no walk), else on the tree.
    Tree after = n.resourceId.isEmpty() ? null : run.query(n.resourceId, null);
    Node again = after == null ? null : findAgain(after, n);
    if (again == null) {
      after = run.read();
      again = after == null ? null : findAgain(after, n);
    }
    if (again != null) rc.put("after", Selectors.state(after, again));
  }

  /** The same control in a later tree: same class, id and description, nearest to the old bounds. */
  static Node findAgain(Tree t, Node old) {
    Node best = null;
    long bestD = Long.MAX_VALUE;
    for (Node n : t.nodes) {
      if (!n.className.equals(old.className) || !n.resourceId.equals(old.resourceId) || !n.desc.equals(old.desc)) continue;
      long d = Math.abs(n.bounds.left - old.bounds.left) + Math.abs(n.bounds.top - old.bounds.top) + (n.id == old.id ? 0 : 1);
      if (d < bestD) {
        bestD = d;
        best = n;
      }
    }
    return best;
  }
}
