package dev.phoneagent.helper.core;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Op ids (PROTOCOL.md §5): the last 512 receipts by op id (a resent op is answered from here and never
 * dispatched again), cancels that arrive before their op, the running ops, and the one-input lock.
 */
public final class Ops {
  static final class Done {
    final String action;
    final Map<String, Object> receipt;

    Done(String action, Map<String, Object> receipt) {
      this.action = action;
      this.receipt = receipt;
    }
  }

  private final LinkedHashMap<String, Done> done =
      new LinkedHashMap<String, Done>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Done> e) {
          return size() > Limits.KEPT_RECEIPTS;
        }
      };
  private final Set<String> pendingCancels = new LinkedHashSet<String>();
  private final Map<String, AtomicBoolean> running = new HashMap<String, AtomicBoolean>();
  private final AtomicBoolean inputLock = new AtomicBoolean(false);
  private long counter;

  public synchronized String newId() {
    return "h-" + (++counter) + "-" + Long.toHexString(System.nanoTime() & 0xffffff);
  }

  /** The stored receipt of an op id, or null. Throws when the id was used for another action. */
  public synchronized Map<String, Object> replay(String opId, String action) throws Requests.Invalid {
    Done d = done.get(opId);
    if (d == null) return null;
    if (!d.action.equals(action))
      throw new Requests.Invalid("op_id " + opId + " was already used for " + d.action + "; choose a new op_id");
    Map<String, Object> copy = new LinkedHashMap<String, Object>(d.receipt);
    copy.put("replayed", Boolean.TRUE);
    return copy;
  }

  public synchronized void store(String opId, String action, Map<String, Object> receipt) {
    done.put(opId, new Done(action, receipt));
    running.remove(opId);
  }

  /** True (and consumes it) when a cancel arrived before this op. */
  public synchronized boolean takePendingCancel(String opId) {
    return pendingCancels.remove(opId);
  }

  public synchronized AtomicBoolean start(String opId) {
    AtomicBoolean flag = new AtomicBoolean(false);
    running.put(opId, flag);
    return flag;
  }

  /** running | done | pending, as /v3/cancel answers. */
  public synchronized String cancel(String opId) {
    AtomicBoolean r = running.get(opId);
    if (r != null) {
      r.set(true);
      return "running";
    }
    if (done.containsKey(opId)) return "done";
    pendingCancels.add(opId);
    while (pendingCancels.size() > Limits.KEPT_RECEIPTS) pendingCancels.remove(pendingCancels.iterator().next());
    return "pending";
  }

  public boolean tryLockInput() {
    return inputLock.compareAndSet(false, true);
  }

  public void unlockInput() {
    inputLock.set(false);
  }

  /** Stop every running op (the helper shutting down). */
  public synchronized void cancelAll() {
    for (AtomicBoolean f : running.values()) f.set(true);
  }
}
