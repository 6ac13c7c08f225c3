package dev.phoneagent.helper;

import android.app.Activity;
import android.content.ComponentName;
import android.content.Intent;
import dev.phoneagent.helper.core.Json;
import dev.phoneagent.helper.core.Tree;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.After;
import org.junit.Before;

/**
 * One test's phone: the system booted, the widgets app in the foreground, the helper's service
 * bound and serving on an ephemeral port. Requests go over real HTTP with the token the service
 * wrote to files/token, from a worker thread, while the main thread plays the system.
 */
public abstract class HelperFixture {
  RoboSystem sys;
  HelperService service;
  String token;

  @Before
  public void boot() throws Exception {
    sys = RoboSystem.boot();
    sys.apps.install(WidgetsApp.PACKAGE, "Widgets", WidgetsApp.class, false);
    open(WidgetsApp.PACKAGE, WidgetsApp.class);
    service = sys.connectHelper(null);
    token = sys.token();
  }

  @After
  public void shutdown() {
    sys.shutdown();
  }

  void open(String pkg, Class<? extends Activity> k) {
    sys.apps.start(new Intent(Intent.ACTION_MAIN).setComponent(new ComponentName(pkg, k.getName())).addFlags(Intent.FLAG_ACTIVITY_NEW_TASK));
    sys.settle();
  }

  WidgetsApp widgets() {
    return (WidgetsApp) sys.apps.top();
  }

  /** The helper's own read of every window (TreeReader through the service). */
  Tree read() throws Exception {
    return sys.call(new Callable<Tree>() {
      @Override
      public Tree call() throws Exception {
        return TreeReader.read(service, 1, 0);
      }
    });
  }

  /** The HTTP status of a POST with the given Authorization header (null: none). */
  int statusOf(final String path, final String authorization) throws Exception {
    return sys.call(new Callable<Integer>() {
      @Override
      public Integer call() throws Exception {
        HttpURLConnection c = (HttpURLConnection) new URL("http://127.0.0.1:" + service.port() + path).openConnection();
        c.setRequestMethod("POST");
        c.setDoOutput(true);
        if (authorization != null) c.setRequestProperty("authorization", authorization);
        c.setRequestProperty("content-type", "application/json");
        OutputStream o = c.getOutputStream();
        o.write("{}".getBytes(StandardCharsets.UTF_8));
        o.close();
        return c.getResponseCode();
      }
    });
  }

  /** POST a JSON body; the parsed answer (the main thread plays the system meanwhile). */
  Map<String, Object> post(final String path, final String body) throws Exception {
    return sys.call(new Callable<Map<String, Object>>() {
      @Override
      public Map<String, Object> call() throws Exception {
        return request(path, body);
      }
    });
  }

  /** The HTTP request itself, on the calling thread: for a client thread while the main thread serves. */
  @SuppressWarnings("unchecked")
  Map<String, Object> request(String path, String body) throws Exception {
    HttpURLConnection c = (HttpURLConnection) new URL("http://127.0.0.1:" + service.port() + path).openConnection();
    c.setRequestMethod("POST");
    c.setDoOutput(true);
    c.setRequestProperty("authorization", "Bearer " + token);
    c.setRequestProperty("content-type", "application/json");
    OutputStream o = c.getOutputStream();
    o.write(body.getBytes(StandardCharsets.UTF_8));
    o.close();
    InputStream in = c.getResponseCode() < 400 ? c.getInputStream() : c.getErrorStream();
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    for (int n; (n = in.read(buf)) > 0; ) b.write(buf, 0, n);
    return (Map<String, Object>) Json.parse(b.toString("UTF-8"));
  }

  Map<String, Object> action(String json) throws Exception {
    return post("/v3/action", json);
  }

  static String q(String s) {
    return Json.write(s);
  }

  static String status(Map<String, Object> receipt) {
    Object e = receipt.get("error");
    return receipt.get("status") + (e == null ? "" : " " + ((Map<?, ?>) e).get("code"));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> node(Map<String, Object> snapshot, String resourceId) {
    for (Object o : (List<Object>) snapshot.get("nodes")) {
      Map<String, Object> n = (Map<String, Object>) o;
      if (resourceId.equals(n.get("resourceId"))) return n;
    }
    return null;
  }

  /** Run on the main thread (the UI's own state, read the way the app sees it). */
  <T> T ui(Callable<T> c) {
    return sys.onMain(c);
  }
}
