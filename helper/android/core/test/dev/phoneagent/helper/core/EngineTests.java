package dev.phoneagent.helper.core;

import static dev.phoneagent.helper.core.TestMain.check;
import static dev.phoneagent.helper.core.TestMain.eq;
import static dev.phoneagent.helper.core.TestMain.test;

import dev.phoneagent.helper.jvm.ScriptedDevice;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Receipts, op ids, cancel, BUSY and the HTTP layer, over the scripted tree. */
final class EngineTests {
  private EngineTests() {}

  /** The scripted tree whose gestures block until released: an input still "running". */
  static final class Held implements Device {
    final ScriptedDevice d = new ScriptedDevice(34);
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    public DeviceInfo info() {
      return d.info();
    }

    public Tree read() {
      return d.read();
    }

    public Tree lookup(String viewId, String text) {
      return d.lookup(viewId, text);
    }

    public boolean gesture(List<Stroke> s) throws InterruptedException {
      entered.countDown();
      release.await(5, TimeUnit.SECONDS);
      return d.gesture(s);
    }

    public boolean key(String k) {
      return d.key(k);
    }

    public boolean nodeAction(Node n, String op, Double v, String t, int s, int e) {
      return d.nodeAction(n, op, v, t, s, e);
    }

    public boolean commitText(String t) {
      return d.commitText(t);
    }

    public List<String[]> launchables() {
      return d.launchables();
    }

    public boolean launch(String p, String a) {
      return d.launch(p, a);
    }

    public Image screenshot(String f, double s, int q) {
      return d.screenshot(f, s, q);
    }

    public long now() {
      return d.now();
    }

    public void sleep(long ms) {
      d.sleep(ms);
    }
  }

  static Map<String, Object> act(Engine e, String json) throws Exception {
    return e.run(e.validate(Json.parse(json)));
  }

  static String code(Map<String, Object> r) {
    @SuppressWarnings("unchecked")
    Map<String, Object> err = (Map<String, Object>) r.get("error");
    return err == null ? null : (String) err.get("code");
  }

  /** One raw HTTP exchange; returns the status line and the body. */
  static String[] http(int port, String head, byte[] body) throws Exception {
    Socket s = new Socket("127.0.0.1", port);
    try {
      OutputStream out = s.getOutputStream();
      out.write(head.getBytes(StandardCharsets.ISO_8859_1));
      if (body != null) out.write(body);
      out.flush();
      InputStream in = s.getInputStream();
      String h = HttpServer.readHead(in);
      int len = 0;
      for (String line : h.split("\r\n")) if (line.toLowerCase().startsWith("content-length:")) len = Integer.parseInt(line.substring(15).trim());
      return new String[] {h.split("\r\n")[0], new String(HttpServer.readN(in, len), StandardCharsets.UTF_8)};
    } finally {
      s.close();
    }
  }

  static String guardedTap(String text, int top) {
    return "{\"action\":\"tap\",\"x\":200,\"y\":750,\"coord_space\":\"pixel\",\"guard\":{\"class_name\":\"android.widget.TextView\","
        + "\"resource_id\":\"\",\"text\":\"" + text + "\",\"desc\":\"" + text + "\",\"editable\":false,"
        + "\"bounds\":{\"left\":60,\"top\":" + top + ",\"right\":340,\"bottom\":" + (top + 300) + "}}}";
  }

