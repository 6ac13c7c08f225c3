package dev.phoneagent.helper.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** wait_until and scroll_to: polling on the phone's clock every ~120 ms (PROTOCOL.md §7). */
final class Waits {
  private Waits() {}

  /** One poll's verdict: holds, does not hold, or a failed read / an error that ends the wait. */
  static final class Verdict {
    boolean holds, unreliable, fatal;
    String code, message;
    Map<String, Object> after;
  }

  @SuppressWarnings("unchecked")
  static Verdict evaluate(Run run, Tree t, String cond) {
    Verdict v = new Verdict();
    if (t == null) {
      v.unreliable = true;
      v.message = "READ_FAILED: the tree could not be read";
      return v;
    }
    Map<String, Object> sel = (Map<String, Object>) run.req.get("selector");
    if (cond.equals("stable") && sel == null) {
      v.holds = true;
      return v;
    }
    Selectors.Resolved r = Selectors.resolve(t, sel);
    if (!r.ok()) {
      if (r.code.equals("NOT_FOUND")) {
        v.holds = cond.equals("disappears");
        return v;
      }
      if (r.code.equals("AMBIGUOUS")) {
        v.fatal = true;
        v.code = r.code;
        v.message = r.message;
        return v;
      }
      v.unreliable = true;
      v.message = r.code + ": " + r.message;
      return v;
    }
    Node n = r.node;
    v.after = Selectors.state(t, n);
    if ((cond.equals("checked") || cond.equals("unchecked")) && !n.checkable) {
      v.fatal = true;
      v.code = "UNSUPPORTED";
      v.message = "the node is not checkable; " + cond + " does not apply";
      return v;
    }
    if (cond.equals("value_equals") && !n.hasRange()) {
      v.fatal = true;
      v.code = "UNSUPPORTED";
      v.message = "the node has no range; value_equals does not apply";
      return v;
    }
    if (cond.equals("appears") || cond.equals("stable")) v.holds = true;
    else if (cond.equals("disappears")) v.holds = false;
    else if (cond.equals("enabled")) v.holds = n.enabled;
    else if (cond.equals("disabled")) v.holds = !n.enabled;
    else if (cond.equals("checked")) v.holds = n.checked;
    else if (cond.equals("unchecked")) v.holds = !n.checked;
    else if (cond.equals("selected")) v.holds = n.selected;
    else if (cond.equals("text_equals")) v.holds = n.visibleText().equals(run.req.get("text"));
    else if (cond.equals("value_equals")) v.holds = n.rangeCurrent.doubleValue() == ((Number) run.req.get("value")).doubleValue();
    return v;
  }

  static void waitUntil(Run run) {
    String cond = run.str("condition");
    long timeout = run.integer("timeout_ms");
    Object sm = run.req.get("stable_ms");
    long stableMs = sm != null ? ((Number) sm).longValue() : cond.equals("stable") ? 500 : 0;
    long start = run.now();
    long holdingSince = -1;
    long lastSeq = -1;
    int polls = 0;
    String lastError = null;
    Receipt rc = run.receipt;
    while (true) {
      if (run.cancelled.get()) {
        rc.status("cancelled", "not_delivered").error("CANCELLED", "wait_until was cancelled");
        break;
      }
      Tree t = run.read();
      polls++;
      Verdict v = evaluate(run, t, cond);
      boolean treeStable = !cond.equals("stable") || run.req.get("selector") != null || (t != null && t.seq == lastSeq);
      if (t != null) lastSeq = t.seq;
      if (v.fatal) {
        rc.fail(v.code, v.message);
        break;
      }
      if (v.unreliable) lastError = v.message;
      if (v.holds && !v.unreliable && treeStable) {
        if (holdingSince < 0) holdingSince = run.now();
        if (run.now() - holdingSince >= stableMs) {
          rc.status("observed", "not_delivered");
          if (v.after != null) rc.put("after", v.after);
          break;
        }
      } else if (cond.equals("stable") && !treeStable && t != null) {
        holdingSince = run.now(); // the revision changed: the stable window restarts now
      } else holdingSince = -1;
      if (run.now() - start >= timeout) {
        rc.fail("TIMEOUT", cond + " did not hold within " + timeout + " ms" + (lastError != null ? " (last read error: " + lastError + ")" : ""));
        break;
      }
      if (!run.pause(Math.min(Limits.POLL_MS, Math.max(1, timeout - (run.now() - start))))) continue;
    }
    rc.put("polls", polls);
    if (lastError != null) rc.put("last_read_error", lastError);
  }

