package dev.phoneagent.helper.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs validated actions against the device and writes their receipts: op-id replay, pending
 * cancels, capabilities, the one-input lock (BUSY) and each action's own rules.
 */
public final class Engine {
  final Device device;
  final Ops ops = new Ops();

  public Engine(Device device) {
    this.device = device;
  }

  public Ops ops() {
    return ops;
  }

  /** Validate a body (schemas + geometry): the request, or Invalid (HTTP 400, nothing dispatched). */
  public Map<String, Object> validate(Object body) throws Requests.Invalid {
    Map<String, Object> req = Requests.parse(body);
    String geo = Geometry.of(device.info()).check(req);
    if (geo != null) throw new Requests.Invalid(geo);
    return req;
  }

  /** One `POST /v3/action`, validated: answers with its receipt (a stored one when the op id was seen). */
  public Map<String, Object> run(Map<String, Object> req) throws Requests.Invalid {
    long received = device.now();
    String action = (String) req.get("action");
    String given = (String) req.get("op_id");
    String opId = given != null ? given : ops.newId();
    Map<String, Object> stored = ops.replay(opId, action);
    if (stored != null) return stored;
    DeviceInfo info = device.info();
    Receipt rc = new Receipt(opId, action, received, device.now());
    if (ops.takePendingCancel(opId)) {
      rc.status("cancelled", "not_delivered").error("CANCELLED", "op " + opId + " was cancelled before it arrived; nothing ran");
      return keep(opId, action, rc);
    }
    if (!info.capabilities.contains(action)) {
      rc.fail("UNSUPPORTED", action + " is not available on API " + info.apiLevel + " (see hello.capabilities)");
      return keep(opId, action, rc);
    }
    boolean input = !Limits.READ_ONLY.contains(action);
    if (input && !ops.tryLockInput()) {
      // Not stored: the same op id may be sent again once the running input has finished.
      rc.fail("BUSY", "another input is still running; wait for its receipt and retry");
      return rc.done(device.now());
    }
    AtomicBoolean flag = ops.start(opId);
    try {
      runOne(new Run(device, info, req, rc, flag), opId);
    } catch (RuntimeException e) {
      rc.status("unknown", "unknown").error("INTERNAL", "the helper failed: " + e.getClass().getSimpleName() + "; re-observe before retrying");
    } finally {
      if (input) ops.unlockInput();
    }
    return keep(opId, action, rc);
  }

  private Map<String, Object> keep(String opId, String action, Receipt rc) {
    Map<String, Object> m = rc.done(device.now());
    ops.store(opId, action, m);
    return m;
  }

  void runOne(Run run, String opId) {
    String a = (String) run.req.get("action");
    if (a.equals("tap") || a.equals("long_press") || a.equals("swipe") || a.equals("touch_gesture") || a.equals("pinch")) gesture(run);
    else if (a.equals("key")) key(run);
    else if (a.equals("set_text")) NativeActions.setText(run);
    else if (a.equals("ime_commit")) imeCommit(run);
    else if (a.equals("launch_app")) launch(run);
    else if (a.equals("read_control")) NativeActions.readControl(run);
    else if (a.equals("control_action")) NativeActions.control(run);
    else if (a.equals("wait_until")) Waits.waitUntil(run);
    else if (a.equals("scroll_to")) Waits.scrollTo(run);
    else if (a.equals("action_sequence")) sequence(run, opId);
  }

