package dev.phoneagent.helper;

import android.accessibilityservice.AccessibilityService;
import android.graphics.Bitmap;
import android.graphics.Canvas;
import android.graphics.Color;
import android.graphics.ColorSpace;
import android.hardware.HardwareBuffer;
import android.os.SystemClock;
import android.util.DisplayMetrics;
import android.view.View;
import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;

/**
 * The display: every window drawn each frame (in software; Robolectric has no surface), and
 * SurfaceFlinger's part of takeScreenshot — the windows composed bottom to top into the display's
 * image, behind a HardwareBuffer handed to the callback as AccessibilityService.ScreenshotResult,
 * with the system's interval between two requests. Robolectric's HardwareBuffer holds no pixels,
 * so the composed image stands behind it (SystemShadows.Pixels) when the helper wraps it.
 */
final class RoboScreen {
  /** How many captures were requested (the rate the helper asks at). */
  volatile int captures;
  /** Uptime of every request the system accepted, and how many it refused as too soon. */
  final List<Long> accepted = Collections.synchronizedList(new ArrayList<Long>());
  volatile int refused;

  private final Map<View, Bitmap> frames = new IdentityHashMap<View, Bitmap>();
  private final Map<HardwareBuffer, Bitmap> buffers = Collections.synchronizedMap(new IdentityHashMap<HardwareBuffer, Bitmap>());

  /**
   * The display's frame: every window whose views are dirty is drawn. Without this nothing draws —
   * and scrolling, which advances in computeScroll during a draw, never moves. Main thread.
   */
  void draw(List<RoboWindows.Entry> windows) {
    for (RoboWindows.Entry e : windows) {
      View root = e.root;
      if (root.getWidth() <= 0 || root.getHeight() <= 0) continue;
      Bitmap b = frames.get(root);
      if (b != null && !root.isDirty()) continue;
      if (b == null || b.getWidth() != root.getWidth() || b.getHeight() != root.getHeight()) {
        b = Bitmap.createBitmap(root.getWidth(), root.getHeight(), Bitmap.Config.ARGB_8888);
        frames.put(root, b);
      }
      b.eraseColor(Color.TRANSPARENT);
      root.draw(new Canvas(b));
    }
  }

  /** The display's image: the windows' frames at their places, bottom first, on black. Main thread. */
  private Bitmap compose(List<RoboWindows.Entry> windows, DisplayMetrics m) {
    draw(windows);
    Bitmap out = Bitmap.createBitmap(m.widthPixels, m.heightPixels, Bitmap.Config.ARGB_8888);
    Canvas c = new Canvas(out);
    c.drawColor(Color.BLACK);
    for (RoboWindows.Entry e : windows) {
      Bitmap f = frames.get(e.root);
      if (f == null) continue;
      int[] at = new int[2];
      e.root.getLocationOnScreen(at);
      c.drawBitmap(f, at[0], at[1], null);
    }
    return out;
  }

  /** The pixels behind a buffer this screen handed out (once), or null. */
  Bitmap pixelsOf(HardwareBuffer hb) {
    return buffers.remove(hb);
  }

  /**
   * The system's interval between two requests of one service (AbstractAccessibilityServiceConnection),
   * this SDK's own number: 1000 ms on API 30, 333 ms from 31.
   */
  static long intervalMs() {
    try {
      return AccessibilityService.class.getField("ACCESSIBILITY_TAKE_SCREENSHOT_REQUEST_INTERVAL_TIMES_MS").getInt(null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("this SDK has no screenshot interval: " + e, e);
    }
  }

  void capture(final RoboSystem s, Executor executor, final AccessibilityService.TakeScreenshotCallback callback) {
    captures++;
    long now = SystemClock.uptimeMillis();
    synchronized (accepted) {
      if (!accepted.isEmpty() && now - accepted.get(accepted.size() - 1) <= intervalMs()) {
        refused++;
        executor.execute(new Runnable() {
          @Override
          public void run() {
            callback.onFailure(AccessibilityService.ERROR_TAKE_SCREENSHOT_INTERVAL_TIME_SHORT);
          }
        });
        return;
      }
      accepted.add(now);
    }
    final Bitmap image = s.onMain(new Callable<Bitmap>() {
      @Override
      public Bitmap call() {
        return compose(s.windows.current(), android.content.res.Resources.getSystem().getDisplayMetrics());
      }
    });
    executor.execute(new Runnable() {
      @Override
      public void run() {
        HardwareBuffer hb = HardwareBuffer.create(image.getWidth(), image.getHeight(), HardwareBuffer.RGBA_8888, 1,
            HardwareBuffer.USAGE_CPU_READ_OFTEN | HardwareBuffer.USAGE_GPU_SAMPLED_IMAGE);
        buffers.put(hb, image);
        try {
          // What the system's callback builds: (buffer, colour space, timestamp), private on API 30.
          Constructor<AccessibilityService.ScreenshotResult> c =
              AccessibilityService.ScreenshotResult.class.getDeclaredConstructor(HardwareBuffer.class, ColorSpace.class, long.class);
          c.setAccessible(true);
          callback.onSuccess(c.newInstance(hb, ColorSpace.get(ColorSpace.Named.SRGB), SystemClock.elapsedRealtimeNanos()));
        } catch (ReflectiveOperationException e) {
          callback.onFailure(AccessibilityService.ERROR_TAKE_SCREENSHOT_INTERNAL_ERROR);
        }
      }
    });
  }
}
