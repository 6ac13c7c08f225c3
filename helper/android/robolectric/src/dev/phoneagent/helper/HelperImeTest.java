package dev.phoneagent.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.annotation.Config;

/** The helper keyboard commits through the focused EditText's own InputConnection. */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {26, 34})
public class HelperImeTest extends HelperFixture {
  String name() {
    return ui(new Callable<String>() {
      @Override
      public String call() {
        return widgets().name.getText().toString();
      }
    });
  }

  @Test
  public void commitsUnicodeAtTheCursorAndSendsEnter() throws Exception {
    @SuppressWarnings("unchecked")
    List<Object> before = (List<Object>) post("/v3/hello", "{}").get("capabilities");
    assertTrue("ime_commit is offered only with the helper keyboard", !before.contains("ime_commit"));
    sys.keyboard.start();
    sys.settle();
    @SuppressWarnings("unchecked")
    List<Object> caps = (List<Object>) post("/v3/hello", "{}").get("capabilities");
    assertTrue(caps.contains("ime_commit"));
    Map<String, Object> r = action("{\"action\":\"ime_commit\",\"text\":\"你好😀\"}");
    assertEquals("completed", status(r));
    assertEquals("你好😀", name());
    assertEquals("completed", status(action("{\"action\":\"ime_commit\",\"text\":\" ok\"}")));
    assertEquals("你好😀 ok", name());
    assertEquals("completed", status(action("{\"action\":\"key\",\"key\":\"delete\"}")));
    assertEquals("你好😀 o", name());
    assertEquals("completed", status(action("{\"action\":\"key\",\"key\":\"enter\"}")));
    sys.settle();
    // The field's own action (imeOptions SEARCH), once, as a keyboard's enter key sends it — not
    // KEYCODE_ENTER, which TextView hands the listener twice (down, up) as IME_NULL.
    assertEquals("[edit:" + android.view.inputmethod.EditorInfo.IME_ACTION_SEARCH + "]", widgets().editorActions.toString());
  }
}
