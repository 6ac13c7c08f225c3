package dev.phoneagent.helper;

import android.accessibilityservice.IAccessibilityServiceConnection;
import android.graphics.Region;
import android.os.Bundle;
import android.os.Process;
import android.view.accessibility.AccessibilityEvent;
import android.view.accessibility.AccessibilityInteractionClient;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

/**
 * What system_server's accessibility connection does for a service, in one process: the helper's
 * AccessibilityNodeInfo / AccessibilityWindowInfo calls go through Android's own
 * AccessibilityInteractionClient (with its node cache) to this IAccessibilityServiceConnection,
 * which hands them to the window's own ViewRootImpl.AccessibilityInteractionConnection — the
 * framework's AccessibilityInteractionController then builds the nodes and performs the actions on
 * the UI thread, as on a phone. The service's fetch flags (flagReportViewIds,
 * flagIncludeNotImportantViews) are added as AccessibilityManagerService adds them.
 */
final class InteractionBridge implements InvocationHandler {
  static final int CONNECTION_ID = 4711;

  interface Windows {
    /** The window's ViewRootImpl.AccessibilityInteractionConnection, or null when it is gone. */
    Object connection(int windowId);

    /** The package that owns the window (what the system reports beside each node, API 30+). */
    String owner(int windowId);
  }

  private final Windows windows;
  private final int fetchFlags;

  private InteractionBridge(Windows windows, int fetchFlags) {
    this.windows = windows;
    this.fetchFlags = fetchFlags;
  }

  /** Register the connection with the client, as the system does when it binds the service. */
  static void install(Windows windows, int fetchFlags) throws Exception {
    IAccessibilityServiceConnection c =
        (IAccessibilityServiceConnection) Proxy.newProxyInstance(
            IAccessibilityServiceConnection.class.getClassLoader(),
            new Class<?>[] {IAccessibilityServiceConnection.class},
            new InteractionBridge(windows, fetchFlags));
    for (Method m : AccessibilityInteractionClient.class.getMethods()) {
      if (!m.getName().equals("addConnection")) continue;
      // API 26: an instance method; 30: static (id, connection); 34: static (id, connection, initializeCache).
      Object target = java.lang.reflect.Modifier.isStatic(m.getModifiers()) ? null : AccessibilityInteractionClient.getInstance();
      if (m.getParameterTypes().length == 3) m.invoke(target, CONNECTION_ID, c, true);
      else m.invoke(target, CONNECTION_ID, c);
      return;
    }
    throw new IllegalStateException("AccessibilityInteractionClient has no addConnection on this SDK");
  }

  /** The system forwards every event to the service's client first: it keeps the node cache fresh. */
  static void clientSees(AccessibilityEvent e) throws Exception {
    AccessibilityInteractionClient client = AccessibilityInteractionClient.getInstance();
    for (Method m : AccessibilityInteractionClient.class.getMethods()) {
      if (!m.getName().equals("onAccessibilityEvent")) continue;
      if (m.getParameterTypes().length == 2) m.invoke(client, e, CONNECTION_ID);
      else m.invoke(client, e);
      return;
    }
  }

  @Override
  public Object invoke(Object proxy, Method m, Object[] a) throws Throwable {
    String name = m.getName();
    if (System.getProperty("phoneagent.debug") != null) System.out.println("bridge " + name + " " + java.util.Arrays.toString(a));
    if (name.equals("findAccessibilityNodeInfoByAccessibilityId"))
      // (window, node, interaction, callback, flags, thread, arguments)
      return forward(m, (Integer) a[0], name, (Long) a[1], new Object[0], (Integer) a[2], a[3], (Integer) a[4], (Long) a[5], (Bundle) a[6]);
    if (name.equals("findAccessibilityNodeInfosByText") || name.equals("findAccessibilityNodeInfosByViewId"))
      // (window, node, text, interaction, callback, thread)
      return forward(m, (Integer) a[0], name, (Long) a[1], new Object[] {a[2]}, (Integer) a[3], a[4], 0, (Long) a[5], null);
    if (name.equals("findFocus"))
      return forward(m, (Integer) a[0], name, (Long) a[1], new Object[] {a[2]}, (Integer) a[3], a[4], 0, (Long) a[5], null);
    if (name.equals("performAccessibilityAction")) {
      // (window, node, action, arguments, interaction, callback, thread)
      Object conn = windows.connection((Integer) a[0]);
      if (conn == null) return Boolean.FALSE;
      Method target = method(conn, name);
      target.invoke(conn, a[1], a[2], a[3], a[4], a[5], fetchFlags, Process.myPid(), a[6]);
      return Boolean.TRUE;
    }
    return defaultValue(m.getReturnType());
  }

  /**
   * A find call: the connection's method takes (node, extras…, Region, interaction, callback,
   * flags, pid, thread, MagnificationSpec[, float[] matrix][, Bundle]) — the matrix from API 33.
   */
  private Object forward(Method m, int windowId, String name, long node, Object[] extras, int interaction, Object callback, int flags, long thread, Bundle args)
      throws Exception {
    Object conn = windows.connection(windowId);
    if (conn == null) return m.getReturnType() == boolean.class ? Boolean.FALSE : null;
    Method target = method(conn, name);
    Class<?>[] p = target.getParameterTypes();
    List<Object> call = new ArrayList<Object>();
    call.add(node);
    for (Object x : extras) call.add(x);
    call.add((Region) null); // the interactive region: the whole window
    call.add(interaction);
    call.add(callback);
    call.add(flags | fetchFlags);
    call.add(Process.myPid());
    call.add(thread);
    while (call.size() < p.length) {
      Class<?> t = p[call.size()];
      if (t == float[].class) call.add(new float[] {1, 0, 0, 0, 1, 0, 0, 0, 1});
      else if (t == Bundle.class) call.add(args);
      else call.add(null); // MagnificationSpec: none
    }
    target.invoke(conn, call.toArray());
    if (m.getReturnType() == boolean.class) return Boolean.TRUE;
    String owner = windows.owner(windowId);
    return owner == null ? new String[0] : new String[] {owner};
  }

  private static Method method(Object conn, String name) {
    for (Method x : conn.getClass().getMethods()) if (x.getName().equals(name)) return x;
    throw new IllegalStateException("the window's interaction connection has no " + name);
  }

  private static Object defaultValue(Class<?> t) {
    if (t == boolean.class) return Boolean.FALSE;
    if (t == int.class) return 0;
    if (t == long.class) return 0L;
    if (t == float.class) return 0f;
    return null;
  }
}
