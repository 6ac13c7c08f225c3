package dev.phoneagent.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import android.graphics.Rect;
import android.view.View;
import android.view.ViewGroup;
import android.view.accessibility.AccessibilityNodeInfo;
import dev.phoneagent.helper.core.Node;
import dev.phoneagent.helper.core.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.annotation.Config;

/** The snapshot the helper reads equals what each widget reports itself (View.createAccessibilityNodeInfo). */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {26, 30, 34})
public class TreeReaderTest extends HelperFixture {
  static Node byId(Tree t, String id) {
    for (Node n : t.nodes) if (n.resourceId.equals(id)) return n;
    return null;
  }

  /** Every view with an id: the helper's node against the widget's own node info, field by field. */
  @Test
  public void everyNodeEqualsWhatItsWidgetReports() throws Exception {
    ui(new Callable<Void>() {
      @Override
      public Void call() {
        widgets().password.setText("hunter22");
        widgets().wifi.setChecked(true);
        return null;
      }
    });
    sys.settle();
    Tree t = read();
    final List<View> views = new ArrayList<View>();
    ui(new Callable<Void>() {
      @Override
      public Void call() {
        collect(widgets().getWindow().getDecorView(), views);
        return null;
      }
    });
    int compared = 0;
    for (final View v : views) {
      AccessibilityNodeInfo own = ui(new Callable<AccessibilityNodeInfo>() {
        @Override
        public AccessibilityNodeInfo call() {
          return v.createAccessibilityNodeInfo();
        }
      });
      String id = v.getResources().getResourceName(v.getId());
      Node n = byId(t, id);
      assertNotNull("the helper's tree has no node " + id, n);
      assertEquals(id, own.getClassName().toString(), n.className);
      assertEquals(id, WidgetsApp.PACKAGE, n.pkg);
      if (!own.isPassword()) assertEquals(id, str(own.getText()), n.text);
      assertEquals(id, str(own.getContentDescription()), n.desc);
      Rect r = new Rect();
      own.getBoundsInScreen(r);
      assertEquals(id + " bounds", r.left + "," + r.top + "," + r.right + "," + r.bottom,
          n.bounds.left + "," + n.bounds.top + "," + n.bounds.right + "," + n.bounds.bottom);
      assertEquals(id, own.isCheckable(), n.checkable);
      assertEquals(id, own.isChecked(), n.checked);
      assertEquals(id, own.isEnabled(), n.enabled);
      assertEquals(id, own.isFocused(), n.focused);
      assertEquals(id, own.isScrollable(), n.scrollable);
      assertEquals(id, own.isEditable(), n.editable);
      assertEquals(id, own.isPassword(), n.password);
      compared++;
    }
    assertTrue("compared " + compared + " views", compared >= 14);
  }

  static void collect(View v, List<View> out) {
    if (v.getId() != View.NO_ID && v.getId() != android.R.id.content && (v.getId() >>> 24) == 0x01 && v.isShown()) out.add(v);
    if (v instanceof ViewGroup) for (int i = 0; i < ((ViewGroup) v).getChildCount(); i++) collect(((ViewGroup) v).getChildAt(i), out);
  }

  static String str(CharSequence c) {
    return c == null ? "" : c.toString();
  }

  @Test
  public void seekBarRangeHonoursMinAndMax() throws Exception {
    Tree t = read();
    Node seek = byId(t, "android:id/progress");
    assertEquals("android.widget.SeekBar", seek.className);
    assertTrue(seek.hasRange());
    // Android 8.0's ProgressBar reports RangeInfo min 0 whatever setMin says (fixed by API 30).
    assertEquals(android.os.Build.VERSION.SDK_INT >= 30 ? 10.0 : 0.0, seek.rangeMin, 0);
    assertEquals(200.0, seek.rangeMax, 0);
    assertEquals(50.0, seek.rangeCurrent, 0);
    assertTrue(seek.actions.contains("set_progress"));
    assertEquals(WidgetsApp.PACKAGE, t.foregroundPackage);
  }

