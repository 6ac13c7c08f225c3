package dev.phoneagent.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowLog;

/** The service's life: its token file, requests without the token, its log, interrupt and destroy. */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {26, 34})
public class HelperServiceTest extends HelperFixture {
  File tokenFile() {
    return new File(service.getFilesDir(), "token");
  }

  @Test
  public void theTokenIsFreshPrivateAndNeededForEveryRequest() throws Exception {
    assertTrue(token, token.matches("[0-9a-f]{64}"));
    Set<PosixFilePermission> p = Files.getPosixFilePermissions(tokenFile().toPath());
    assertTrue(p.toString(), p.contains(PosixFilePermission.OWNER_READ));
    for (PosixFilePermission other : new PosixFilePermission[] {PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ})
      assertFalse(p.toString(), p.contains(other));
    assertEquals(401, statusOf("/v3/hello", null));
    assertEquals(401, statusOf("/v3/hello", "Bearer " + token.replace(token.charAt(0), token.charAt(0) == 'a' ? 'b' : 'a')));
    assertEquals(401, statusOf("/v3/snapshot", "Basic " + token));
    assertEquals(200, statusOf("/v3/hello", "Bearer " + token));
  }

  /** The log has method, path and status: never the token, a body, or what is on the screen. */
  @Test
  public void theLogHoldsNoTokenAndNoScreenText() throws Exception {
    post("/v3/snapshot", "{}");
    action("{\"action\":\"set_text\",\"selector\":{\"resource_id\":\"android:id/edit\"},\"text\":\"secret words\"}");
    boolean sawSnapshot = false;
    for (ShadowLog.LogItem l : ShadowLog.getLogsForTag(HelperService.TAG)) {
      assertFalse(l.msg, l.msg.contains(token));
      assertFalse(l.msg, l.msg.contains("Widgets") || l.msg.contains("secret"));
      sawSnapshot |= l.msg.equals("POST /v3/snapshot 200");
    }
    assertTrue(String.valueOf(ShadowLog.getLogsForTag(HelperService.TAG)), sawSnapshot);
  }

  /** Android interrupts the service (onInterrupt): a wait in progress ends as cancelled, not at its timeout. */
  @Test
  public void anInterruptCancelsAWaitInProgress() throws Exception {
    final FutureTask<Map<String, Object>> wait = new FutureTask<Map<String, Object>>(new Callable<Map<String, Object>>() {
      @Override
      public Map<String, Object> call() throws Exception {
        return request("/v3/action", "{\"action\":\"wait_until\",\"condition\":\"appears\",\"selector\":{\"text\":\"Never shown\"},\"timeout_ms\":30000}");
      }
    });
    final int before = sys.windowReads.get();
    // The client on its own thread; this (main) thread plays the system until the wait has polled.
    Thread t = new Thread(wait, "test-client");
    t.start();
    sys.serve(new Callable<Boolean>() {
      @Override
      public Boolean call() {
        return sys.windowReads.get() >= before + 3;
      }
    }, 60_000);
    service.onInterrupt();
    sys.serve(new Callable<Boolean>() {
      @Override
      public Boolean call() {
        return wait.isDone();
      }
    }, 60_000);
    assertEquals("cancelled CANCELLED", status(wait.get()));
  }

  /** The user turns the service off: the server closes and the token is deleted; on again, a new token. */
  @Test
  public void destroyClosesTheServerAndDeletesTheToken() throws Exception {
    int port = service.port();
    String first = token;
    sys.disconnectHelper();
    assertFalse("the token file outlives the service", tokenFile().exists());
    try {
      new Socket("127.0.0.1", port).close();
      fail("the server still listens on " + port + " after onDestroy");
    } catch (ConnectException expected) {
      // closed
    }
    service = sys.connectHelper(null);
    token = sys.token();
    assertNotEquals(first, token);
    assertEquals(401, statusOf("/v3/hello", "Bearer " + first));
    assertEquals(200, statusOf("/v3/hello", "Bearer " + token));
  }
}