  /** The texts and ids under a container: changes when its content moved. */
  static String signature(Tree t, Node container) {
    StringBuilder b = new StringBuilder();
    for (Node n : t.nodes)
      if (n.window == container.window && container.bounds.contains(n.bounds))
        b.append(n.text).append('|').append(n.bounds.top).append(';');
    return b.toString();
  }

  /** The target, when it is one node wholly inside the container (matched as target_match says). */
  static Node targetInside(Tree t, Map<String, Object> target, String match, Node container) {
    Selectors.Resolved r = Selectors.resolve(t, target, match);
    boolean inside =
        r.ok() && container.bounds.intersect(r.node.bounds).area() == r.node.bounds.area() && r.node.bounds.area() > 0;
    return inside ? r.node : null;
  }

  /** What a scroll_to that did not find its target adds about the list (as src/device/protocol/scroll-target.ts). */
  static String listEndNote(boolean end) {
    return end
        ? "the list ended there: the target is not in it this way"
        : "the list goes on: scroll_to again to search further";
  }

  @SuppressWarnings("unchecked")
  static void scrollTo(Run run) {
    Receipt rc = run.receipt;
    Map<String, Object> target = (Map<String, Object>) run.req.get("target");
    String match = run.str("target_match");
    String op = "forward".equals(run.str("direction")) ? "scroll_forward" : "scroll_backward";
    int max = run.integer("max_scrolls");
    long timeout = run.integer("timeout_ms");
    long settle = run.integer("settle_ms");
    long start = run.now();
    List<Object> log = new ArrayList<Object>();
    rc.put("scroll_log", log);
    Selectors.Resolved c = run.resolve((Map<String, Object>) run.req.get("container"));
    if (c == null) return;
    if (!c.node.actions.contains("scroll_forward") && !c.node.actions.contains("scroll_backward")) {
      rc.fail("UNSUPPORTED", "the container is not scrollable (it lists neither scroll_forward nor scroll_backward)");
      return;
    }
    Tree t = run.lastTree;
    Node box = c.node;
    for (int i = 0; ; i++) {
      Node found = targetInside(t, target, match, box);
      if (found != null) {
        if (i == 0) rc.status("observed", "not_delivered");
        else run.completed();
        rc.put("found", Titles.label(found));
        return;
      }
      boolean end = !box.actions.contains(op);
      if (i >= max) {
        partial(rc, i).error("NOT_FOUND", "the target did not appear within " + max + " scrolls; " + listEndNote(end));
        rc.put("list_end", end);
        return;
      }
      if (run.cancelled.get()) {
        rc.status(i > 0 ? "partial" : "cancelled", i > 0 ? "delivered" : "not_delivered").error("CANCELLED", "scroll_to was cancelled");
        return;
      }
      if (run.now() - start > timeout) {
        partial(rc, i).error("TIMEOUT", "scroll_to ran out of time after " + i + " scrolls; " + listEndNote(end));
        rc.put("list_end", end);
        return;
      }
      String before = signature(t, box);
      if (i == 0) run.dispatched();
      boolean ok = box.actions.contains(op) && run.device.nodeAction(box, op, null, null, -1, -1);
      if (!ok) {
        log.add(Json.obj("index", i, "action", op, "at", run.now(), "outcome", "no_progress", "target_visible", false));
        partial(rc, i).error("NO_PROGRESS", "the container cannot scroll " + run.str("direction") + " any further; " + listEndNote(true));
        rc.put("list_end", true);
        return;
      }
      // Observe at least 500 ms for movement, then wait for settle_ms of stillness.
      long scrolledAt = run.now();
      Tree cur = t;
      boolean moved = false;
      String lastSig = before;
      long stillSince = run.now();
      while (true) {
        if (!run.pause(Limits.POLL_MS)) break;
        Tree n = run.read();
        if (n == null) continue;
        Node again = NativeActions.findAgain(n, box);
        if (again == null) continue;
        String sig = signature(n, again);
        if (!sig.equals(before)) moved = true;
        if (!sig.equals(lastSig)) {
          lastSig = sig;
          stillSince = run.now();
        }
        cur = n;
        box = again;
        if (run.now() - scrolledAt >= 500 && run.now() - stillSince >= settle) break;
      }
      t = cur;
      boolean visible = targetInside(t, target, match, box) != null;
      log.add(Json.obj("index", i, "action", op, "at", scrolledAt, "outcome", moved ? "moved" : "no_progress", "seq", t.seq, "target_visible", visible));
      if (!moved) {
        partial(rc, i + 1).error("NO_PROGRESS", "the container did not move; " + listEndNote(true));
        rc.put("list_end", true);
        return;
      }
    }
  }

  static Receipt partial(Receipt rc, int scrolls) {
    return scrolls > 0 ? rc.status("partial", "delivered") : rc.status("not_started", "not_delivered");
  }
}