  static void register() {
    test("engine: a guarded tap on a replaced or moved target is STALE and touches nothing; an intact one taps", new TestMain.Test() {
      public void run() throws Exception {
        ScriptedDevice d = new ScriptedDevice(34);
        Engine e = new Engine(d);
        check(d.info().capabilities.contains("guarded_touch"), "guarded_touch advertised");
        Map<String, Object> other = act(e, guardedTap("Clock", 600));
        eq("STALE", code(other), "another icon is there now");
        eq("not_delivered", other.get("delivery"), "nothing delivered");
        check(((Map<?, ?>) other.get("timings")).get("dispatched_at") == null, "never dispatched");
        eq("STALE", code(act(e, guardedTap("Settings", 700))), "moved 100 px");
        eq(0, d.gestures.size(), "no gesture");
        Map<String, Object> ok = act(e, guardedTap("Settings", 600));
        eq("completed", ok.get("status"), "intact target tapped");
        eq(1, d.gestures.size(), "one gesture");
      }
    });
    test("engine: a target with a resource id is resolved and read back by Android's view-id query, no walk", new TestMain.Test() {
      public void run() throws Exception {
        ScriptedDevice d = new ScriptedDevice(34);
        Engine e = new Engine(d);
        String bar = "{\"resource_id\":\"com.android.settings:id/search_action_bar\"}";
        act(e, "{\"action\":\"launch_app\",\"package\":\"com.android.settings\"}");
        eq("completed", act(e, "{\"action\":\"control_action\",\"request\":{\"selector\":" + bar + ",\"action\":\"click\"}}").get("status"), "search opened");
        d.walks = 0;
        d.queries = 0;
        Map<String, Object> r =
            act(e, "{\"action\":\"set_text\",\"selector\":{\"resource_id\":\"com.android.settings:id/search_src_text\",\"class_name\":\"EditText\"},\"text\":\"wifi\"}");
        eq("completed", r.get("status"), "set_text");
        eq("wifi", ((Map<?, ?>) r.get("after")).get("text"), "read back");
        eq(0, d.walks, "no tree walk");
        eq(2, d.queries, "a query to resolve, one to read back");
        // By text: the text query; a substring of a text is not the text (exact selectors), and
        // a query with no exact match walks the tree before answering NOT_FOUND.
        d.walks = 0;
        eq("observed", act(e, "{\"action\":\"read_control\",\"selector\":{\"text\":\"No results\"}}").get("status"), "by text");
        eq(0, d.walks, "found by the text query");
        eq("NOT_FOUND", code(act(e, "{\"action\":\"read_control\",\"selector\":{\"text\":\"no res\"}}")), "substring");
        eq(1, d.walks, "walked before NOT_FOUND");
        // Neither id nor text: the tree is walked.
        eq("observed", act(e, "{\"action\":\"read_control\",\"selector\":{\"class_name\":\"EditText\"}}").get("status"), "by class");
        eq(2, d.walks, "walked");
      }
    });
    test("engine: a guard on a two-finger gesture is invalid", new TestMain.Test() {
      public void run() throws Exception {
        Engine e = new Engine(new ScriptedDevice(34));
        try {
          act(e, "{\"action\":\"touch_gesture\",\"coord_space\":\"pixel\",\"guard\":{\"class_name\":\"a.B\",\"resource_id\":\"\",\"text\":\"x\",\"desc\":\"\",\"editable\":false,\"bounds\":{\"left\":0,\"top\":0,\"right\":10,\"bottom\":10}},"
              + "\"frames\":[{\"at_ms\":0,\"points\":[{\"x\":100,\"y\":500},{\"x\":600,\"y\":900}]},{\"at_ms\":100,\"points\":[{\"x\":100,\"y\":500},{\"x\":600,\"y\":900}]}]}");
          throw new AssertionError("accepted");
        } catch (Requests.Invalid x) {
          check(x.getMessage().contains("one finger"), x.getMessage());
        }
      }
    });
    test("engine: a resent op id returns the stored receipt and dispatches nothing", new TestMain.Test() {
      public void run() throws Exception {
        ScriptedDevice d = new ScriptedDevice(34);
        Engine e = new Engine(d);
        Map<String, Object> first = act(e, "{\"action\":\"tap\",\"x\":500,\"y\":500,\"op_id\":\"op-1\"}");
        eq("completed", first.get("status"), "first");
        Map<String, Object> again = act(e, "{\"action\":\"tap\",\"x\":500,\"y\":500,\"op_id\":\"op-1\"}");
        eq(Boolean.TRUE, again.get("replayed"), "replayed");
        eq(1, d.gestures.size(), "one dispatch");
        try {
          act(e, "{\"action\":\"key\",\"key\":\"back\",\"op_id\":\"op-1\"}");
          throw new AssertionError("op id reused for another action was accepted");
        } catch (Requests.Invalid x) {
          check(x.getMessage().contains("op-1"), x.getMessage());
        }
      }
    });
    test("engine: a cancel that arrives first blocks the op for good", new TestMain.Test() {
      public void run() throws Exception {
        ScriptedDevice d = new ScriptedDevice(34);
        Engine e = new Engine(d);
        eq("pending", e.ops().cancel("late"), "state");
        Map<String, Object> r = act(e, "{\"action\":\"tap\",\"x\":5,\"y\":5,\"op_id\":\"late\"}");
        eq("cancelled", r.get("status"), "status");
        eq("CANCELLED", code(r), "code");
        eq(0, d.gestures.size(), "no gesture");
        eq("done", e.ops().cancel("late"), "too late now");
      }
    });
    test("engine: a second input while one runs is BUSY; reads are never blocked", new TestMain.Test() {
      public void run() throws Exception {
        final Held d = new Held();
        final Engine e = new Engine(d);
        final Map<String, Object>[] first = new Map[1];
        Thread t = new Thread(new Runnable() {
          public void run() {
            try {
              first[0] = act(e, "{\"action\":\"tap\",\"x\":500,\"y\":500}");
            } catch (Exception x) {
              throw new RuntimeException(x);
            }
          }
        });
        t.start();
        check(d.entered.await(5, TimeUnit.SECONDS), "the first tap started");
        Map<String, Object> busy = act(e, "{\"action\":\"key\",\"key\":\"home\",\"op_id\":\"k1\"}");
        eq("BUSY", code(busy), "busy");
        eq("not_delivered", busy.get("delivery"), "nothing delivered");
        Map<String, Object> read = act(e, "{\"action\":\"read_control\",\"selector\":{\"text\":\"Settings\"}}");
        eq("observed", read.get("status"), "read while busy");
        d.release.countDown();
        t.join(5000);
        eq("completed", first[0].get("status"), "first finished");
        eq("completed", act(e, "{\"action\":\"key\",\"key\":\"home\",\"op_id\":\"k1\"}").get("status"), "a BUSY op id can be sent again");
      }
    });
    test("engine: actions missing from the capabilities are UNSUPPORTED receipts", new TestMain.Test() {
      public void run() throws Exception {
        Engine e = new Engine(new ScriptedDevice(25));
        Map<String, Object> r = act(e, "{\"action\":\"pinch\",\"x\":500,\"y\":500,\"start_distance\":100,\"end_distance\":300}");
        eq("UNSUPPORTED", code(r), "pinch on API 25");
        check(String.valueOf(((Map<?, ?>) r.get("error")).get("message")).contains("API 25"), "names the API level");
      }
    });
    test("engine: receipts carry timings in order and before/after states", new TestMain.Test() {
      public void run() throws Exception {
        Engine e = new Engine(new ScriptedDevice(34));
        act(e, "{\"action\":\"launch_app\",\"label\":\"settings\"}");
        Map<String, Object> r = act(e, "{\"action\":\"control_action\",\"request\":{\"selector\":{\"resource_id\":\"com.android.settings:id/recycler_view\"},\"action\":\"scroll_forward\"}}");
        eq("completed", r.get("status"), "scrolled");
        Map<?, ?> t = (Map<?, ?>) r.get("timings");
        long rec = ((Number) t.get("received_at")).longValue(), disp = ((Number) t.get("dispatched_at")).longValue(), end = ((Number) t.get("ended_at")).longValue();
        check(rec <= disp && disp <= end, "received ≤ dispatched ≤ ended");
        check(r.get("before") != null && r.get("after") != null, "before and after");
      }
    });
    test("engine: set_progress outside the range and text ops on labels fail without input", new TestMain.Test() {
      public void run() throws Exception {
        Engine e = new Engine(new ScriptedDevice(34));
        eq("UNSUPPORTED", code(act(e, "{\"action\":\"control_action\",\"request\":{\"selector\":{\"text\":\"Settings\"},\"action\":\"set_progress\",\"value\":1}}")), "no range");
        Map<String, Object> r = act(e, "{\"action\":\"set_text\",\"selector\":{\"text\":\"Settings\"},\"text\":\"x\"}");
        eq("NOT_EDITABLE", code(r), "label");
        eq("not_delivered", r.get("delivery"), "nothing delivered");
      }
    });
    test("engine: action_sequence stops at the first failure and keeps member receipts", new TestMain.Test() {
      public void run() throws Exception {
        Engine e = new Engine(new ScriptedDevice(34));
        Map<String, Object> r = act(e, "{\"action\":\"action_sequence\",\"op_id\":\"s\",\"actions\":[{\"action\":\"wait_until\",\"condition\":\"stable\",\"timeout_ms\":1000},{\"action\":\"control_action\",\"request\":{\"selector\":{\"text\":\"absent\"},\"action\":\"click\"}},{\"action\":\"wait_until\",\"condition\":\"stable\",\"timeout_ms\":500}]}");
        eq("not_started", r.get("status"), "nothing ran before the failure");
        List<?> m = (List<?>) r.get("members");
        eq(2, m.size(), "two members ran");
        eq("s#1", ((Map<?, ?>) m.get(1)).get("op_id"), "member op id");
        check(String.valueOf(((Map<?, ?>) r.get("error")).get("message")).contains("actions[1]"), "names the member");
      }
    });
    test("http: 401 before anything, 404, 405, 413, apps, keep-alive JSON answers", new TestMain.Test() {
      public void run() throws Exception {
        Protocol p = new Protocol(new ScriptedDevice(34), "tok", null);
        HttpServer s = new HttpServer(0, 1024, p);
        try {
          int port = s.port();
          eq("HTTP/1.1 401 Unauthorized", http(port, "POST /v3/hello HTTP/1.1\r\ncontent-length: 2\r\n\r\n", "{}".getBytes())[0], "no token");
          eq("HTTP/1.1 404 Not Found", http(port, "POST /v4 HTTP/1.1\r\nauthorization: Bearer tok\r\ncontent-length: 0\r\n\r\n", null)[0], "unknown path");
          eq("HTTP/1.1 405 Method Not Allowed", http(port, "GET /v3/hello HTTP/1.1\r\nauthorization: Bearer tok\r\n\r\n", null)[0], "GET");
          byte[] big = new byte[2048];
          eq("HTTP/1.1 413 Payload Too Large", http(port, "POST /v3/action HTTP/1.1\r\nauthorization: Bearer tok\r\ncontent-length: 2048\r\n\r\n", big)[0], "over the limit");
          String[] hello = http(port, "POST /v3/hello HTTP/1.1\r\nauthorization: Bearer tok\r\ncontent-length: 2\r\n\r\n", "{}".getBytes());
          check(hello[1].contains("\"protocol\":3"), hello[1]);
          check(hello[1].contains("\"list_apps\""), "hello declares list_apps: " + hello[1]);
          String[] apps = http(port, "POST /v3/apps HTTP/1.1\r\nauthorization: Bearer tok\r\ncontent-length: 2\r\n\r\n", "{}".getBytes());
          eq("HTTP/1.1 200 OK", apps[0], "apps");
          check(apps[1].contains("{\"package\":\"com.android.settings\",\"label\":\"Settings\",\"activity\":\"com.android.settings.Settings\"}"), apps[1]);
          check(apps[1].contains("{\"package\":\"com.android.documentsui\",\"label\":\"Files\"}"), "no activity when unknown: " + apps[1]);
          String[] bad = http(port, "POST /v3/apps HTTP/1.1\r\nauthorization: Bearer tok\r\ncontent-length: 9\r\n\r\n", "{\"x\":1}  ".getBytes());
          eq("HTTP/1.1 400 Bad Request", bad[0], "apps with a field");
          String[] compat = http(port, "POST /action HTTP/1.1\r\nx-android-bridge-token: tok\r\ncontent-length: 24\r\n\r\n", "{\"action\":\"read_screen\"}".getBytes());
          check(compat[1].startsWith("{\"ok\":true"), compat[1]);
        } finally {
          s.close();
        }
      }
    });
  }
}
