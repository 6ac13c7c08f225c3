package dev.phoneagent.helper;

import android.os.SystemClock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Waits on the system's uptime clock — the clock input events, frames and the accessibility
 * manager's screenshot interval are measured on — rather than wall time: a gesture lasts its
 * duration of system time however busy the CPU is.
 */
final class Uptime {
  private static final long POLL_MS = 20;

  private Uptime() {}

  /** Wait for `latch` at most `ms` of uptime; true when it opened. */
  static boolean await(CountDownLatch latch, long ms) throws InterruptedException {
    long deadline = SystemClock.uptimeMillis() + ms;
    while (!latch.await(POLL_MS, TimeUnit.MILLISECONDS)) if (SystemClock.uptimeMillis() >= deadline) return false;
    return true;
  }

  /** Sleep until the uptime clock reads at least `t`. */
  static void sleepUntil(long t) throws InterruptedException {
    for (long left; (left = t - SystemClock.uptimeMillis()) > 0; ) Thread.sleep(Math.min(POLL_MS, left));
  }
}
