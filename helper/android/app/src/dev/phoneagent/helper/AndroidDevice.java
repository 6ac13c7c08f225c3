package dev.phoneagent.helper;

import android.accessibilityservice.AccessibilityService;
import android.accessibilityservice.GestureDescription;
import android.content.Context;
import android.content.Intent;
import android.content.pm.PackageManager;
import android.content.pm.ResolveInfo;
import android.graphics.Path;
import android.os.Build;
import android.os.Bundle;
import android.os.SystemClock;
import android.util.DisplayMetrics;
import android.view.KeyEvent;
import android.view.WindowManager;
import android.view.accessibility.AccessibilityNodeInfo;
import android.view.accessibility.AccessibilityNodeInfo.AccessibilityAction;
import android.view.inputmethod.InputMethodInfo;
import android.view.inputmethod.InputMethodManager;
import dev.phoneagent.helper.core.Device;
import dev.phoneagent.helper.core.DeviceInfo;
import dev.phoneagent.helper.core.Node;
import dev.phoneagent.helper.core.Stroke;
import dev.phoneagent.helper.core.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** The core's Device on Android: tree reads, node actions, dispatchGesture, global actions, the IME. */
final class AndroidDevice implements Device {
  private final AccessibilityService service;
  private final AtomicLong seq = new AtomicLong(1);
  /** API 30+ only (takeScreenshot); made on the first capture. */
  private Screenshots screenshots;

  AndroidDevice(AccessibilityService service) {
    this.service = service;
  }

  /** Every content, window, scroll or text event is a new screen revision. */
  void onEvent(int type) {
    seq.incrementAndGet();
  }

  @Override
  public DeviceInfo info() {
    DeviceInfo i = new DeviceInfo();
    i.apiLevel = Build.VERSION.SDK_INT;
    i.manufacturer = Build.MANUFACTURER;
    i.model = Build.MODEL;
    i.androidVersion = Build.VERSION.RELEASE;
    WindowManager wm = (WindowManager) service.getSystemService(Context.WINDOW_SERVICE);
    DisplayMetrics m = new DisplayMetrics();
    wm.getDefaultDisplay().getRealMetrics(m);
    i.width = m.widthPixels;
    i.height = m.heightPixels;
    i.density = m.densityDpi;
    i.rotation = wm.getDefaultDisplay().getRotation();
    i.capabilities = DeviceInfo.capabilitiesFor(i.apiLevel, HelperIme.current() != null || imeEnabled());
    return i;
  }

  /** ime_commit is offered while the helper keyboard is enabled; a commit needs it to be the current one. */
  private boolean imeEnabled() {
    InputMethodManager imm = (InputMethodManager) service.getSystemService(Context.INPUT_METHOD_SERVICE);
    if (imm == null) return false;
    for (InputMethodInfo m : imm.getEnabledInputMethodList())
      if (m.getPackageName().equals(service.getPackageName())) return true;
    return false;
  }

  @Override
  public Tree read() throws ReadFailed {
    return TreeReader.read(service, seq.get(), now());
  }

  @Override
  public Tree lookup(String viewId, String text) throws ReadFailed {
    return TreeReader.read(service, seq.get(), now(), viewId, text);
  }

  /**
   * Strokes → GestureDescriptions. One segment (keyframe k → k+1) of every finger is one gesture; on
   * API 26+ each later segment continues the same strokes (one continuous contact per finger, so a
   * held finger stays down). Below 26 only single-segment gestures are declared (tap, swipe).
   */
  @Override
  public boolean gesture(List<Stroke> strokes) throws InterruptedException {
    int segments = strokes.get(0).points.size() - 1;
    List<GestureDescription.StrokeDescription> prev = null;
    for (int k = 0; k < segments; k++) {
      GestureDescription.Builder b = new GestureDescription.Builder();
      List<GestureDescription.StrokeDescription> cur = new ArrayList<GestureDescription.StrokeDescription>();
      boolean more = k + 1 < segments;
      for (int f = 0; f < strokes.size(); f++) {
        int[] a = strokes.get(f).points.get(k), z = strokes.get(f).points.get(k + 1);
        Path path = new Path();
        path.moveTo(a[0], a[1]);
        if (a[0] != z[0] || a[1] != z[1]) path.lineTo(z[0], z[1]);
        long dur = Math.max(1, z[2] - a[2]);
        GestureDescription.StrokeDescription s;
        if (Build.VERSION.SDK_INT >= 26)
          s = prev == null ? new GestureDescription.StrokeDescription(path, 0, dur, more) : prev.get(f).continueStroke(path, 0, dur, more);
        else s = new GestureDescription.StrokeDescription(path, 0, dur);
        cur.add(s);
        b.addStroke(s);
      }
      if (!dispatch(b.build())) return false;
      prev = cur;
    }
    return true;
  }

  private boolean dispatch(GestureDescription g) throws InterruptedException {
    final CountDownLatch done = new CountDownLatch(1);
    final AtomicBoolean ok = new AtomicBoolean(false);
    boolean sent = service.dispatchGesture(g, new AccessibilityService.GestureResultCallback() {
      @Override
      public void onCompleted(GestureDescription d) {
        ok.set(true);
        done.countDown();
      }

      @Override
      public void onCancelled(GestureDescription d) {
        done.countDown();
      }
    }, null);
    if (!sent) return false;
    long ms = 2000;
    for (int i = 0; i < g.getStrokeCount(); i++) ms = Math.max(ms, g.getStroke(i).getDuration() + 2000);
    // On the input clock the gesture is injected on (MotionEvent times are uptime).
    return Uptime.await(done, ms) && ok.get();
  }

