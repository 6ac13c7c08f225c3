package dev.phoneagent.helper;

import android.accessibilityservice.AccessibilityService;
import android.accessibilityservice.GestureDescription;
import android.graphics.Rect;
import android.os.Handler;
import android.os.Looper;
import android.os.SystemClock;
import android.view.InputDevice;
import android.view.MotionEvent;
import android.view.WindowManager;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The input side of dispatchGesture, as the system's MotionEventInjector does it: Android's own
 * GestureDescription.MotionEventGenerator turns the description into touch steps (every 10 ms), and
 * each step becomes MotionEvents (DOWN, POINTER_DOWN, MOVE, POINTER_UP, UP) for the topmost
 * touchable window under the first finger, on the virtual clock. A stroke that will continue keeps
 * its finger down until the gesture that continues it (continuedStrokeId) arrives.
 */
final class RoboInput {
  static final int SAMPLE_MS = 10;

  interface Clock {
    /** Let the main looper run for `ms` of virtual time. */
    void advance(long ms);
  }

  private static final class Pending {
    GestureDescription gesture;
    AccessibilityService.GestureResultCallback callback;
    Handler handler;
  }

  private static final class Finger {
    int pointerId;
    float x, y;
  }

  /** Every gesture dispatched, in order (what the tests inspect). */
  final List<GestureDescription> dispatched = Collections.synchronizedList(new ArrayList<GestureDescription>());
  /** Every MotionEvent action injected, as "DOWN@x,y" etc. (what the tests inspect). */
  final List<String> injected = Collections.synchronizedList(new ArrayList<String>());

  private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<Pending>();
  private final Map<Integer, Finger> down = new LinkedHashMap<Integer, Finger>();
  private RoboWindows.Entry target;
  private long downTime;

  boolean dispatch(GestureDescription g, AccessibilityService.GestureResultCallback cb, Handler h) {
    dispatched.add(g);
    Pending p = new Pending();
    p.gesture = g;
    p.callback = cb;
    p.handler = h;
    queue.add(p);
    return true;
  }

  boolean hasPending() {
    return !queue.isEmpty();
  }

  /** Main thread: inject every queued gesture, then report it completed (on its handler). */
  void injectPending(List<RoboWindows.Entry> windows, Clock clock) {
    Pending p;
    while ((p = queue.poll()) != null) {
      List<GestureDescription.GestureStep> steps =
          GestureDescription.MotionEventGenerator.getGestureStepsFromGestureDescription(p.gesture, SAMPLE_MS);
      long t = 0;
      for (GestureDescription.GestureStep s : steps) {
        if (s.timeSinceGestureStart > t) {
          clock.advance(s.timeSinceGestureStart - t);
          t = s.timeSinceGestureStart;
        }
        step(s, windows);
      }
      clock.advance(1);
      final Pending done = p;
      if (done.callback == null) continue;
      Handler h = done.handler != null ? done.handler : new Handler(Looper.getMainLooper());
      h.post(new Runnable() {
        @Override
        public void run() {
          done.callback.onCompleted(done.gesture);
        }
      });
    }
  }

  private void step(GestureDescription.GestureStep s, List<RoboWindows.Entry> windows) {
    for (int i = 0; i < s.numTouchPoints; i++) {
      GestureDescription.TouchPoint tp = s.touchPoints[i];
      Finger f = down.remove(tp.mStrokeId);
      // A continued stroke's first point carries the id of the stroke it continues: same finger.
      if (f == null && tp.mContinuedStrokeId >= 0) f = down.remove(tp.mContinuedStrokeId);
      if (f == null) {
        f = new Finger();
        f.pointerId = freePointerId();
        f.x = tp.mX;
        f.y = tp.mY;
        if (down.isEmpty()) {
          target = topmostAt(windows, (int) tp.mX, (int) tp.mY);
          downTime = SystemClock.uptimeMillis();
        }
        down.put(tp.mStrokeId, f);
        send(down.size() == 1 ? MotionEvent.ACTION_DOWN : MotionEvent.ACTION_POINTER_DOWN, f);
      } else {
        down.put(tp.mStrokeId, f);
        if (f.x != tp.mX || f.y != tp.mY) {
          f.x = tp.mX;
          f.y = tp.mY;
          send(MotionEvent.ACTION_MOVE, f);
        }
      }
      if (tp.mIsEndOfPath) {
        send(down.size() == 1 ? MotionEvent.ACTION_UP : MotionEvent.ACTION_POINTER_UP, f);
        down.remove(tp.mStrokeId);
      }
    }
  }

