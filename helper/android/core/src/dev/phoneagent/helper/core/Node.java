package dev.phoneagent.helper.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One node of a snapshot, in pre-order. `handle` is the platform's own object (AccessibilityNodeInfo). */
public final class Node {
  public int id;
  public int parent = -1;
  public int window;
  public String className = "android.view.View";
  public String pkg = "";
  public String text = "";
  public String desc = "";
  public String resourceId = "";
  public String hint;
  /** Android reports an empty field's hint as its text (isShowingHintText, API 26+): then it holds nothing. */
  public boolean showingHint;
  public Rect bounds = new Rect(0, 0, 0, 0);
  public boolean clickable, longClickable, editable, scrollable, checkable, checked, enabled = true;
  public boolean focusable, focused, selected, password, visible = true;
  /** A range (seek bars): null when the node has none. */
  public Double rangeMin, rangeMax, rangeCurrent;
  /** UTF-16 selection; -1 when the node reports none. */
  public int selStart = -1, selEnd = -1;
  public List<String> actions = new ArrayList<String>();
  public Object handle;

  public boolean hasRange() {
    return rangeMin != null && rangeMax != null && rangeCurrent != null;
  }

  /** The text a client may see: never a password's. */
  public String visibleText() {
    return password ? "" : text;
  }

  /** The characters in the field, what UTF-16 indices count: empty while it shows its hint. */
  public String editText() {
    return showingHint ? "" : text;
  }

  public Map<String, Object> flagsJson() {
    return Json.obj(
        "clickable", clickable, "longClickable", longClickable, "editable", editable, "scrollable", scrollable,
        "checkable", checkable, "checked", checked, "enabled", enabled, "focusable", focusable, "focused",
        focused, "selected", selected, "password", password, "visible", visible);
  }

  public Map<String, Object> rangeJson() {
    return hasRange() ? Json.obj("min", rangeMin, "max", rangeMax, "current", rangeCurrent) : null;
  }

  public Map<String, Object> selectionJson() {
    return selStart >= 0 && selEnd >= 0 ? Json.obj("start", selStart, "end", selEnd) : null;
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m =
        Json.obj(
            "id", id, "parent", parent, "window", window, "className", className, "package", pkg, "text",
            visibleText(), "desc", desc, "resourceId", resourceId);
    if (hint != null) m.put("hint", hint);
    m.put("bounds", bounds.toJson());
    m.put("flags", flagsJson());
    m.put("range", rangeJson());
    m.put("selection", selectionJson());
    m.put("actions", new ArrayList<Object>(actions));
    return m;
  }

  public String shortClass() {
    return className.substring(className.lastIndexOf('.') + 1);
  }
}
