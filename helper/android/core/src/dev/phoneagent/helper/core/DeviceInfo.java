package dev.phoneagent.helper.core;

import java.util.LinkedHashSet;
import java.util.Set;

/** What hello reports: the platform, the screen and the capabilities this API level has. */
public final class DeviceInfo {
  public int apiLevel;
  public String manufacturer = "";
  public String model = "";
  public String androidVersion = "";
  public int width, height, rotation, density;
  public Set<String> capabilities = new LinkedHashSet<String>();

  /**
   * Capabilities by API level (PROTOCOL.md §5): gestures need dispatchGesture (24); multi-finger
   * touch_gesture with continued strokes and pinch need 26; the screenshot API needs 30.
   */
  public static Set<String> capabilitiesFor(int api, boolean imeAvailable) {
    Set<String> c = new LinkedHashSet<String>();
    c.add("tap");
    c.add("long_press");
    c.add("swipe");
    if (api >= 26) {
      c.add("touch_gesture");
      c.add("pinch");
    }
    c.add("key");
    c.add("set_text");
    if (imeAvailable) c.add("ime_commit");
    c.add("launch_app");
    c.add("read_control");
    c.add("control_action");
    c.add("wait_until");
    c.add("scroll_to");
    c.add("action_sequence");
    c.add("snapshot");
    if (api >= 30) {
      c.add("screenshot");
      c.add("screenshot_jpeg");
    }
    c.add("cancel");
    c.add("compat_action");
    c.add("guarded_touch");
    c.add("list_apps");
    return c;
  }
}
