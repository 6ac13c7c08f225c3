package dev.phoneagent.helper;

import android.accessibilityservice.AccessibilityService;
import android.graphics.Bitmap;
import android.hardware.HardwareBuffer;
import android.os.Build;
import android.os.SystemClock;
import android.view.Display;
import dev.phoneagent.helper.core.Device;
import java.io.ByteArrayOutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;

/**
 * AccessibilityService.takeScreenshot (API 30+, needs canTakeScreenshot in the service config). Older
 * phones get no screenshot: hello omits the capability and snapshots carry the tree only.
 */
final class Screenshots {
  /**
   * The accessibility manager refuses a capture requested no more than this after the last one
   * (uptime; AbstractAccessibilityServiceConnection): 1000 ms on API 30, 333 ms from API 31.
   */
  static final long INTERVAL_MS = Build.VERSION.SDK_INT >= 31 ? 333 : 1000;
  /** Past the interval, for the hop from this call to the system's timestamp. */
  private static final long MARGIN_MS = 20;
  private static final long TIMEOUT_MS = 3000;

  private final AccessibilityService service;
  /** Uptime of this service connection's last request (the system keeps one per connection). */
  private long lastRequestAt = Long.MIN_VALUE / 2;

  Screenshots(AccessibilityService service) {
    this.service = service;
  }

  /** A capture's outcome: the bitmap, or the system's error code (0 for none, -1 for no answer). */
  private static final class Shot {
    Bitmap bitmap;
    int error = -1;
  }

  /** Requests are spaced by the system's interval; one refused as too soon is retried once after it. */
  synchronized Device.Image take(String format, double scale, int quality) {
    try {
      Shot shot = spaced();
      if (shot.bitmap == null && shot.error == AccessibilityService.ERROR_TAKE_SCREENSHOT_INTERVAL_TIME_SHORT) shot = spaced();
      return shot.bitmap == null ? null : encode(shot.bitmap, format, scale, quality);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private Shot spaced() throws InterruptedException {
    Uptime.sleepUntil(lastRequestAt + INTERVAL_MS + MARGIN_MS);
    lastRequestAt = SystemClock.uptimeMillis();
    return capture(service);
  }

  private static Shot capture(AccessibilityService s) throws InterruptedException {
    final CountDownLatch done = new CountDownLatch(1);
    final Shot shot = new Shot();
    Executor direct = new Executor() {
      @Override
      public void execute(Runnable r) {
        r.run();
      }
    };
    s.takeScreenshot(Display.DEFAULT_DISPLAY, direct, new AccessibilityService.TakeScreenshotCallback() {
      @Override
      public void onSuccess(AccessibilityService.ScreenshotResult r) {
        HardwareBuffer hb = r.getHardwareBuffer();
        Bitmap hw = Bitmap.wrapHardwareBuffer(hb, r.getColorSpace());
        synchronized (shot) {
          if (hw != null) shot.bitmap = hw.copy(Bitmap.Config.ARGB_8888, false);
          shot.error = 0;
        }
        hb.close();
        done.countDown();
      }

      @Override
      public void onFailure(int code) {
        synchronized (shot) {
          shot.error = code;
        }
        done.countDown();
      }
    });
    Uptime.await(done, TIMEOUT_MS);
    synchronized (shot) {
      Shot out = new Shot();
      out.bitmap = shot.bitmap;
      out.error = shot.error;
      return out;
    }
  }

  static Device.Image encode(Bitmap bmp, String format, double scale, int quality) {
    if (scale < 1) bmp = Bitmap.createScaledBitmap(bmp, Math.max(1, (int) Math.round(bmp.getWidth() * scale)), Math.max(1, (int) Math.round(bmp.getHeight() * scale)), true);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    boolean jpeg = format.equals("jpeg");
    bmp.compress(jpeg ? Bitmap.CompressFormat.JPEG : Bitmap.CompressFormat.PNG, jpeg ? quality : 100, bytes);
    Device.Image img = new Device.Image();
    img.format = jpeg ? "jpeg" : "png";
    img.width = bmp.getWidth();
    img.height = bmp.getHeight();
    img.bytes = bytes.toByteArray();
    return img;
  }
}