  private int freePointerId() {
    for (int id = 0; ; id++) {
      boolean used = false;
      for (Finger f : down.values()) used |= f.pointerId == id;
      if (!used) return id;
    }
  }

  /** The touchable window under the point, topmost first (what InputDispatcher picks). */
  static RoboWindows.Entry topmostAt(List<RoboWindows.Entry> windows, int x, int y) {
    for (int i = windows.size() - 1; i >= 0; i--) {
      RoboWindows.Entry e = windows.get(i);
      if ((e.params.flags & WindowManager.LayoutParams.FLAG_NOT_TOUCHABLE) != 0) continue;
      int[] at = new int[2];
      e.root.getLocationOnScreen(at);
      if (new Rect(at[0], at[1], at[0] + e.root.getWidth(), at[1] + e.root.getHeight()).contains(x, y)) return e;
    }
    return null;
  }

  private void send(int action, Finger actor) {
    List<Finger> fingers = new ArrayList<Finger>(down.values());
    // Pointer indices in ascending pointer-id order, as InputDispatcher keeps them.
    Collections.sort(fingers, new java.util.Comparator<Finger>() {
      @Override
      public int compare(Finger a, Finger b) {
        return a.pointerId - b.pointerId;
      }
    });
    int index = fingers.indexOf(actor);
    int masked = action == MotionEvent.ACTION_POINTER_DOWN || action == MotionEvent.ACTION_POINTER_UP
        ? action | (index << MotionEvent.ACTION_POINTER_INDEX_SHIFT) : action;
    injected.add(name(action) + "@" + Math.round(actor.x) + "," + Math.round(actor.y) + "#" + fingers.size());
    if (target == null) return;
    int[] at = new int[2];
    target.root.getLocationOnScreen(at);
    MotionEvent.PointerProperties[] props = new MotionEvent.PointerProperties[fingers.size()];
    MotionEvent.PointerCoords[] coords = new MotionEvent.PointerCoords[fingers.size()];
    for (int i = 0; i < fingers.size(); i++) {
      props[i] = new MotionEvent.PointerProperties();
      props[i].id = fingers.get(i).pointerId;
      props[i].toolType = MotionEvent.TOOL_TYPE_FINGER;
      coords[i] = new MotionEvent.PointerCoords();
      coords[i].x = fingers.get(i).x - at[0];
      coords[i].y = fingers.get(i).y - at[1];
      coords[i].pressure = 1;
      coords[i].size = 1;
    }
    MotionEvent ev = MotionEvent.obtain(downTime, SystemClock.uptimeMillis(), masked, fingers.size(), props, coords, 0, 0, 1, 1, 0, 0,
        InputDevice.SOURCE_TOUCHSCREEN, 0);
    // Through the window's own input pipeline (touch mode, focus), as InputDispatcher delivers it.
    target.vri.dispatchInputEvent(ev);
  }

  static String name(int action) {
    switch (action) {
      case MotionEvent.ACTION_DOWN:
        return "DOWN";
      case MotionEvent.ACTION_UP:
        return "UP";
      case MotionEvent.ACTION_MOVE:
        return "MOVE";
      case MotionEvent.ACTION_POINTER_DOWN:
        return "POINTER_DOWN";
      default:
        return "POINTER_UP";
    }
  }
}
