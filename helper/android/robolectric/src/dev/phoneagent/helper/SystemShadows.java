package dev.phoneagent.helper;

import android.accessibilityservice.AccessibilityService;
import android.accessibilityservice.GestureDescription;
import android.graphics.Bitmap;
import android.hardware.HardwareBuffer;
import android.os.Handler;
import android.view.accessibility.AccessibilityEvent;
import android.view.accessibility.AccessibilityManager;
import android.view.accessibility.AccessibilityWindowInfo;
import android.widget.AbsListView;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import org.robolectric.annotation.Implementation;
import org.robolectric.annotation.Implements;
import org.robolectric.shadows.ShadowAbsListView;
import org.robolectric.shadows.ShadowAccessibilityManager;
import org.robolectric.shadows.ShadowAccessibilityService;
import org.robolectric.shadows.ShadowNativeBitmap;
import org.robolectric.util.reflector.Direct;
import org.robolectric.util.reflector.ForType;
import org.robolectric.util.reflector.Reflector;

/**
 * Where Robolectric stops and the system would take over (system_server is not in the process):
 * the service's window list, gesture and global-action dispatch and screenshots go to RoboSystem,
 * and the accessibility events views send reach the service the way the system delivers them.
 */
final class SystemShadows {
  private SystemShadows() {}

  @Implements(AccessibilityService.class)
  public static class Service extends ShadowAccessibilityService {
    @Implementation
    @Override
    protected List<AccessibilityWindowInfo> getWindows() {
      final RoboSystem s = RoboSystem.current;
      s.windowReads.incrementAndGet();
      return s.onMain(new Callable<List<AccessibilityWindowInfo>>() {
        @Override
        public List<AccessibilityWindowInfo> call() {
          return s.windows.infos();
        }
      });
    }

    @Implementation
    @Override
    protected boolean dispatchGesture(GestureDescription g, AccessibilityService.GestureResultCallback cb, Handler h) {
      return RoboSystem.current.input.dispatch(g, cb, h);
    }

    @Implementation
    @Override
    protected boolean performGlobalAction(int action) {
      return RoboSystem.current.globalAction(action);
    }

    @Implementation(minSdk = 30)
    @Override
    protected void takeScreenshot(int displayId, Executor executor, AccessibilityService.TakeScreenshotCallback callback) {
      RoboSystem.current.screenshot(executor, callback);
    }
  }

  @Implements(AccessibilityManager.class)
  public static class Manager extends ShadowAccessibilityManager {
    @Implementation
    @Override
    protected void sendAccessibilityEvent(AccessibilityEvent event) {
      // A copy: the framework recycles the event once it is sent.
      AccessibilityEvent copy = AccessibilityEvent.obtain(event);
      super.sendAccessibilityEvent(event);
      RoboSystem s = RoboSystem.current;
      if (s != null) s.deliver(copy);
    }
  }

  /**
   * Robolectric's own AbsListView shadow records smoothScrollBy / smoothScrollToPosition instead of
   * scrolling, and keeps the scroll listener to itself — so a list's ACTION_SCROLL_FORWARD (which is
   * smoothScrollBy) never moved. Android's own code runs here instead.
   */
  @Implements(AbsListView.class)
  public static class Lists extends ShadowAbsListView {
    @org.robolectric.annotation.RealObject AbsListView real;

    @Implementation
    @Override
    protected void smoothScrollBy(int distance, int duration) {
      Reflector.reflector(ListsReflector.class, real).smoothScrollBy(distance, duration);
    }

    @Implementation
    @Override
    protected void smoothScrollToPosition(int position) {
      Reflector.reflector(ListsReflector.class, real).smoothScrollToPosition(position);
    }

    @Implementation
    @Override
    protected void setOnScrollListener(AbsListView.OnScrollListener l) {
      super.setOnScrollListener(l);
      Reflector.reflector(ListsReflector.class, real).setOnScrollListener(l);
    }
  }

  /** AbsListView's own methods, past the shadow. */
  @ForType(AbsListView.class)
  public interface ListsReflector {
    @Direct
    void smoothScrollBy(int distance, int duration);

    @Direct
    void smoothScrollToPosition(int position);

    @Direct
    void setOnScrollListener(AbsListView.OnScrollListener l);
  }

  /**
   * The graphics driver's part of Bitmap.wrapHardwareBuffer: Robolectric's HardwareBuffer has no
   * memory, so a screenshot's buffer is wrapped as the image RoboScreen composed for it (a software
   * bitmap; the helper copies it to ARGB_8888 as it copies a hardware one). Every other bitmap call
   * is Robolectric's native graphics.
   */
  @Implements(value = Bitmap.class, minSdk = 26, isInAndroidSdk = false, callNativeMethodsByDefault = true)
  public static class Pixels extends ShadowNativeBitmap {
    @Implementation(minSdk = 29)
    protected static Bitmap nativeWrapHardwareBufferBitmap(HardwareBuffer buffer, long nativeColorSpace) {
      RoboSystem s = RoboSystem.current;
      Bitmap composed = s == null ? null : s.screen.pixelsOf(buffer);
      return composed != null ? composed : ShadowNativeBitmap.nativeWrapHardwareBufferBitmap(buffer, nativeColorSpace);
    }
  }

  /** ListView's shadow, under Lists (Robolectric's ShadowListView adds no behaviour of its own). */
  @Implements(android.widget.ListView.class)
  public static class ListViews extends Lists {}
}
