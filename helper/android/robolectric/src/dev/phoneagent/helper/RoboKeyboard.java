package dev.phoneagent.helper;

import android.os.Process;
import android.view.View;
import android.view.inputmethod.EditorInfo;
import android.view.inputmethod.InputBinding;
import android.view.inputmethod.InputConnection;
import android.view.inputmethod.InputMethod;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.Callable;
import org.robolectric.Robolectric;
import org.robolectric.android.controller.ServiceController;

/**
 * The input-method manager's part: with the helper keyboard as the current IME, the focused text
 * editor's own InputConnection (EditText.onCreateInputConnection) is bound to it, and every call the
 * IME makes on it runs on the app's main thread, as the binder hop to the app does on a phone.
 */
final class RoboKeyboard {
  private ServiceController<HelperIme> controller;
  private HelperIme ime;
  private View bound;
  /** The editor info of the field bound last (imeOptions, inputType): what the IME was told. */
  EditorInfo editorInfo;

  HelperIme start() {
    controller = Robolectric.buildService(HelperIme.class).create();
    ime = controller.get();
    return ime;
  }

  void stop() {
    if (controller != null) controller.destroy();
    controller = null;
    ime = null;
    bound = null;
  }

  /** Main thread: start input on the focused editor of the focused window when it changed. */
  void follow(List<RoboWindows.Entry> windows) {
    if (ime == null) return;
    View focus = null;
    for (int k = windows.size() - 1; k >= 0 && focus == null; k--) {
      View root = windows.get(k).root;
      if (root.hasWindowFocus()) focus = root.findFocus();
    }
    if (focus == bound) return;
    bound = focus;
    InputMethod im = (InputMethod) ime.onCreateInputMethodInterface();
    if (focus == null || !focus.onCheckIsTextEditor()) {
      im.unbindInput();
      return;
    }
    EditorInfo ei = new EditorInfo();
    final InputConnection ic = focus.onCreateInputConnection(ei);
    editorInfo = ei;
    InputConnection remote = onMain(ic);
    // As InputMethodManagerService does: bind the client, then start input with the field's EditorInfo.
    im.bindInput(new InputBinding(remote, null, Process.myUid(), Process.myPid()));
    im.startInput(remote, ei);
  }

  /**
   * The connection as the IME's process sees it (RemoteInputConnection / InputConnectionWrapper):
   * each call hops to the app's main thread, and an editing call answers true once delivered, as
   * the one-way binder call does — the app side's own answer (BaseInputConnection.sendKeyEvent is
   * always false) never reaches the IME.
   */
  static InputConnection onMain(final InputConnection ic) {
    return (InputConnection) Proxy.newProxyInstance(InputConnection.class.getClassLoader(), new Class<?>[] {InputConnection.class},
        new InvocationHandler() {
          @Override
          public Object invoke(Object proxy, final Method m, final Object[] args) throws Throwable {
            return RoboSystem.current.onMain(new Callable<Object>() {
              @Override
              public Object call() throws Exception {
                try {
                  Object out = m.invoke(ic, args);
                  return m.getReturnType() == boolean.class && !m.getName().startsWith("get") ? Boolean.TRUE : out;
                } catch (InvocationTargetException e) {
                  throw (Exception) e.getCause();
                }
              }
            });
          }
        });
  }
}
