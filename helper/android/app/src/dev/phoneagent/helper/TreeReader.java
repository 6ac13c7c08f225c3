package dev.phoneagent.helper;

import android.accessibilityservice.AccessibilityService;
import android.graphics.Rect;
import android.os.Build;
import android.view.accessibility.AccessibilityNodeInfo;
import android.view.accessibility.AccessibilityNodeInfo.AccessibilityAction;
import android.view.accessibility.AccessibilityWindowInfo;
import dev.phoneagent.helper.core.Device;
import dev.phoneagent.helper.core.Node;
import dev.phoneagent.helper.core.Tree;
import dev.phoneagent.helper.core.Win;
import java.util.List;

/**
 * Reads every interactive window (AccessibilityService.getWindows, with window layers) into the
 * core's Tree, nodes in pre-order. Window types map onto the protocol's; the keyboard's bounds come
 * from the input-method window, so occlusion subtracts it like any higher window.
 */
final class TreeReader {
  private TreeReader() {}

  static final int MAX_NODES = 5000;

  static Tree read(AccessibilityService s, long seq, long now) throws Device.ReadFailed {
    return read(s, seq, now, null, null);
  }

  /**
   * Every window; with `viewId` or `text`, only the nodes Android's own query finds in each window
   * (findAccessibilityNodeInfosByViewId / ByText: one call per window, no walk) — a guarded touch's
   * lookup (PROTOCOL.md §7). An empty lookup is an answer, not a failed read.
   */
  static Tree read(AccessibilityService s, long seq, long now, String viewId, String text) throws Device.ReadFailed {
    List<AccessibilityWindowInfo> windows = s.getWindows();
    if (windows == null || windows.isEmpty()) throw new Device.ReadFailed("no windows (the service is not yet bound)");
    boolean lookup = viewId != null || text != null;
    Tree t = new Tree();
    t.seq = seq;
    t.takenAt = now;
    Rect r = new Rect();
    String foreground = null;
    for (AccessibilityWindowInfo w : windows) {
      Win win = new Win();
      win.id = w.getId();
      win.layer = w.getLayer();
      w.getBoundsInScreen(r);
      win.bounds = new dev.phoneagent.helper.core.Rect(r.left, r.top, r.right, r.bottom);
      win.focused = w.isFocused();
      CharSequence title = Build.VERSION.SDK_INT >= 24 ? w.getTitle() : null;
      win.title = title == null ? "" : title.toString();
      win.type = type(w, win.title);
      AccessibilityNodeInfo root = w.getRoot();
      win.pkg = root != null && root.getPackageName() != null ? root.getPackageName().toString() : "";
      t.windows.add(win);
      if (win.type.equals("input_method")) {
        t.keyboardShown = true;
        t.keyboardBounds = win.bounds;
      }
      // The foreground app: the active (else focused, else topmost) application window.
      if (win.type.equals("application") && (foreground == null || w.isActive())) foreground = win.pkg;
      if (root == null) continue;
      if (!lookup) walk(t, root, -1, win);
      else {
        List<AccessibilityNodeInfo> found =
            viewId != null ? root.findAccessibilityNodeInfosByViewId(viewId) : root.findAccessibilityNodeInfosByText(text);
        if (found != null) for (AccessibilityNodeInfo info : found) t.nodes.add(node(t, info, -1, win));
      }
    }
    t.foregroundPackage = foreground == null ? "" : foreground;
    if (!lookup && t.nodes.isEmpty()) throw new Device.ReadFailed("every window was empty (transition or secure surface)");
    return t;
  }

  /** System windows are told apart by their title (API 24+): the bars are never targets, notifications are. */
  static String type(AccessibilityWindowInfo w, String title) {
    if (w.getType() == AccessibilityWindowInfo.TYPE_SYSTEM) {
      String low = title.toLowerCase(java.util.Locale.ROOT);
      if (low.contains("status bar")) return "status_bar";
      if (low.contains("navigation bar")) return "navigation_bar";
      if (low.contains("notification")) return "notification";
    }
    switch (w.getType()) {
      case AccessibilityWindowInfo.TYPE_APPLICATION:
        return "application";
      case AccessibilityWindowInfo.TYPE_INPUT_METHOD:
        return "input_method";
      case AccessibilityWindowInfo.TYPE_ACCESSIBILITY_OVERLAY:
        return "overlay";
      case AccessibilityWindowInfo.TYPE_SPLIT_SCREEN_DIVIDER:
        return "system";
      default:
        return "system";
    }
  }

