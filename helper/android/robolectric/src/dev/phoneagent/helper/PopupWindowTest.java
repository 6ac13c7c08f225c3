package dev.phoneagent.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import android.view.Gravity;
import android.view.View;
import android.widget.Button;
import android.widget.LinearLayout;
import android.widget.PopupWindow;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.annotation.Config;

/** A PopupWindow is a second window of the app, above the activity: its nodes, touches and what it covers. */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {26, 30, 34})
public class PopupWindowTest extends HelperFixture {
  final AtomicInteger copies = new AtomicInteger();
  PopupWindow popup;

  /** A menu-like popup, the screen's width and 240 px tall, laid over the Send button. */
  @Before
  public void showThePopup() {
    ui(new Callable<Void>() {
      @Override
      public Void call() {
        WidgetsApp w = widgets();
        LinearLayout menu = new LinearLayout(w);
        menu.setOrientation(LinearLayout.VERTICAL);
        menu.setBackgroundColor(0xffffffff);
        Button copy = new Button(w);
        copy.setId(android.R.id.copy);
        copy.setText("Copy");
        copy.setOnClickListener(new View.OnClickListener() {
          @Override
          public void onClick(View v) {
            copies.incrementAndGet();
          }
        });
        menu.addView(copy);
        popup = new PopupWindow(menu, android.view.ViewGroup.LayoutParams.MATCH_PARENT, 240, true);
        int[] at = new int[2];
        w.send.getLocationOnScreen(at);
        popup.showAtLocation(w.getWindow().getDecorView(), Gravity.TOP | Gravity.START, 0, at[1] - 40);
        return null;
      }
    });
    sys.settle();
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> window(Map<String, Object> snap, Object id) {
    for (Object o : (List<Object>) snap.get("windows")) if (((Map<String, Object>) o).get("id").equals(id)) return (Map<String, Object>) o;
    return null;
  }

  @SuppressWarnings("unchecked")
  @Test
  public void thePopupIsASecondWindowAboveTheActivity() throws Exception {
    Map<String, Object> snap = post("/v3/snapshot", "{}");
    List<Object> windows = (List<Object>) snap.get("windows");
    assertEquals(String.valueOf(windows), 2, windows.size());
    Map<String, Object> copy = node(snap, "android:id/copy"), send = node(snap, "android:id/button1");
    assertNotEquals(copy.get("window"), send.get("window"));
    Map<String, Object> top = window(snap, copy.get("window")), below = window(snap, send.get("window"));
    assertTrue(((Number) top.get("layer")).intValue() > ((Number) below.get("layer")).intValue());
    assertEquals(WidgetsApp.PACKAGE, top.get("package"));
    assertEquals("application", top.get("type"));
  }

  @Test
  public void aNativeClickReachesThePopupsButton() throws Exception {
    assertEquals("completed", status(action(
        "{\"action\":\"control_action\",\"request\":{\"selector\":{\"resource_id\":\"android:id/copy\"},\"action\":\"click\"}}")));
    sys.settle();
    assertEquals(1, copies.get());
  }

  /** A tap where popup and Send overlap goes to the topmost window, as InputDispatcher sends it. */
  @SuppressWarnings("unchecked")
  @Test
  public void aTapLandsInThePopupNotUnderIt() throws Exception {
    Map<String, Object> b = (Map<String, Object>) node(post("/v3/snapshot", "{}"), "android:id/copy").get("bounds");
    int x = (((Number) b.get("left")).intValue() + ((Number) b.get("right")).intValue()) / 2;
    int y = (((Number) b.get("top")).intValue() + ((Number) b.get("bottom")).intValue()) / 2;
    assertEquals("completed", status(action("{\"action\":\"tap\",\"coord_space\":\"pixel\",\"x\":" + x + ",\"y\":" + y + "}")));
    sys.settle();
    assertEquals(1, copies.get());
    assertEquals(0, widgets().sendClicks);
  }

  @Test
  public void whatThePopupCoversIsOccluded() throws Exception {
    assertEquals("not_started OCCLUDED", status(action(
        "{\"action\":\"control_action\",\"request\":{\"selector\":{\"resource_id\":\"android:id/button1\"},\"action\":\"click\"}}")));
    assertEquals(0, widgets().sendClicks);
  }

  /** Back closes a focusable popup first; the activity is the only window again. */
  @SuppressWarnings("unchecked")
  @Test
  public void backDismissesThePopup() throws Exception {
    assertEquals("completed", status(action("{\"action\":\"key\",\"key\":\"back\"}")));
    sys.settle();
    assertTrue(!popup.isShowing());
    assertEquals(1, ((List<Object>) post("/v3/snapshot", "{}").get("windows")).size());
    assertEquals(WidgetsApp.PACKAGE, sys.apps.top().getPackageName());
  }
}
