package dev.phoneagent.helper.core;

import java.util.Map;

/** One window of a snapshot (PROTOCOL.md §5): a higher layer is drawn above a lower one. */
public final class Win {
  public int id;
  /** application, dialog, system, input_method, status_bar, navigation_bar, notification, toast, overlay */
  public String type = "application";
  public int layer;
  public Rect bounds = new Rect(0, 0, 0, 0);
  public String pkg = "";
  public String title = "";
  public boolean focused;
  public boolean touchable = true;

  /**
   * A modal window (a dialog, a focused system window) takes every touch outside it too: nothing
   * reaches an app, dialog or system window below it (core/modal.ts, the same rule in TypeScript).
   */
  public boolean takesTouchesBelow(Win below) {
    boolean modal = type.equals("dialog") || (type.equals("system") && focused);
    return modal && (below.type.equals("application") || below.type.equals("dialog") || below.type.equals("system"));
  }

  /** Windows an agent may target (§7): the foreground app's, dialogs, system and notification windows. */
  public boolean targetable(String foreground) {
    if (type.equals("application")) return pkg.equals(foreground);
    return type.equals("dialog") || type.equals("system") || type.equals("notification");
  }

  public Map<String, Object> toJson() {
    return Json.obj(
        "id", id, "type", type, "layer", layer, "bounds", bounds.toJson(), "package", pkg, "title", title,
        "focused", focused, "touchable", touchable);
  }
}
