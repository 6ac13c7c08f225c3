package dev.phoneagent.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import android.accessibilityservice.GestureDescription;
import android.graphics.PathMeasure;
import android.view.View;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.annotation.Config;

/** The GestureDescriptions the helper builds (paths, start times, durations, continued strokes), and what they do. */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {26, 34})
public class GesturesTest extends HelperFixture {
  List<GestureDescription> dispatched() {
    return sys.input.dispatched;
  }

  static float[] start(GestureDescription.StrokeDescription s) {
    PathMeasure m = new PathMeasure(s.getPath(), false);
    if (m.getLength() == 0) {
      // A point (moveTo only) has no contour to measure: its bounds are the point.
      android.graphics.RectF r = new android.graphics.RectF();
      s.getPath().computeBounds(r, true);
      return new float[] {r.left, r.top};
    }
    float[] p = new float[2];
    m.getPosTan(0, p, null);
    return p;
  }

  static float[] end(GestureDescription.StrokeDescription s) {
    PathMeasure m = new PathMeasure(s.getPath(), false);
    if (m.getLength() == 0) return start(s);
    float[] p = new float[2];
    m.getPosTan(m.getLength(), p, null);
    return p;
  }

  int[] center(final View v) {
    return ui(new Callable<int[]>() {
      @Override
      public int[] call() {
        int[] at = new int[2];
        v.getLocationOnScreen(at);
        return new int[] {at[0] + v.getWidth() / 2, at[1] + v.getHeight() / 2};
      }
    });
  }

  @Test
  public void tapIsOneShortStrokeAndClicks() throws Exception {
    int[] c = center(widgets().send);
    assertEquals("completed", status(action("{\"action\":\"tap\",\"coord_space\":\"pixel\",\"x\":" + c[0] + ",\"y\":" + c[1] + "}")));
    GestureDescription g = dispatched().get(0);
    assertEquals(1, g.getStrokeCount());
    GestureDescription.StrokeDescription s = g.getStroke(0);
    assertEquals(0, s.getStartTime());
    assertEquals(50, s.getDuration());
    assertEquals(c[0], start(s)[0], 0.5);
    assertEquals(c[1], start(s)[1], 0.5);
    assertFalse(s.willContinue());
    sys.settle();
    assertEquals(1, widgets().sendClicks);
    assertEquals("DOWN@" + c[0] + "," + c[1] + "#1", sys.input.injected.get(0));
  }

  @Test
  public void longPressHoldsLongEnoughForALongClick() throws Exception {
    final AtomicInteger longClicks = new AtomicInteger();
    ui(new Callable<Void>() {
      @Override
      public Void call() {
        widgets().send.setOnLongClickListener(new View.OnLongClickListener() {
          @Override
          public boolean onLongClick(View v) {
            longClicks.incrementAndGet();
            return true;
          }
        });
        return null;
      }
    });
    int[] c = center(widgets().send);
    assertEquals("completed", status(action("{\"action\":\"long_press\",\"coord_space\":\"pixel\",\"x\":" + c[0] + ",\"y\":" + c[1] + "}")));
    GestureDescription.StrokeDescription s = dispatched().get(0).getStroke(0);
    assertEquals(700, s.getDuration());
    assertEquals(0f, new PathMeasure(s.getPath(), false).getLength(), 0.01);
    sys.settle();
    assertEquals(1, longClicks.get());
    assertEquals(0, widgets().sendClicks);
  }

  @Test
  public void swipeIsOneStrokeAlongThePathAndScrolls() throws Exception {
    String r = status(action("{\"action\":\"swipe\",\"coord_space\":\"pixel\",\"x1\":360,\"y1\":1100,\"x2\":360,\"y2\":500,\"duration_ms\":400}"));
    assertEquals("completed", r);
    GestureDescription.StrokeDescription s = dispatched().get(0).getStroke(0);
    assertEquals(400, s.getDuration());
    assertEquals(1100, start(s)[1], 0.5);
    assertEquals(500, end(s)[1], 0.5);
    for (int i = 0; i < 20; i++) sys.step(20);
    assertTrue(ui(new Callable<Integer>() {
      @Override
      public Integer call() {
        return widgets().scroll.getScrollY();
      }
    }) > 300);
  }

