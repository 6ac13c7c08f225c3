package dev.phoneagent.helper;

import static org.robolectric.Shadows.shadowOf;

import android.accessibilityservice.AccessibilityService;
import android.content.Context;
import android.content.Intent;
import android.os.Handler;
import android.os.Looper;
import android.view.accessibility.AccessibilityEvent;
import android.view.accessibility.AccessibilityManager;
import dev.phoneagent.helper.core.HttpLimits;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.robolectric.Robolectric;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.android.controller.ServiceController;
import org.robolectric.shadows.ShadowChoreographer;
import org.robolectric.shadows.ShadowLooper;

/**
 * Android's system side for the helper inside one Robolectric test: the accessibility connection
 * (InteractionBridge over RoboWindows), the activity manager (RoboApps), input (RoboInput), the
 * input-method manager (RoboKeyboard) and the delivery of events. The main thread is the system's:
 * the helper's own code runs on other threads (`call`, or its HTTP server's), as on a phone, while
 * the main thread loops here, running the UI and moving the virtual clock.
 */
final class RoboSystem {
  /** A display frame: vsync every 16 ms, on the virtual clock. */
  static final long FRAME_MS = 16;

  static volatile RoboSystem current;

  final RoboApps apps = new RoboApps();
  final RoboWindows windows = new RoboWindows(apps);
  final RoboInput input = new RoboInput();
  final RoboKeyboard keyboard = new RoboKeyboard();
  final RoboScreen screen = new RoboScreen();
  /** How many times the helper listed the windows (each tree read does): shows a wait is polling. */
  final java.util.concurrent.atomic.AtomicInteger windowReads = new java.util.concurrent.atomic.AtomicInteger();
  private final Handler main = new Handler(Looper.getMainLooper());
  private ServiceController<HelperService> serviceController;
  HelperService service;

  private RoboSystem() {}

  /** The system for one test: accessibility on, the helper's connection registered. */
  static RoboSystem boot() throws Exception {
    RoboSystem s = new RoboSystem();
    current = s;
    Context app = RuntimeEnvironment.getApplication();
    shadowOf((AccessibilityManager) app.getSystemService(Context.ACCESSIBILITY_SERVICE)).setEnabled(true);
    InteractionBridge.install(s.windows, ServiceConfig.fetchFlags());
    // Frames at 60 Hz on the virtual clock, as a display's vsync: by default Robolectric runs each
    // frame at once and moves the clock 1 ms per frame callback, so an animation (a button's ripple)
    // ran its whole length inside one step, and a 700 ms long press took 2.1 s of system time.
    ShadowChoreographer.setPaused(true);
    ShadowChoreographer.setFrameDelay(Duration.ofMillis(FRAME_MS));
    return s;
  }

  /** Bind the helper's accessibility service as the system does once the user enabled it. */
  HelperService connectHelper(HttpLimits limits) {
    serviceController = Robolectric.buildService(HelperService.class).create();
    service = serviceController.get();
    service.listenPort = 0;
    if (limits != null) service.limits = limits;
    service.onServiceConnected();
    return service;
  }

  /** The token the service wrote to its private files/token (what `run-as … cat files/token` reads). */
  String token() throws Exception {
    return new String(Files.readAllBytes(new File(service.getFilesDir(), "token").toPath()), StandardCharsets.US_ASCII);
  }

  /** The user turns the service off: Android destroys it. */
  void disconnectHelper() {
    serviceController.destroy();
    serviceController = null;
    service = null;
  }

  void shutdown() {
    if (serviceController != null) serviceController.destroy();
    keyboard.stop();
    apps.clear();
    current = null;
  }

  /**
   * performGlobalAction, in order with the activity starts before it: system_server handles the
   * call on its own thread before the service's next request, so a launch sent after `home` lands
   * above the launcher, never under it.
   */
  boolean globalAction(final int action) {
    return onMain(new Callable<Boolean>() {
      @Override
      public Boolean call() {
        startPending();
        if (action == AccessibilityService.GLOBAL_ACTION_BACK) apps.back(focusedRoot());
        else if (action == AccessibilityService.GLOBAL_ACTION_HOME) apps.home();
        return true;
      }
    });
  }

  private void startPending() {
    Intent i;
    while ((i = shadowOf(RuntimeEnvironment.getApplication()).getNextStartedActivity()) != null) apps.start(i);
  }

  /** An event from a view: to the service's client (node cache) first, then to the service. */
  void deliver(AccessibilityEvent e) {
    try {
      InteractionBridge.clientSees(e);
    } catch (Exception x) {
      throw new IllegalStateException("the accessibility client refused an event: " + x, x);
    }
    if (service != null) service.onAccessibilityEvent(e);
  }

  void screenshot(Executor executor, AccessibilityService.TakeScreenshotCallback callback) {
    screen.capture(this, executor, callback);
  }

  /** One pass of the system on the main thread: activity starts, keys, gestures, the IME, `ms` of UI time. */
  void step(long ms) {
    startPending();
    if (input.hasPending()) input.injectPending(windows.current(), new RoboInput.Clock() {
      @Override
      public void advance(long t) {
        ShadowLooper.idleMainLooper(t, TimeUnit.MILLISECONDS);
      }
    });
    apps.reap();
    List<RoboWindows.Entry> shown = windows.current();
    windows.focusTopmost(shown);
    keyboard.follow(shown);
    screen.draw(shown);
    ShadowLooper.idleMainLooper(ms, TimeUnit.MILLISECONDS);
  }

  private android.view.View focusedRoot() {
    List<RoboWindows.Entry> ws = windows.current();
    for (int k = ws.size() - 1; k >= 0; k--) if (ws.get(k).root.hasWindowFocus()) return ws.get(k).root;
    return ws.isEmpty() ? null : ws.get(ws.size() - 1).root;
  }

  /** Let the UI settle: a few passes of the system. */
  void settle() {
    for (int k = 0; k < 5; k++) step(20);
  }

  /** Run the helper's code on another thread while the main thread plays the system. */
  <T> T call(Callable<T> work) throws Exception {
    FutureTask<T> task = new FutureTask<T>(work);
    Thread t = new Thread(task, "helper");
    t.start();
    long deadline = System.currentTimeMillis() + 60_000;
    while (!task.isDone()) {
      if (System.currentTimeMillis() > deadline) throw new IllegalStateException("the helper did not answer within 60 s");
      step(10);
      Thread.sleep(1);
    }
    try {
      return task.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception) throw (Exception) e.getCause();
      throw e;
    }
  }

  /** Serve (the HTTP server answers on its own threads) until `done` holds or the time is up. */
  void serve(Callable<Boolean> done, long maxMs) throws Exception {
    long deadline = System.currentTimeMillis() + maxMs;
    while (!done.call()) {
      if (System.currentTimeMillis() > deadline) throw new IllegalStateException("served " + maxMs + " ms without finishing");
      step(10);
      Thread.sleep(5);
    }
  }

  /** Run on the main thread and wait (the main thread is always looping in `call`/`serve`). */
  <T> T onMain(Callable<T> work) {
    try {
      if (Looper.myLooper() == Looper.getMainLooper()) return work.call();
      FutureTask<T> task = new FutureTask<T>(work);
      main.post(task);
      return task.get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("the main thread did not run the system's work: " + e, e);
    }
  }
}
