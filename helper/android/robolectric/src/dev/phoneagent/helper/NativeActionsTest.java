package dev.phoneagent.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import android.app.AlertDialog;
import android.os.Build;
import android.view.ViewGroup;
import android.view.inputmethod.EditorInfo;
import android.widget.Button;
import android.widget.LinearLayout;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.annotation.Config;

/** control_action / set_text on real widgets, over the helper's HTTP API: what the widget does afterwards. */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {26, 30, 34})
public class NativeActionsTest extends HelperFixture {
  Map<String, Object> control(String id, String action, String extra) throws Exception {
    return action("{\"action\":\"control_action\",\"request\":{\"selector\":{\"resource_id\":" + q(id) + "},\"action\":" + q(action)
        + (extra == null ? "" : "," + extra) + "}}");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> after(Map<String, Object> r) {
    return (Map<String, Object>) r.get("after");
  }

  @Test
  public void clickFlipsTheSwitch() throws Exception {
    Map<String, Object> r = control("android:id/toggle", "click", null);
    assertEquals("completed", status(r));
    sys.settle();
    assertTrue(ui(new Callable<Boolean>() {
      @Override
      public Boolean call() {
        return widgets().wifi.isChecked();
      }
    }));
    assertEquals(Boolean.TRUE, after(r).get("checked"));
  }

  @Test
  public void setProgressHonoursTheRangeAndReadsTheValueBack() throws Exception {
    Map<String, Object> r = control("android:id/progress", "set_progress", "\"value\":120");
    assertEquals("completed", status(r));
    assertEquals(120.0, ((Number) ((Map<?, ?>) after(r).get("range")).get("current")).doubleValue(), 0);
    assertEquals(120, (int) ui(new Callable<Integer>() {
      @Override
      public Integer call() {
        return widgets().volume.getProgress();
      }
    }));
    assertEquals("not_started OUT_OF_RANGE", status(control("android:id/progress", "set_progress", "\"value\":201")));
    Map<String, Object> below = control("android:id/progress", "set_progress", "\"value\":5");
    if (Build.VERSION.SDK_INT >= 30) assertEquals("not_started OUT_OF_RANGE", status(below));
    else {
      // API 26 reports min 0 (TreeReaderTest): the helper cannot refuse; the widget clamps to its min.
      assertEquals("completed", status(below));
      assertEquals(10.0, ((Number) ((Map<?, ?>) after(below).get("range")).get("current")).doubleValue(), 0);
    }
  }

  String uiText(final boolean notes) {
    return ui(new Callable<String>() {
      @Override
      public String call() {
        return (notes ? widgets().notes : widgets().name).getText().toString();
      }
    });
  }

  int[] uiSelection() {
    return ui(new Callable<int[]>() {
      @Override
      public int[] call() {
        return new int[] {widgets().notes.getSelectionStart(), widgets().notes.getSelectionEnd()};
      }
    });
  }

  /** TextView refuses ACTION_SET_SELECTION to the selection it has; the helper must not call that a failure. */
  @Test
  public void selectingTheCurrentSelectionCompletes() throws Exception {
    assertEquals("completed", status(action("{\"action\":\"set_text\",\"selector\":{\"resource_id\":\"android:id/message\"},\"text\":\"abc\"}")));
    assertEquals("completed", status(control("android:id/message", "set_selection", "\"start\":3,\"end\":3")));
  }

  @Test
  public void textActionsCountUtf16() throws Exception {
    Map<String, Object> set = action("{\"action\":\"set_text\",\"selector\":{\"resource_id\":\"android:id/message\"},\"text\":\"A😀B中文\"}");
    assertEquals("completed", status(set));
    assertEquals("A😀B中文", uiText(true));
    assertEquals("completed", status(control("android:id/message", "set_selection", "\"start\":1,\"end\":3")));
    int[] sel = uiSelection();
    assertEquals(1, sel[0]);
    assertEquals(3, sel[1]);
    assertEquals("not_started OUT_OF_RANGE", status(control("android:id/message", "set_selection", "\"start\":2,\"end\":2")));
    assertEquals("completed", status(control("android:id/message", "replace_selection", "\"text\":\"字\"")));
    assertEquals("A字B中文", uiText(true));
    sel = uiSelection();
    assertEquals(2, sel[0]);
    assertEquals(2, sel[1]);
  }

  /** An empty field reports its hint as text: replacing its selection must not type the hint in. */
  @Test
  public void replaceSelectionInAnEmptyFieldKeepsOutTheHint() throws Exception {
    assertEquals("completed", status(control("android:id/edit", "replace_selection", "\"text\":\"Zoë\"")));
    assertEquals("Zoë", uiText(false));
  }

  int scrollY() {
    return ui(new Callable<Integer>() {
      @Override
      public Integer call() {
        return widgets().scroll.getScrollY();
      }
    });
  }

  @Test
  public void scrollMovesTheScrollViewBothWays() throws Exception {
    assertEquals("completed", status(control("android:id/list", "scroll_forward", null)));
    for (int i = 0; i < 20; i++) sys.step(20);
    int down = scrollY();
    assertTrue("scrolled to " + down, down > 0);
    assertEquals("completed", status(control("android:id/list", "scroll_backward", null)));
    for (int i = 0; i < 20; i++) sys.step(20);
    assertTrue(scrollY() < down);
  }

  @Test
  public void imeEnterFiresTheEditorAction() throws Exception {
    Map<String, Object> r = control("android:id/edit", "ime_enter", null);
    if (Build.VERSION.SDK_INT < 30) {
      assertEquals("not_started UNSUPPORTED", status(r));
      return;
    }
    assertEquals("completed", status(r));
    sys.settle();
    // The editor action fires, with Android's action id (getImeActionId, else 0/DONE), not the
    // field's imeOptions (SEARCH): a listener that waits for IME_ACTION_SEARCH does not run.
    assertEquals(1, widgets().editorActions.size());
    assertTrue(widgets().editorActions.toString(), widgets().editorActions.get(0).startsWith("edit:"));
    assertFalse(widgets().editorActions.contains("edit:" + EditorInfo.IME_ACTION_SEARCH));
  }

  /** With the helper keyboard on the field, ime_enter is its enter key: the field's own action, at every API level. */
  @Test
  public void imeEnterThroughTheHelperKeyboardSendsTheFieldsAction() throws Exception {
    sys.keyboard.start();
    sys.settle();
    Map<String, Object> snap = post("/v3/snapshot", "{}");
    assertTrue(String.valueOf(node(snap, "android:id/edit")), ((java.util.List<?>) node(snap, "android:id/edit").get("actions")).contains("ime_enter"));
    assertEquals("completed", status(control("android:id/edit", "ime_enter", null)));
    sys.settle();
    assertEquals("[edit:" + EditorInfo.IME_ACTION_SEARCH + "]", widgets().editorActions.toString());
  }

  @Test
  public void aTargetUnderADialogIsOccluded() throws Exception {
    final AlertDialog[] d = new AlertDialog[1];
    ui(new Callable<Void>() {
      @Override
      public Void call() {
        d[0] = new AlertDialog.Builder(widgets()).setTitle("Delete?").setPositiveButton("OK", null).create();
        d[0].show();
        d[0].getWindow().setLayout(ViewGroup.LayoutParams.MATCH_PARENT, ViewGroup.LayoutParams.MATCH_PARENT);
        return null;
      }
    });
    sys.settle();
    Map<String, Object> snap = post("/v3/snapshot", "{}");
    assertEquals(2, ((java.util.List<?>) snap.get("windows")).size());
    assertEquals("not_started OCCLUDED", status(control("android:id/checkbox", "click", null)));
    assertFalse(ui(new Callable<Boolean>() {
      @Override
      public Boolean call() {
        return widgets().agree.isChecked();
      }
    }));
    // The dialog's own button is the target now.
    Map<String, Object> ok = action("{\"action\":\"control_action\",\"request\":{\"selector\":{\"text\":\"OK\"},\"action\":\"click\"}}");
    assertEquals("completed", status(ok));
    sys.settle();
    assertFalse(ui(new Callable<Boolean>() {
      @Override
      public Boolean call() {
        return d[0].isShowing();
      }
    }));
  }

  @Test
  public void aReplacedViewIsStale() throws Exception {
    Map<String, Object> read = action("{\"action\":\"read_control\",\"selector\":{\"resource_id\":\"android:id/button1\"}}");
    assertEquals("observed", status(read));
    String token = (String) ((Map<?, ?>) read.get("control")).get("token");
    ui(new Callable<Void>() {
      @Override
      public Void call() {
        LinearLayout col = (LinearLayout) widgets().send.getParent();
        int at = col.indexOfChild(widgets().send);
        col.removeViewAt(at);
        Button replaced = new Button(widgets());
        replaced.setId(android.R.id.button1);
        replaced.setText("Sent");
        col.addView(replaced, at);
        return null;
      }
    });
    sys.settle();
    Map<String, Object> r = control("android:id/button1", "click", "\"expected_token\":" + q(token));
    assertEquals("not_started STALE", status(r));
  }
}
