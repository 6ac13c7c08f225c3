package dev.phoneagent.helper.core;

import java.util.List;

/**
 * The platform under the protocol: the Android AccessibilityService on a phone, a scripted tree on the
 * JVM. Every method is one primitive; the protocol's rules (selectors, occlusion, tokens, UTF-16,
 * receipts) live in the core and are the same for both.
 */
public interface Device {
  DeviceInfo info();

  /** Read every interactive window. Throws ReadFailed when the tree could not be read. */
  Tree read() throws ReadFailed;

  /**
   * A guarded touch's lookup (PROTOCOL.md §7): every window, but only the nodes the platform's own
   * query finds — by view id (`viewId`), else containing `text` in their text or description, case
   * insensitive — without walking the tree. Null when the platform has no such query (the core then
   * reads the whole tree).
   */
  Tree lookup(String viewId, String text) throws ReadFailed;

  /** Inject strokes; true when Android reported the gesture completed. */
  boolean gesture(List<Stroke> strokes) throws InterruptedException;

  /** back, home, recents, enter, delete, search, menu. */
  boolean key(String key);

  /**
   * A native action on a node from the latest read: click, long_click, focus, show_on_screen,
   * scroll_forward, scroll_backward, ime_enter, set_progress (value), set_text (text),
   * set_selection (start, end).
   */
  boolean nodeAction(Node node, String op, Double value, String text, int start, int end);

  /** Commit text at the cursor through the helper's IME; false when the IME is not the active one. */
  boolean commitText(String text);

  /** Launcher entries (MAIN/LAUNCHER): [label, package] or [label, package, activity]. */
  List<String[]> launchables();

  boolean launch(String pkg, String activity);

  /** A screenshot, or null where the OS has no screenshot API. */
  Image screenshot(String format, double scale, int quality);

  /** The phone's clock, ms. */
  long now();

  void sleep(long ms) throws InterruptedException;

  final class ReadFailed extends Exception {
    public ReadFailed(String message) {
      super(message);
    }
  }

  final class Image {
    public String format;
    public int width, height, offsetY;
    public byte[] bytes;
  }
}