  static void walk(Tree t, AccessibilityNodeInfo info, int parent, Win w) {
    if (t.nodes.size() >= MAX_NODES) return;
    Node n = node(t, info, parent, w);
    t.nodes.add(n);
    int me = n.id;
    for (int i = 0; i < info.getChildCount(); i++) {
      AccessibilityNodeInfo c = info.getChild(i);
      if (c != null) walk(t, c, me, w);
    }
  }

  /** One node's fields (its id is its index in the tree it will join). */
  static Node node(Tree t, AccessibilityNodeInfo info, int parent, Win w) {
    Node n = new Node();
    n.id = t.nodes.size();
    n.parent = parent;
    n.window = w.id;
    n.className = str(info.getClassName());
    n.pkg = str(info.getPackageName());
    n.password = info.isPassword();
    n.text = n.password ? "" : str(info.getText());
    n.desc = str(info.getContentDescription());
    n.resourceId = str(info.getViewIdResourceName());
    if (Build.VERSION.SDK_INT >= 26 && info.getHintText() != null) n.hint = info.getHintText().toString();
    // An empty field reports its hint as its text (Robolectric at 26/30/34): text edits must not keep it.
    n.showingHint = Build.VERSION.SDK_INT >= 26 && info.isShowingHintText();
    Rect r = new Rect();
    info.getBoundsInScreen(r);
    n.bounds = new dev.phoneagent.helper.core.Rect(r.left, r.top, r.right, r.bottom);
    n.clickable = info.isClickable();
    n.longClickable = info.isLongClickable();
    n.editable = info.isEditable();
    n.scrollable = info.isScrollable();
    n.checkable = info.isCheckable();
    n.checked = info.isChecked();
    n.enabled = info.isEnabled();
    n.focusable = info.isFocusable();
    n.focused = info.isFocused();
    n.selected = info.isSelected();
    n.visible = info.isVisibleToUser();
    AccessibilityNodeInfo.RangeInfo range = info.getRangeInfo();
    if (range != null) {
      n.rangeMin = (double) range.getMin();
      n.rangeMax = (double) range.getMax();
      n.rangeCurrent = (double) range.getCurrent();
    }
    if (n.editable) {
      n.selStart = info.getTextSelectionStart();
      n.selEnd = info.getTextSelectionEnd();
    }
    for (AccessibilityAction a : info.getActionList()) {
      String name = actionName(a.getId());
      if (name != null && !n.actions.contains(name)) n.actions.add(name);
    }
    if (n.editable && n.actions.contains("set_text") && !n.password) n.actions.add("replace_selection");
    // The helper keyboard's enter key acts on the field it edits, at any API level (ACTION_IME_ENTER is 30+).
    if (n.editable && n.focused && !n.actions.contains("ime_enter") && HelperIme.bound()) n.actions.add("ime_enter");
    n.handle = info;
    return n;
  }

  static String actionName(int id) {
    if (id == AccessibilityNodeInfo.ACTION_CLICK) return "click";
    if (id == AccessibilityNodeInfo.ACTION_LONG_CLICK) return "long_click";
    if (id == AccessibilityNodeInfo.ACTION_FOCUS) return "focus";
    if (id == AccessibilityNodeInfo.ACTION_SCROLL_FORWARD) return "scroll_forward";
    if (id == AccessibilityNodeInfo.ACTION_SCROLL_BACKWARD) return "scroll_backward";
    if (id == AccessibilityNodeInfo.ACTION_SET_TEXT) return "set_text";
    if (id == AccessibilityNodeInfo.ACTION_SET_SELECTION) return "set_selection";
    if (id == AccessibilityAction.ACTION_SHOW_ON_SCREEN.getId()) return "show_on_screen";
    if (id == AccessibilityAction.ACTION_SET_PROGRESS.getId()) return "set_progress";
    if (Build.VERSION.SDK_INT >= 30 && id == AccessibilityAction.ACTION_IME_ENTER.getId()) return "ime_enter";
    return null;
  }

  static String str(CharSequence c) {
    return c == null ? "" : c.toString();
  }
}
