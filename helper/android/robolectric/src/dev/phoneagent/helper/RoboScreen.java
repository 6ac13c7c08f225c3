package dev.phoneagent.helper;

import android.accessibilityservice.AccessibilityService;
import android.graphics.ColorSpace;
import android.hardware.HardwareBuffer;
import android.os.SystemClock;
import android.util.DisplayMetrics;
import java.lang.reflect.Constructor;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;

/**
 * SurfaceFlinger's part of takeScreenshot: a HardwareBuffer the size of the display, handed to the
 * callback on the service's executor as AccessibilityService.ScreenshotResult. Robolectric keeps no
 * pixels in a HardwareBuffer, so the image is blank; its size, colour space and the helper's
 * wrapping, copying, scaling and encoding are Android's.
 */
final class RoboScreen {
  /** How many captures were requested (the rate the helper asks at). */
  volatile int captures;

  private final java.util.Map<android.view.View, android.graphics.Bitmap> frames =
      new java.util.IdentityHashMap<android.view.View, android.graphics.Bitmap>();

  /**
   * The display's frame: every window whose views are dirty is drawn (in software). Robolectric has
   * no surface, so without this nothing draws — and scrolling, which advances in computeScroll
   * during a draw, never moves.
   */
  void draw(java.util.List<RoboWindows.Entry> windows) {
    for (RoboWindows.Entry e : windows) {
      android.view.View root = e.root;
      if (root.getWidth() <= 0 || root.getHeight() <= 0) continue;
      android.graphics.Bitmap b = frames.get(root);
      if (b != null && !root.isDirty()) continue;
      if (b == null || b.getWidth() != root.getWidth() || b.getHeight() != root.getHeight()) {
        b = android.graphics.Bitmap.createBitmap(root.getWidth(), root.getHeight(), android.graphics.Bitmap.Config.ARGB_8888);
        frames.put(root, b);
      }
      root.draw(new android.graphics.Canvas(b));
    }
  }

  void capture(RoboSystem s, Executor executor, final AccessibilityService.TakeScreenshotCallback callback) {
    captures++;
    final DisplayMetrics m = s.onMain(new Callable<DisplayMetrics>() {
      @Override
      public DisplayMetrics call() {
        return android.content.res.Resources.getSystem().getDisplayMetrics();
      }
    });
    executor.execute(new Runnable() {
      @Override
      public void run() {
        HardwareBuffer hb = HardwareBuffer.create(m.widthPixels, m.heightPixels, HardwareBuffer.RGBA_8888, 1,
            HardwareBuffer.USAGE_CPU_READ_OFTEN | HardwareBuffer.USAGE_GPU_SAMPLED_IMAGE);
        try {
          Constructor<?> c = AccessibilityService.ScreenshotResult.class.getDeclaredConstructors()[0];
          c.setAccessible(true);
          Object[] args = new Object[c.getParameterTypes().length];
          args[0] = hb;
          args[1] = ColorSpace.get(ColorSpace.Named.SRGB);
          args[2] = SystemClock.elapsedRealtimeNanos();
          for (int i = 3; i < args.length; i++) args[i] = Boolean.FALSE;
          callback.onSuccess((AccessibilityService.ScreenshotResult) c.newInstance(args));
        } catch (ReflectiveOperationException e) {
          callback.onFailure(AccessibilityService.ERROR_TAKE_SCREENSHOT_INTERNAL_ERROR);
        }
      }
    });
  }
}