  /** A password is masked with its real length by Android; the helper exposes neither text nor length. */
  @Test
  public void passwordIsNeverExposed() throws Exception {
    ui(new Callable<Void>() {
      @Override
      public Void call() {
        widgets().password.setText("hunter22");
        return null;
      }
    });
    sys.settle();
    AccessibilityNodeInfo own = ui(new Callable<AccessibilityNodeInfo>() {
      @Override
      public AccessibilityNodeInfo call() {
        return widgets().password.createAccessibilityNodeInfo();
      }
    });
    assertTrue(own.isPassword());
    // What Android itself reports: the transformed text, one dot per character.
    assertEquals(8, own.getText().length());
    assertFalse(own.getText().toString().contains("hunter"));
    Node n = byId(read(), "android:id/input");
    assertTrue(n.password);
    assertEquals("", n.visibleText());
    assertFalse(n.actions.contains("replace_selection"));
  }

  /** An empty field: Android reports its hint as its text; the helper knows it is the hint. */
  @Test
  public void anEmptyFieldsHintIsNotItsText() throws Exception {
    Node name = byId(read(), "android:id/edit");
    assertEquals("Name", name.hint);
    assertEquals("", name.editText());
  }

  /**
   * A widget's text is what Android shows, not what the app set: API 26–29's Switch appends its state
   * (from 30 the state is the node's state description), and a Button shows its theme's capitals.
   */
  @Test
  public void aSwitchAndAButtonReportTheTextAndroidShows() throws Exception {
    Tree t = read();
    boolean stateInText = android.os.Build.VERSION.SDK_INT < 30;
    assertEquals(stateInText ? "Wi-Fi OFF" : "Wi-Fi", byId(t, "android:id/toggle").text);
    ui(new Callable<Void>() {
      @Override
      public Void call() {
        widgets().wifi.setChecked(true);
        return null;
      }
    });
    sys.settle();
    assertEquals(stateInText ? "Wi-Fi ON" : "Wi-Fi", byId(read(), "android:id/toggle").text);
    assertEquals("SEND", byId(t, "android:id/button1").text);
  }

  @Test
  public void selectionIsReportedInUtf16() throws Exception {
    ui(new Callable<Void>() {
      @Override
      public Void call() {
        widgets().notes.setText("A😀B中文");
        widgets().notes.setSelection(1, 3);
        return null;
      }
    });
    sys.settle();
    Node notes = byId(read(), "android:id/message");
    assertEquals("A😀B中文", notes.text);
    assertEquals(1, notes.selStart);
    assertEquals(3, notes.selEnd);
    assertNull(notes.rangeMin);
  }

  /** The lookup the guards and native actions use: Android's own view-id and text queries, per window. */
  @Test
  public void lookupsUseAndroidsQueries() throws Exception {
    Tree byId = sys.call(new Callable<Tree>() {
      @Override
      public Tree call() throws Exception {
        return TreeReader.read(service, 1, 0, "android:id/checkbox", null);
      }
    });
    assertEquals(1, byId.nodes.size());
    assertEquals("I agree", byId.nodes.get(0).text);
    Tree byText = sys.call(new Callable<Tree>() {
      @Override
      public Tree call() throws Exception {
        return TreeReader.read(service, 1, 0, null, "agree");
      }
    });
    assertEquals(1, byText.nodes.size());
    assertEquals("android:id/checkbox", byText.nodes.get(0).resourceId);
  }

  /**
   * A WebView placeholder (no page loaded): one node with Android's class name, its description and
   * the bounds Android reports — the class the host's perception treats as drawn, to be read from
   * the screenshot. (Robolectric's WebView is a stand-in that is never laid out: its bounds are empty.)
   */
  @Test
  public void aWebViewIsANodeOfItsOwnClass() throws Exception {
    Tree t = read();
    Node web = byId(t, "android:id/widget_frame");
    assertNotNull(web);
    assertEquals("android.webkit.WebView", web.className);
    assertEquals("Web content", web.desc);
    final Rect own = new Rect();
    ui(new Callable<Void>() {
      @Override
      public Void call() {
        widgets().web.createAccessibilityNodeInfo().getBoundsInScreen(own);
        return null;
      }
    });
    assertEquals(own.left + "," + own.top + "," + own.right + "," + own.bottom,
        web.bounds.left + "," + web.bounds.top + "," + web.bounds.right + "," + web.bounds.bottom);
  }

  /** A view far below the fold: Android clips its bounds to the window and says it is not visible. */
  @Test
  public void offscreenNodesAreNotVisible() throws Exception {
    Node end = byId(read(), "android:id/summary");
    assertFalse(end.visible);
    assertEquals(0, end.bounds.area());
  }
}
