package dev.phoneagent.helper;

import android.app.Activity;
import android.content.Context;
import android.content.ContextWrapper;
import android.graphics.Rect;
import android.graphics.Region;
import android.view.View;
import android.view.ViewRootImpl;
import android.view.WindowManager;
import android.view.WindowManagerGlobal;
import android.view.accessibility.AccessibilityWindowInfo;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.robolectric.shadow.api.Shadow;
import org.robolectric.shadows.ShadowViewRootImpl;

/**
 * The window manager's side of accessibility: every window Android would show (WindowManagerGlobal's
 * roots, less the windows of activities in the background) as AccessibilityWindowInfo with the
 * system's type mapping, z-order as layer, screen bounds, focus, and the connection id the helper's
 * node queries go through. Window ids are stable per ViewRootImpl and written into its AttachInfo,
 * as the system does when it registers a window's interaction connection.
 */
final class RoboWindows implements InteractionBridge.Windows {
  /** One listed window. */
  static final class Entry {
    int id;
    View root;
    ViewRootImpl vri;
    WindowManager.LayoutParams params;
    Activity owner;
    String pkg;
  }

  interface Visibility {
    /** False for windows of an activity that is not in the foreground. */
    boolean shown(Activity owner);

    /** The package an activity's task plays (RoboApps gives each test app its own). */
    String packageOf(Activity owner);

    /** The activity a window belongs to (an activity's decor, its dialogs and popups), or null. */
    Activity ownerOf(View root);
  }

  private final Map<ViewRootImpl, Integer> ids = new IdentityHashMap<ViewRootImpl, Integer>();
  private final Map<ViewRootImpl, Object> connections = new IdentityHashMap<ViewRootImpl, Object>();
  private volatile List<Entry> last = new ArrayList<Entry>();
  private final Visibility visibility;
  private int nextId = 10;

  RoboWindows(Visibility visibility) {
    this.visibility = visibility;
  }

  /** The windows on screen, bottom first. Main thread only: it reads the view hierarchy. */
  List<Entry> current() {
    List<Entry> out = new ArrayList<Entry>();
    try {
      WindowManagerGlobal g = WindowManagerGlobal.getInstance();
      List<?> roots = (List<?>) field(g, "mRoots");
      List<?> views = (List<?>) field(g, "mViews");
      List<?> params = (List<?>) field(g, "mParams");
      for (int i = 0; i < roots.size(); i++) {
        View root = (View) views.get(i);
        if (root.getVisibility() != View.VISIBLE || !root.isAttachedToWindow()) continue;
        Entry e = new Entry();
        e.vri = (ViewRootImpl) roots.get(i);
        e.root = root;
        e.params = (WindowManager.LayoutParams) params.get(i);
        e.owner = visibility.ownerOf(root);
        boolean shown = e.owner == null || visibility.shown(e.owner);
        // The window manager shows the foreground activity's windows and hides the others'.
        if (((Boolean) field(roots.get(i), "mAppVisible")) != shown) ((ViewRootImpl) roots.get(i)).dispatchAppVisibility(shown);
        if (!shown) continue;
        e.pkg = e.owner != null ? visibility.packageOf(e.owner) : root.getContext().getPackageName();
        Integer id = ids.get(e.vri);
        if (id == null) ids.put(e.vri, id = nextId++);
        e.id = id;
        Object attach = field(e.vri, "mAttachInfo");
        Field f = attach.getClass().getDeclaredField("mAccessibilityWindowId");
        f.setAccessible(true);
        f.setInt(attach, id);
        out.add(e);
      }
    } catch (ReflectiveOperationException x) {
      throw new IllegalStateException("cannot list the windows: " + x, x);
    }
    last = out;
    return out;
  }

  /**
   * The window manager's input focus: the topmost shown window that can take focus (no
   * FLAG_NOT_FOCUSABLE — a dialog, a focusable popup) has it, every other window not. Main thread.
   */
  void focusTopmost(List<Entry> shown) {
    Entry target = null;
    for (int i = shown.size() - 1; i >= 0 && target == null; i--)
      if ((shown.get(i).params.flags & WindowManager.LayoutParams.FLAG_NOT_FOCUSABLE) == 0) target = shown.get(i);
    for (Entry e : shown) {
      boolean want = e == target;
      if (e.root.hasWindowFocus() != want) ((ShadowViewRootImpl) Shadow.extract(e.vri)).callWindowFocusChanged(want);
    }
  }

