package dev.phoneagent.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import android.graphics.Bitmap;
import android.graphics.BitmapFactory;
import android.graphics.Color;
import android.os.Build;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.annotation.Config;

/**
 * Snapshots with a screenshot: takeScreenshot from API 30 (the system's HardwareBuffer wrapped,
 * copied, scaled and encoded by the helper), none before, and requests spaced by the system's interval.
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {26, 30, 34})
public class ScreenshotsTest extends HelperFixture {
  @SuppressWarnings("unchecked")
  Map<String, Object> shot(String options) throws Exception {
    Map<String, Object> snap = post("/v3/snapshot", "{\"screenshot\":" + options + "}");
    assertFalse("the tree comes with or without a picture", ((List<Object>) snap.get("nodes")).isEmpty());
    return (Map<String, Object>) snap.get("screenshot");
  }

  static Bitmap decode(Map<String, Object> shot) {
    byte[] bytes = Base64.getDecoder().decode((String) shot.get("base64"));
    Bitmap b = BitmapFactory.decodeByteArray(bytes, 0, bytes.length);
    assertNotNull("the image decodes", b);
    return b;
  }

  @SuppressWarnings("unchecked")
  @Test
  public void aPngOfTheWholeDisplayFromApi30() throws Exception {
    final int[] title = ui(new Callable<int[]>() {
      @Override
      public int[] call() {
        widgets().title.setBackgroundColor(Color.rgb(200, 30, 60));
        int[] at = new int[2];
        widgets().title.getLocationOnScreen(at);
        return new int[] {at[0] + widgets().title.getWidth() / 2, at[1] + widgets().title.getHeight() / 2};
      }
    });
    sys.settle();
    List<Object> caps = (List<Object>) post("/v3/hello", "{}").get("capabilities");
    Map<String, Object> s = shot("{\"format\":\"png\"}");
    if (Build.VERSION.SDK_INT < 30) {
      assertFalse(caps.contains("screenshot"));
      assertNull("no takeScreenshot before API 30: the tree only", s);
      assertEquals(0, sys.screen.captures);
      return;
    }
    assertTrue(caps.contains("screenshot"));
    assertEquals("png", s.get("format"));
    assertEquals(720, ((Number) s.get("width")).intValue());
    assertEquals(1280, ((Number) s.get("height")).intValue());
    byte[] bytes = Base64.getDecoder().decode((String) s.get("base64"));
    assertEquals((byte) 0x89, bytes[0]);
    assertEquals('P', bytes[1]);
    Bitmap b = decode(s);
    assertEquals(720, b.getWidth());
    assertEquals(1280, b.getHeight());
    // What is on the screen, channels in order: the title's background at the title.
    assertEquals(Integer.toHexString(b.getPixel(title[0], title[1])), Color.rgb(200, 30, 60), b.getPixel(title[0], title[1]));
  }

  @Test
  @Config(sdk = {30, 34})
  public void aScaledJpegAtTheAskedQuality() throws Exception {
    Map<String, Object> s = shot("{\"format\":\"jpeg\",\"scale\":0.5,\"quality\":40}");
    assertEquals("jpeg", s.get("format"));
    assertEquals(360, ((Number) s.get("width")).intValue());
    assertEquals(640, ((Number) s.get("height")).intValue());
    byte[] bytes = Base64.getDecoder().decode((String) s.get("base64"));
    assertEquals((byte) 0xFF, bytes[0]);
    assertEquals((byte) 0xD8, bytes[1]);
    Bitmap b = decode(s);
    assertEquals(360, b.getWidth());
    assertEquals(640, b.getHeight());
  }

  /** Two pictures in a row: the helper waits out the system's interval (1 s on API 30, 333 ms from 31) instead of being refused. */
  @Test
  @Config(sdk = {30, 34})
  public void backToBackPicturesAreSpacedByTheSystemsInterval() throws Exception {
    assertNotNull(shot("{\"format\":\"jpeg\",\"scale\":0.25}"));
    assertNotNull(shot("{\"format\":\"jpeg\",\"scale\":0.25}"));
    assertNotNull(shot("{\"format\":\"jpeg\",\"scale\":0.25}"));
    assertEquals("requests the system refused as too soon", 0, sys.screen.refused);
    List<Long> at = sys.screen.accepted;
    assertEquals(3, at.size());
    long interval = RoboScreen.intervalMs();
    assertEquals(Build.VERSION.SDK_INT >= 31 ? 333 : 1000, interval);
    for (int i = 1; i < at.size(); i++) assertTrue(at.toString(), at.get(i) - at.get(i - 1) > interval);
  }
}
