package dev.phoneagent.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import android.content.ComponentName;
import android.content.Intent;
import dev.phoneagent.helper.core.Node;
import dev.phoneagent.helper.core.Tree;
import java.util.concurrent.Callable;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.annotation.Config;

@RunWith(RobolectricTestRunner.class)
@Config(sdk = {26, 30, 34})
public class TreeReaderTest {
  RoboSystem sys;
  HelperService service;
  WidgetsApp app;

  @Before
  public void setUp() throws Exception {
    sys = RoboSystem.boot();
    sys.apps.install(WidgetsApp.PACKAGE, "Widgets", WidgetsApp.class, false);
    sys.apps.start(new Intent(Intent.ACTION_MAIN).setComponent(new ComponentName(WidgetsApp.PACKAGE, WidgetsApp.class.getName()))
        .addFlags(Intent.FLAG_ACTIVITY_NEW_TASK));
    sys.settle();
    app = (WidgetsApp) sys.apps.top();
    service = sys.connectHelper(null);
  }

  @After
  public void tearDown() {
    sys.shutdown();
  }

  Tree read() throws Exception {
    return sys.call(new Callable<Tree>() {
      @Override
      public Tree call() throws Exception {
        return TreeReader.read(service, 1, 0);
      }
    });
  }

  static Node byId(Tree t, String id) {
    for (Node n : t.nodes) if (n.resourceId.equals(id)) return n;
    return null;
  }

  @Test
  public void seekBarRange() throws Exception {
    Tree t = read();
    for (Node n : t.nodes) System.out.println("   " + n.id + " " + n.className + " '" + n.text + "' " + n.resourceId + " " + n.bounds.toJson() + " " + n.actions);
    Node seek = byId(t, "android:id/progress");
    assertNotNull("no SeekBar node", seek);
    assertEquals("android.widget.SeekBar", seek.className);
    assertTrue(seek.hasRange());
    assertEquals(200.0, seek.rangeMax, 0);
    assertEquals(50.0, seek.rangeCurrent, 0);
    assertEquals(WidgetsApp.PACKAGE, t.foregroundPackage);
  }
}
