package dev.phoneagent.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import dev.phoneagent.helper.core.Node;
import dev.phoneagent.helper.core.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.annotation.Config;

/** A recycled list longer than the screen: only the rows on screen are nodes; scrolls and scroll_to move it. */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {26, 30, 34})
public class ListViewTest extends HelperFixture {
  @Before
  public void openTheList() {
    sys.apps.install(ListApp.PACKAGE, "List", ListApp.class, false);
    open(ListApp.PACKAGE, ListApp.class);
  }

  ListApp app() {
    return (ListApp) sys.apps.top();
  }

  int firstVisible() {
    return ui(new Callable<Integer>() {
      @Override
      public Integer call() {
        return app().list.getFirstVisiblePosition();
      }
    });
  }

  static List<String> rows(Tree t) {
    List<String> out = new ArrayList<String>();
    for (Node n : t.nodes) if (n.text.startsWith("Row ") && n.visible) out.add(n.text);
    return out;
  }

  static Node byText(Tree t, String text) {
    for (Node n : t.nodes) if (n.text.equals(text)) return n;
    return null;
  }

  Map<String, Object> act(String json) throws Exception {
    Map<String, Object> r = action(json);
    for (int i = 0; i < 20; i++) sys.step(20);
    return r;
  }

  @Test
  public void onlyTheRowsOnScreenAreNodes() throws Exception {
    Tree t = read();
    Node list = null;
    for (Node n : t.nodes) if (n.resourceId.equals("android:id/list")) list = n;
    assertNotNull(list);
    assertEquals("android.widget.ListView", list.className);
    assertTrue(list.scrollable);
    assertTrue(list.actions.contains("scroll_forward"));
    assertFalse("at the top there is nothing before", list.actions.contains("scroll_backward"));
    List<String> rows = rows(t);
    assertEquals("Row 1", rows.get(0));
    assertTrue(rows.toString(), rows.size() > 5 && rows.size() < ListApp.ROWS);
    assertNull("a row far down is not in the tree (recycled)", byText(t, "Row 40"));
  }

  @Test
  public void scrollForwardAndBackMoveTheList() throws Exception {
    assertEquals("completed", status(act(
        "{\"action\":\"control_action\",\"request\":{\"selector\":{\"resource_id\":\"android:id/list\"},\"action\":\"scroll_forward\"}}")));
    int moved = firstVisible();
    assertTrue("first visible row after scroll_forward: " + moved, moved > 3);
    List<String> rows = rows(read());
    assertFalse(rows.toString(), rows.contains("Row 1"));
    assertTrue(rows.toString(), rows.contains("Row " + (moved + 1)));
    assertEquals("completed", status(act(
        "{\"action\":\"control_action\",\"request\":{\"selector\":{\"resource_id\":\"android:id/list\"},\"action\":\"scroll_backward\"}}")));
    assertTrue(firstVisible() < moved);
  }

  /** scroll_to pages the list until the row is on screen (the helper's loop over Android's own scrolls). */
  @Test
  public void scrollToFindsARowFarDown() throws Exception {
    Map<String, Object> r = act("{\"action\":\"scroll_to\",\"container\":{\"resource_id\":\"android:id/list\"},\"target\":{\"text\":\"Row 45\"},"
        + "\"max_scrolls\":15}");
    assertEquals("completed", status(r));
    Node row = byText(read(), "Row 45");
    assertNotNull(row);
    assertTrue(row.visible);
    assertTrue(firstVisible() <= 44);
  }

  /** A row is clicked through the list's own accessibility action: the app's item listener gets its position. */
  @Test
  public void clickingARowReachesTheItemListener() throws Exception {
    assertEquals("completed", status(act(
        "{\"action\":\"control_action\",\"request\":{\"selector\":{\"text\":\"Row 3\"},\"action\":\"click\"}}")));
    assertEquals("[2]", app().clicked.toString());
  }
}
