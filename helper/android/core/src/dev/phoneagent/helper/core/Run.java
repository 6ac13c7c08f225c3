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
