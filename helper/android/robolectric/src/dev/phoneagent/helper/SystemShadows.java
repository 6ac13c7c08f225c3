package dev.phoneagent.helper;

import android.accessibilityservice.AccessibilityService;
import android.accessibilityservice.GestureDescription;
import android.os.Handler;
import android.view.accessibility.AccessibilityEvent;
import android.view.accessibility.AccessibilityManager;
import android.view.accessibility.AccessibilityWindowInfo;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import org.robolectric.annotation.Implementation;
import org.robolectric.annotation.Implements;
import org.robolectric.shadows.ShadowAccessibilityManager;
import org.robolectric.shadows.ShadowAccessibilityService;

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
}
