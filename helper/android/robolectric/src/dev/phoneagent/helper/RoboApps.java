package dev.phoneagent.helper;

import static org.robolectric.Shadows.shadowOf;

import android.app.Activity;
import android.content.ComponentName;
import android.content.Intent;
import android.content.IntentFilter;
import android.content.pm.ActivityInfo;
import android.content.pm.ApplicationInfo;
import android.content.pm.PackageInfo;
import android.view.KeyEvent;
import android.view.View;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.robolectric.Robolectric;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.android.controller.ActivityController;
import org.robolectric.shadows.ShadowLooper;
import org.robolectric.shadows.ShadowPackageManager;

/**
 * The activity manager's part: launcher entries in the package manager, one task per package, the
 * foreground task's top activity as the only one shown, back (a key to the focused window; a
 * finished activity is destroyed and the one below it resumed) and home (the launcher's task to the
 * front). One Robolectric process hosts every test app; each plays its own package (RoboApp).
 */
final class RoboApps implements RoboWindows.Visibility {
  private final List<ActivityController<? extends Activity>> stack = new ArrayList<ActivityController<? extends Activity>>();
  private String launcherPackage;

  /** A launcher entry: MAIN/LAUNCHER for `main` in package `pkg`, labelled `label`. */
  void install(String pkg, String label, Class<? extends RoboApp> main, boolean isLauncher) {
    ShadowPackageManager pm = shadowOf(RuntimeEnvironment.getApplication().getPackageManager());
    PackageInfo p = new PackageInfo();
    p.packageName = pkg;
    p.applicationInfo = new ApplicationInfo();
    p.applicationInfo.packageName = pkg;
    p.applicationInfo.nonLocalizedLabel = label;
    pm.installPackage(p);
    ComponentName c = new ComponentName(pkg, main.getName());
    ActivityInfo a = pm.addActivityIfNotPresent(c);
    a.nonLocalizedLabel = label;
    a.applicationInfo = p.applicationInfo;
    IntentFilter f = new IntentFilter(Intent.ACTION_MAIN);
    f.addCategory(isLauncher ? Intent.CATEGORY_HOME : Intent.CATEGORY_LAUNCHER);
    if (!isLauncher) f.addCategory(Intent.CATEGORY_DEFAULT);
    pm.addIntentFilterForActivity(c, f);
    if (isLauncher) launcherPackage = pkg;
  }

  Activity top() {
    return stack.isEmpty() ? null : stack.get(stack.size() - 1).get();
  }

  /** Start what an intent names: its task to the front (NEW_TASK), or a new activity on top. */
  void start(Intent i) {
    ComponentName c = i.getComponent();
    if (c == null) throw new IllegalStateException("the test world starts only explicit intents, got " + i);
    String pkg = c.getPackageName();
    if ((i.getFlags() & Intent.FLAG_ACTIVITY_NEW_TASK) != 0 && toFront(pkg)) return;
    Class<? extends Activity> k;
    try {
      k = Class.forName(c.getClassName()).asSubclass(Activity.class);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("no test activity " + c.getClassName(), e);
    }
    background();
    stack.add(Robolectric.buildActivity(k, new Intent(i)).setup());
    focus();
  }

  void home() {
    if (launcherPackage != null) toFront(launcherPackage);
  }

  /** Back, as the system sends it: KEYCODE_BACK to the focused window, then the finished activities reaped. */
  void back(View focusedRoot) {
    if (focusedRoot == null) return;
    focusedRoot.dispatchKeyEvent(new KeyEvent(KeyEvent.ACTION_DOWN, KeyEvent.KEYCODE_BACK));
    focusedRoot.dispatchKeyEvent(new KeyEvent(KeyEvent.ACTION_UP, KeyEvent.KEYCODE_BACK));
  }

  /** Destroy finished activities; the new top resumes. Called by the pump after every step. */
  void reap() {
    boolean topGone = false;
    for (int i = stack.size() - 1; i >= 0; i--) {
      ActivityController<? extends Activity> c = stack.get(i);
      if (!c.get().isFinishing()) continue;
      topGone |= i == stack.size() - 1;
      c.pause().stop().destroy();
      stack.remove(i);
    }
    if (topGone && !stack.isEmpty()) {
      ActivityController<? extends Activity> c = stack.get(stack.size() - 1);
      c.restart().resume().visible();
      focus();
    }
  }

  /** The task of `pkg` to the front, in its order; false when it has none. */
  private boolean toFront(String pkg) {
    List<ActivityController<? extends Activity>> task = new ArrayList<ActivityController<? extends Activity>>();
    for (ActivityController<? extends Activity> c : stack) if (packageOf(c.get()).equals(pkg)) task.add(c);
    if (task.isEmpty()) return false;
    if (task.get(task.size() - 1) == stack.get(stack.size() - 1)) return true;
    background();
    stack.removeAll(task);
    stack.addAll(task);
    stack.get(stack.size() - 1).restart().resume().visible();
    focus();
    return true;
  }

  private void background() {
    if (stack.isEmpty()) return;
    ActivityController<? extends Activity> c = stack.get(stack.size() - 1);
    c.windowFocusChanged(false);
    c.pause().stop();
  }

  /** The window gets focus once it is laid out, which is at the next frame (vsync on the virtual clock). */
  private void focus() {
    ShadowLooper.idleMainLooper(RoboSystem.FRAME_MS, TimeUnit.MILLISECONDS);
    stack.get(stack.size() - 1).windowFocusChanged(true);
  }

  @Override
  public boolean shown(Activity owner) {
    return owner == top();
  }

  @Override
  public String packageOf(Activity owner) {
    return owner.getPackageName();
  }

  @Override
  public Activity ownerOf(View root) {
    for (ActivityController<? extends Activity> c : stack) if (c.get().getWindow().peekDecorView() == root) return c.get();
    return RoboWindows.activityOf(root.getContext());
  }

  /** Everything created, destroyed: the next test starts from nothing. */
  void clear() {
    for (int i = stack.size() - 1; i >= 0; i--) {
      ActivityController<? extends Activity> c = stack.get(i);
      if (!c.get().isDestroyed()) c.pause().stop().destroy();
    }
    stack.clear();
  }
}
