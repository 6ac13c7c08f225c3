package dev.phoneagent.helper.core;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/** One action's run: the device, its request, its receipt being written and its cancel flag. */
final class Run {
  final Device device;
  final DeviceInfo info;
  final Map<String, Object> req;
  final Receipt receipt;
  final AtomicBoolean cancelled;

  Run(Device device, DeviceInfo info, Map<String, Object> req, Receipt receipt, AtomicBoolean cancelled) {
    this.device = device;
    this.info = info;
    this.req = req;
    this.receipt = receipt;
    this.cancelled = cancelled;
  }

  long now() {
    return device.now();
  }

  /** A read that reports failure as a value (READ_FAILED) instead of throwing. */
  Tree read() {
    try {
      return device.read();
    } catch (Device.ReadFailed e) {
      return null;
    }
  }

  /** Resolve against a fresh read; sets the receipt's error on failure and returns null. */
  Selectors.Resolved resolve(Map<String, Object> selector) {
    Tree t = read();
    if (t == null) {
      receipt.fail("READ_FAILED", "the accessibility tree could not be read; re-observe and retry");
      return null;
    }
    Selectors.Resolved r = Selectors.resolve(t, selector);
    if (!r.ok()) {
      receipt.fail(r.code, r.message);
      return null;
    }
    lastTree = t;
    return r;
  }

  /**
   * Resolve a native action's target (PROTOCOL.md §7 "Resolving a target"): on Android's view-id
   * query when the selector has a resource id, else on its text query for a text or description —
   * the windows and the nodes the query returns, no walk. A selector with neither, or a query that
   * returned no node matching the whole selector, is resolved on the whole tree.
   */
  Selectors.Resolved resolveTarget(Map<String, Object> selector) {
    String id = Selectors.str(selector, "resource_id");
    String text = Selectors.str(selector, "text");
    if (text == null || text.isEmpty()) text = Selectors.str(selector, "content_desc");
    Tree q = null;
    if (id != null && !id.isEmpty()) q = query(id, null);
    else if (text != null && !text.isEmpty()) q = query(null, text);
    if (q == null || Selectors.hits(q, selector).isEmpty()) return resolve(selector);
    Selectors.Resolved r = Selectors.resolve(q, selector);
    if (!r.ok()) {
      receipt.fail(r.code, r.message);
      return null;
    }
    lastTree = q;
    return r;
  }

  /** Android's node query (Device.lookup); null when the platform has none or it failed. */
  Tree query(String viewId, String text) {
    try {
      return device.lookup(viewId, text);
    } catch (Device.ReadFailed e) {
      return null;
    }
  }

  Tree lastTree;

  String str(String k) {
    Object v = req.get(k);
    return v instanceof String ? (String) v : null;
  }

  int integer(String k) {
    return ((Number) req.get(k)).intValue();
  }

  void dispatched() {
    receipt.dispatched(now());
  }

  void completed() {
    receipt.status("completed", "delivered");
  }

  /** Sleep in poll-sized steps; false when cancelled meanwhile. */
  boolean pause(long ms) {
    long end = now() + ms;
    try {
      while (now() < end) {
        if (cancelled.get()) return false;
        device.sleep(Math.min(Limits.POLL_MS, end - now()));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    return !cancelled.get();
  }
}
