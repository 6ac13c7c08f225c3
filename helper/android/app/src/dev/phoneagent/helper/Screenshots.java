package dev.phoneagent.helper;

import android.accessibilityservice.AccessibilityService;
import android.graphics.Bitmap;
import android.hardware.HardwareBuffer;
import android.view.Display;
import dev.phoneagent.helper.core.Device;
import java.io.ByteArrayOutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * AccessibilityService.takeScreenshot (API 30+, needs canTakeScreenshot in the service config). Older
 * phones get no screenshot: hello omits the capability and snapshots carry the tree only.
 */
final class Screenshots {
  private Screenshots() {}

  /** Android allows a few screenshots per second; one too soon is retried once after the interval. */
  static Device.Image take(AccessibilityService s, String format, double scale, int quality) {
    Bitmap bmp = capture(s);
    if (bmp == null) {
      try {
        Thread.sleep(350);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
      bmp = capture(s);
    }
    return bmp == null ? null : encode(bmp, format, scale, quality);
  }

  static Bitmap capture(AccessibilityService s) {
    final CountDownLatch done = new CountDownLatch(1);
    final AtomicReference<Bitmap> out = new AtomicReference<Bitmap>();
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
        if (hw != null) out.set(hw.copy(Bitmap.Config.ARGB_8888, false));
        hb.close();
        done.countDown();
      }

      @Override
      public void onFailure(int code) {
        done.countDown();
      }
    });
    try {
      return done.await(3, TimeUnit.SECONDS) ? out.get() : null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
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