  /** AccessibilityWindowInfo for each window, as AccessibilityService.getWindows reports them. */
  List<AccessibilityWindowInfo> infos() {
    List<Entry> entries = current();
    Entry focused = null;
    for (Entry e : entries) if (e.root.hasWindowFocus()) focused = e;
    List<AccessibilityWindowInfo> out = new ArrayList<AccessibilityWindowInfo>();
    for (int layer = 0; layer < entries.size(); layer++) {
      Entry e = entries.get(layer);
      AccessibilityWindowInfo w = AccessibilityWindowInfo.obtain();
      w.setId(e.id);
      w.setType(typeOf(e.params.type));
      w.setLayer(layer);
      w.setFocused(e == focused);
      w.setActive(e == focused);
      w.setTitle(e.params.getTitle());
      w.setConnectionId(InteractionBridge.CONNECTION_ID);
      int[] at = new int[2];
      e.root.getLocationOnScreen(at);
      setBounds(w, new Rect(at[0], at[1], at[0] + e.root.getWidth(), at[1] + e.root.getHeight()));
      out.add(w);
    }
    return out;
  }

  /** AccessibilityWindowManager's mapping of window-manager types onto accessibility types. */
  static int typeOf(int wmType) {
    if (wmType >= WindowManager.LayoutParams.FIRST_APPLICATION_WINDOW && wmType <= WindowManager.LayoutParams.LAST_APPLICATION_WINDOW)
      return AccessibilityWindowInfo.TYPE_APPLICATION;
    if (wmType >= WindowManager.LayoutParams.FIRST_SUB_WINDOW && wmType <= WindowManager.LayoutParams.LAST_SUB_WINDOW)
      return AccessibilityWindowInfo.TYPE_APPLICATION;
    if (wmType == WindowManager.LayoutParams.TYPE_INPUT_METHOD || wmType == WindowManager.LayoutParams.TYPE_INPUT_METHOD_DIALOG)
      return AccessibilityWindowInfo.TYPE_INPUT_METHOD;
    if (wmType == WindowManager.LayoutParams.TYPE_ACCESSIBILITY_OVERLAY) return AccessibilityWindowInfo.TYPE_ACCESSIBILITY_OVERLAY;
    return AccessibilityWindowInfo.TYPE_SYSTEM;
  }

  private static void setBounds(AccessibilityWindowInfo w, Rect r) {
    try {
      // API 26–29 keep a Rect; 30+ a Region (setRegionInScreen, from API 33 the only setter).
      for (Method m : AccessibilityWindowInfo.class.getMethods()) {
        if (m.getName().equals("setRegionInScreen")) {
          m.invoke(w, new Region(r));
          return;
        }
      }
      AccessibilityWindowInfo.class.getMethod("setBoundsInScreen", Rect.class).invoke(w, r);
    } catch (ReflectiveOperationException x) {
      throw new IllegalStateException("cannot set window bounds: " + x, x);
    }
  }

  Entry entry(int windowId) {
    for (Entry e : last) if (e.id == windowId) return e;
    return null;
  }

  @Override
  public synchronized Object connection(int windowId) {
    Entry e = entry(windowId);
    if (e == null) return null;
    Object c = connections.get(e.vri);
    if (c != null) return c;
    try {
      Class<?> k = Class.forName("android.view.ViewRootImpl$AccessibilityInteractionConnection");
      Constructor<?> make = k.getDeclaredConstructor(ViewRootImpl.class);
      make.setAccessible(true);
      c = make.newInstance(e.vri);
    } catch (ReflectiveOperationException x) {
      throw new IllegalStateException("cannot open the window's interaction connection: " + x, x);
    }
    connections.put(e.vri, c);
    return c;
  }

  @Override
  public String owner(int windowId) {
    Entry e = entry(windowId);
    return e == null ? null : e.pkg;
  }

  static Activity activityOf(Context c) {
    while (c instanceof ContextWrapper) {
      if (c instanceof Activity) return (Activity) c;
      c = ((ContextWrapper) c).getBaseContext();
    }
    return null;
  }

  static Object field(Object o, String name) throws ReflectiveOperationException {
    for (Class<?> k = o.getClass(); k != null; k = k.getSuperclass()) {
      try {
        Field f = k.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
      } catch (NoSuchFieldException next) {
        // the field is declared further up
      }
    }
    throw new NoSuchFieldException(name + " in " + o.getClass());
  }
}