  @Test
  public void pinchIsTwoFingersMovingApartAboutTheCentre() throws Exception {
    assertEquals("completed", status(action(
        "{\"action\":\"pinch\",\"coord_space\":\"pixel\",\"x\":360,\"y\":640,\"start_distance\":100,\"end_distance\":300,\"duration_ms\":500}")));
    // One GestureDescription per keyframe segment: the first starts the pair, the last ends it.
    GestureDescription g = dispatched().get(0), last = dispatched().get(dispatched().size() - 1);
    assertEquals(2, g.getStrokeCount());
    float[] a0 = start(g.getStroke(0)), b0 = start(g.getStroke(1)), a1 = end(last.getStroke(0)), b1 = end(last.getStroke(1));
    assertEquals(100, Math.hypot(a0[0] - b0[0], a0[1] - b0[1]), 2);
    assertEquals(300, Math.hypot(a1[0] - b1[0], a1[1] - b1[1]), 2);
    assertEquals(360, (a0[0] + b0[0]) / 2, 1);
    assertEquals(640, (a0[1] + b0[1]) / 2, 1);
    long total = 0;
    for (GestureDescription d : dispatched()) total += d.getStroke(0).getDuration();
    assertEquals(500, total);
  }

  /** Three fingers, one held still: one GestureDescription per keyframe segment, strokes continued. */
  @Test
  public void threeFingerGestureContinuesItsStrokes() throws Exception {
    assertEquals("completed", status(action("{\"action\":\"touch_gesture\",\"coord_space\":\"pixel\",\"frames\":["
        + "{\"at_ms\":0,\"points\":[{\"x\":100,\"y\":900},{\"x\":300,\"y\":900},{\"x\":500,\"y\":900}]},"
        + "{\"at_ms\":200,\"points\":[{\"x\":100,\"y\":900},{\"x\":300,\"y\":800},{\"x\":500,\"y\":800}]},"
        + "{\"at_ms\":500,\"points\":[{\"x\":100,\"y\":900},{\"x\":300,\"y\":700},{\"x\":500,\"y\":700}]}]}")));
    assertEquals(2, dispatched().size());
    GestureDescription first = dispatched().get(0), second = dispatched().get(1);
    assertEquals(3, first.getStrokeCount());
    assertEquals(3, second.getStrokeCount());
    for (int f = 0; f < 3; f++) {
      GestureDescription.StrokeDescription a = first.getStroke(f), b = second.getStroke(f);
      assertTrue("finger " + f + " continues", a.willContinue());
      assertFalse(b.willContinue());
      assertEquals(a.getId(), b.getContinuedStrokeId());
      assertEquals(200, a.getDuration());
      assertEquals(300, b.getDuration());
      assertEquals(0, b.getStartTime());
    }
    // The held finger: a point-sized path in both segments, at the same place.
    assertEquals(0f, new PathMeasure(first.getStroke(0).getPath(), false).getLength(), 0.01);
    assertEquals(100, start(second.getStroke(0))[0], 0.5);
    // Injected as one contact per finger: three downs, then moves, three ups only at the very end.
    List<String> ev = sys.input.injected;
    int downs = 0, ups = 0, lastDown = -1, firstUp = Integer.MAX_VALUE;
    for (int i = 0; i < ev.size(); i++) {
      if (ev.get(i).contains("DOWN")) {
        downs++;
        lastDown = i;
      }
      if (ev.get(i).contains("UP")) {
        ups++;
        firstUp = Math.min(firstUp, i);
      }
    }
    assertEquals(ev.toString(), 3, downs);
    assertEquals(ev.toString(), 3, ups);
    // No finger lifts before the last keyframe: every event from the first up on is at the end points.
    assertTrue(ev.toString(), lastDown < firstUp);
    for (String e : ev.subList(firstUp, ev.size())) assertTrue(e, e.contains(",700#") || e.contains("@100,900#"));
  }
}