  @SuppressWarnings("unchecked")
  void gesture(Run run) {
    List<Stroke> strokes = Geometry.of(run.info).strokes(run.req);
    if (run.cancelled.get()) {
      run.receipt.status("cancelled", "not_delivered").error("CANCELLED", "cancelled before input");
      return;
    }
    Map<String, Object> guard = (Map<String, Object>) run.req.get("guard");
    if (guard != null) {
      // Checked on the current tree right before injecting: nothing else runs in between.
      int[] at = strokes.get(0).points.get(0);
      Tree t = Guards.candidates(device, guard);
      if (t == null) {
        run.receipt.fail("READ_FAILED", "the accessibility tree could not be read to check the target; re-observe and retry");
        return;
      }
      String[] refused = Guards.check(t, guard, at[0], at[1]);
      if (refused != null) {
        run.receipt.fail(refused[0], refused[1]);
        return;
      }
    }
    run.dispatched();
    try {
      if (device.gesture(strokes)) run.completed();
      else run.receipt.status("unknown", "unknown").error("INTERNAL", "Android cancelled the gesture; re-observe before resending");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      run.receipt.status("unknown", "unknown").error("CANCELLED", "interrupted while injecting; re-observe");
    }
  }

  void key(Run run) {
    run.dispatched();
    if (device.key(run.str("key"))) run.completed();
    else run.receipt.status("unknown", "unknown").error("INTERNAL", "the key " + run.str("key") + " could not be sent");
  }

  void imeCommit(Run run) {
    Tree t = run.read();
    boolean focused = false;
    if (t != null) for (Node n : t.nodes) focused |= n.focused && n.editable;
    if (!focused) {
      run.receipt.fail("NOT_FOUND", "no editable field has focus; focus one (control_action focus) first");
      return;
    }
    run.dispatched();
    if (device.commitText(run.str("text"))) run.completed();
    else
      run.receipt.fail(
          "UNAVAILABLE", "the helper keyboard is not the active input method; run `phone-agent helper install` to enable it");
  }

  void launch(Run run) {
    String pkg = run.str("package");
    String label = run.str("label");
    if (pkg == null) {
      pkg = findLabel(device.launchables(), label);
      if (pkg == null) {
        run.receipt.fail("NOT_FOUND", "no launcher entry is labelled \"" + label + "\"; pass the package instead");
        return;
      }
    }
    run.dispatched();
    if (device.launch(pkg, run.str("activity"))) run.completed();
    else run.receipt.fail("NOT_FOUND", "package " + pkg + " has no launchable activity");
  }

  /** Exact, then case-insensitive, then fuzzy (contains), as the protocol says. */
  static String findLabel(List<String[]> apps, String label) {
    for (String[] a : apps) if (a[0].equals(label)) return a[1];
    for (String[] a : apps) if (a[0].equalsIgnoreCase(label)) return a[1];
    String low = label.toLowerCase(Locale.ROOT);
    for (String[] a : apps) if (a[0].toLowerCase(Locale.ROOT).contains(low) || low.contains(a[0].toLowerCase(Locale.ROOT))) return a[1];
    for (String[] a : apps) if (a[1].equals(label)) return a[1];
    return null;
  }

  @SuppressWarnings("unchecked")
  void sequence(Run run, String opId) {
    List<Object> members = (List<Object>) run.req.get("actions");
    List<Object> receipts = new ArrayList<Object>();
    run.receipt.put("members", receipts);
    boolean anyRan = false;
    for (int i = 0; i < members.size(); i++) {
      Map<String, Object> m = (Map<String, Object>) members.get(i);
      String a = (String) m.get("action");
      Receipt mr = new Receipt(opId + "#" + i, a, device.now(), device.now());
      if (!run.info.capabilities.contains(a)) mr.fail("UNSUPPORTED", a + " is not available on this API level");
      else runOne(new Run(device, run.info, m, mr, run.cancelled), opId + "#" + i);
      receipts.add(mr.done(device.now()));
      String s = mr.status();
      if (s.equals("completed") || s.equals("observed")) {
        anyRan |= s.equals("completed");
        continue;
      }
      String code = mr.errorCode() != null ? mr.errorCode() : "INTERNAL";
      String status = s.equals("unknown") || s.equals("cancelled") ? s : anyRan || s.equals("partial") ? "partial" : "not_started";
      run.receipt.status(status, anyRan ? "delivered" : s.equals("unknown") ? "unknown" : "not_delivered");
      run.receipt.error(code, "actions[" + i + "] " + a + " failed; resend from actions[" + i + "] after re-observing");
      return;
    }
    run.completed();
  }
}