  @Override
  public boolean key(String key) {
    if (key.equals("back")) return service.performGlobalAction(AccessibilityService.GLOBAL_ACTION_BACK);
    if (key.equals("home")) return service.performGlobalAction(AccessibilityService.GLOBAL_ACTION_HOME);
    if (key.equals("recents")) return service.performGlobalAction(AccessibilityService.GLOBAL_ACTION_RECENTS);
    HelperIme ime = HelperIme.current();
    // Keys other than the three global actions need a bound input connection (the helper IME).
    if (ime == null) return false;
    if (key.equals("enter")) return ime.enter();
    return ime.sendKey(key.equals("delete") ? KeyEvent.KEYCODE_DEL : key.equals("search") ? KeyEvent.KEYCODE_SEARCH : KeyEvent.KEYCODE_MENU);
  }

  @Override
  public boolean nodeAction(Node n, String op, Double value, String text, int start, int end) {
    AccessibilityNodeInfo info = (AccessibilityNodeInfo) n.handle;
    if (info == null) return false;
    Bundle args = new Bundle();
    if (op.equals("click")) return info.performAction(AccessibilityNodeInfo.ACTION_CLICK);
    if (op.equals("long_click")) return info.performAction(AccessibilityNodeInfo.ACTION_LONG_CLICK);
    if (op.equals("focus")) return info.performAction(AccessibilityNodeInfo.ACTION_FOCUS);
    if (op.equals("scroll_forward")) return info.performAction(AccessibilityNodeInfo.ACTION_SCROLL_FORWARD);
    if (op.equals("scroll_backward")) return info.performAction(AccessibilityNodeInfo.ACTION_SCROLL_BACKWARD);
    if (op.equals("show_on_screen")) return info.performAction(AccessibilityAction.ACTION_SHOW_ON_SCREEN.getId());
    if (op.equals("set_progress")) {
      args.putFloat(AccessibilityNodeInfo.ACTION_ARGUMENT_PROGRESS_VALUE, value.floatValue());
      return info.performAction(AccessibilityAction.ACTION_SET_PROGRESS.getId(), args);
    }
    if (op.equals("set_text")) {
      args.putCharSequence(AccessibilityNodeInfo.ACTION_ARGUMENT_SET_TEXT_CHARSEQUENCE, text);
      return info.performAction(AccessibilityNodeInfo.ACTION_SET_TEXT, args);
    }
    if (op.equals("set_selection")) {
      args.putInt(AccessibilityNodeInfo.ACTION_ARGUMENT_SELECTION_START_INT, start);
      args.putInt(AccessibilityNodeInfo.ACTION_ARGUMENT_SELECTION_END_INT, end);
      if (info.performAction(AccessibilityNodeInfo.ACTION_SET_SELECTION, args)) return true;
      // TextView refuses (returns false) a selection it already has — e.g. the cursor at the end
      // right after ACTION_SET_TEXT put it there — so a refusal is checked against the field.
      return info.refresh() && info.getTextSelectionStart() == start && info.getTextSelectionEnd() == end;
    }
    if (op.equals("ime_enter")) {
      // The helper keyboard edits the focused field: its enter key sends the field's own action,
      // as the user's keyboard would (HelperIme.enter); without it, Android's ACTION_IME_ENTER.
      HelperIme ime = HelperIme.current();
      if (ime != null && info.isFocused() && ime.enter()) return true;
      return Build.VERSION.SDK_INT >= 30 && info.performAction(AccessibilityAction.ACTION_IME_ENTER.getId());
    }
    return false;
  }

  @Override
  public boolean commitText(String text) {
    HelperIme ime = HelperIme.current();
    return ime != null && ime.commit(text);
  }

  @Override
  public List<String[]> launchables() {
    PackageManager pm = service.getPackageManager();
    Intent main = new Intent(Intent.ACTION_MAIN).addCategory(Intent.CATEGORY_LAUNCHER);
    List<String[]> out = new ArrayList<String[]>();
    for (ResolveInfo r : pm.queryIntentActivities(main, 0))
      out.add(new String[] {String.valueOf(r.loadLabel(pm)), r.activityInfo.packageName, r.activityInfo.name});
    return out;
  }

  @Override
  public boolean launch(String pkg, String activity) {
    Intent i;
    if (activity != null) {
      i = new Intent(Intent.ACTION_MAIN);
      i.setClassName(pkg, activity.startsWith(".") ? pkg + activity : activity);
    } else i = service.getPackageManager().getLaunchIntentForPackage(pkg);
    if (i == null) return false;
    i.addFlags(Intent.FLAG_ACTIVITY_NEW_TASK | Intent.FLAG_ACTIVITY_RESET_TASK_IF_NEEDED);
    try {
      service.startActivity(i);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  @Override
  public Image screenshot(String format, double scale, int quality) {
    if (Build.VERSION.SDK_INT < 30) return null;
    synchronized (this) {
      if (screenshots == null) screenshots = new Screenshots(service);
    }
    return screenshots.take(format, scale, quality);
  }

  /**
   * The phone's clock for the protocol's waits and timings: uptime, the clock frames, input and
   * animations run on. A wait for stillness or movement (scroll_to watches 500 ms) then lasts that much
   * of the UI's time however busy the CPU is, and a wall-clock change (NTP, the user) cannot cut it short.
   */
  @Override
  public long now() {
    return SystemClock.uptimeMillis();
  }

  @Override
  public void sleep(long ms) throws InterruptedException {
    Uptime.sleepUntil(SystemClock.uptimeMillis() + ms);
  }
}
