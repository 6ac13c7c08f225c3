package dev.phoneagent.helper.core;

import static dev.phoneagent.helper.core.TestMain.check;
import static dev.phoneagent.helper.core.TestMain.eq;
import static dev.phoneagent.helper.core.TestMain.test;

import dev.phoneagent.helper.jvm.ScriptedDevice;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Hostile requests against the HTTP layer (PROTOCOL.md §2–§4): early refusals, deadlines, JSON depth. */
final class HttpTests {
  private HttpTests() {}

  static final String TOKEN = "tok";

  /** What a raw client saw: the response head (null if none), and whether the server closed in time. */
  static final class Seen {
    String head;
    boolean closed;
    long ms;
  }

  /** Sends `head` (then `drip`, one byte every dripMs until an answer), reads for at most waitMs. */
  static Seen exchange(int port, String head, byte[] after, String drip, int dripMs, int waitMs) throws Exception {
    Socket s = new Socket("127.0.0.1", port);
    Seen seen = new Seen();
    long t0 = System.nanoTime();
    try {
      OutputStream out = s.getOutputStream();
      out.write(head.getBytes(StandardCharsets.ISO_8859_1));
      if (after != null) out.write(after);
      out.flush();
      InputStream in = s.getInputStream();
      int dripped = 0;
      StringBuilder got = new StringBuilder();
      long end = t0 / 1_000_000L + waitMs;
      while (true) {
        long left = end - System.nanoTime() / 1_000_000L;
        if (left <= 0) break;
        s.setSoTimeout((int) Math.max(1, Math.min(left, drip != null && got.length() == 0 ? dripMs : left)));
        int c;
        try {
          c = in.read();
        } catch (java.net.SocketTimeoutException e) {
          if (drip != null && got.length() == 0) {
            out.write(drip.charAt(dripped++ % drip.length()));
            out.flush();
          }
          continue;
        } catch (java.net.SocketException e) {
          seen.closed = true; // a reset counts as closed, but the answer is what a test looks at
          break;
        }
        if (c < 0) {
          seen.closed = true;
          break;
        }
        if (got.length() < 4096) got.append((char) c);
      }
      int blank = got.indexOf("\r\n\r\n");
      seen.head = blank < 0 ? null : got.substring(0, blank);
    } finally {
      seen.ms = (System.nanoTime() - t0) / 1_000_000L;
      s.close();
    }
    return seen;
  }

  static String status(Seen s) {
    return s.head == null ? null : s.head.split("\r\n")[0];
  }

  static HttpServer server(HttpLimits l) throws Exception {
    return new HttpServer(0, l, new Protocol(new ScriptedDevice(34), TOKEN, null, l));
  }

  static String nested(int depth) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < depth; i++) b.append("{\"a\":");
    b.append('1');
    for (int i = 0; i < depth; i++) b.append('}');
    return b.toString();
  }

  static void register() {
    test("json: nesting up to 64 parses, deeper (even 100,000) is a ParseError, brackets in strings do not count", new TestMain.Test() {
      public void run() throws Exception {
        check(Json.parse(nested(64)) instanceof Map, "64 deep");
        for (int d : new int[] {65, 100_000}) {
          try {
            Json.parse(nested(d));
            throw new AssertionError(d + " deep was accepted");
          } catch (Json.ParseError e) {
            check(e.getMessage().contains("64"), e.getMessage());
          }
        }
        StringBuilder arr = new StringBuilder();
        for (int i = 0; i < 10_000; i++) arr.append('[');
        for (int i = 0; i < 10_000; i++) arr.append(']');
        try {
          Json.parse(arr.toString());
          throw new AssertionError("10,000 arrays deep was accepted");
        } catch (Json.ParseError expected) {
          // refused before parsing
        }
        StringBuilder str = new StringBuilder("{\"s\":\"");
        for (int i = 0; i < 200; i++) str.append("[{\\\"");
        str.append("\"}");
        eq(1, Json.depth(str.toString(), 64), "depth of an object whose string holds brackets and escaped quotes");
      }
    });
    test("http: 401 / 413 / 405 decided from the headers, answered at once with connection: close, body never sent", new TestMain.Test() {
      public void run() throws Exception {
        HttpServer s = server(HttpLimits.DEFAULTS);
        try {
          String[][] cases = {
            {"POST /v3/action HTTP/1.1\r\ncontent-length: 100000\r\n\r\n", "401"},
            {"POST /action HTTP/1.1\r\nx-android-bridge-token: wrong\r\ncontent-length: 100000\r\n\r\n", "401"},
            {"POST /v3/action HTTP/1.1\r\nauthorization: Bearer tok\r\ncontent-length: 99999999\r\n\r\n", "413"},
            {"POST /action HTTP/1.1\r\nx-android-bridge-token: tok\r\ncontent-length: 99999999\r\n\r\n", "413"},
            {"PUT /v3/hello HTTP/1.1\r\nauthorization: Bearer tok\r\ncontent-length: 100000\r\n\r\n", "405"},
          };
          for (String[] c : cases) {
            Seen r = exchange(s.port(), c[0], null, null, 0, 3_000);
            check(r.head != null && r.head.startsWith("HTTP/1.1 " + c[1] + " "), c[0].split("\r\n")[0] + ": " + status(r));
            check(r.head.toLowerCase().contains("connection: close"), "connection: close: " + r.head);
            check(r.closed && r.ms < 2_500, "closed within the linger (~1 s): " + r.ms + " ms, closed " + r.closed);
          }
        } finally {
          s.close();
        }
      }
    });
    test("http: a refused client that sends its whole body anyway still reads the 401 (linger, no reset)", new TestMain.Test() {
      public void run() throws Exception {
        HttpServer s = server(HttpLimits.DEFAULTS);
        try {
          byte[] body = new byte[200_000];
          Seen r = exchange(s.port(), "POST /v3/action HTTP/1.1\r\ncontent-length: 200000\r\n\r\n", body, null, 0, 3_000);
          eq("HTTP/1.1 401 Unauthorized", status(r), "answer");
        } finally {
          s.close();
        }
      }
    });
    test("http: headers that never finish → 408 and closed within headerTimeoutMs", new TestMain.Test() {
      public void run() throws Exception {
        HttpServer s = server(new HttpLimits(Limits.MAX_BODY_BYTES, 300, 5_000));
        try {
          Seen r = exchange(s.port(), "POST /v3/hello HTTP/1.1\r\nhost: x\r\n", null, "x-slow: 1", 20, 3_000);
          eq("HTTP/1.1 408 Request Timeout", status(r), "answer");
          check(r.closed, "closed");
          check(r.ms >= 250 && r.ms < 1_500, "408 after the 300 ms header deadline, not the 5 s body one: " + r.ms + " ms");
        } finally {
          s.close();
        }
      }
    });
    test("http: an authorized body that stalls → 408 and closed within bodyTimeoutMs", new TestMain.Test() {
      public void run() throws Exception {
        HttpServer s = server(new HttpLimits(Limits.MAX_BODY_BYTES, 200, 600));
        try {
          Seen r = exchange(s.port(), "POST /v3/action HTTP/1.1\r\nauthorization: Bearer tok\r\ncontent-length: 200\r\n\r\n{\"action\":", null, null, 0, 3_000);
          eq("HTTP/1.1 408 Request Timeout", status(r), "answer");
          check(r.head.toLowerCase().contains("connection: close"), r.head);
          check(r.closed, "closed");
          check(r.ms >= 500 && r.ms < 2_000, "408 after the 600 ms deadline: " + r.ms + " ms");
        } finally {
          s.close();
        }
      }
    });
    test("http: hello announces the deadlines and JSON depth; defaults are PROTOCOL §3's; keep-alive serves a second request", new TestMain.Test() {
      public void run() throws Exception {
        Map<?, ?> l = (Map<?, ?>) new Protocol(new ScriptedDevice(34), TOKEN, null).hello().get("limits");
        eq(10_000, l.get("headerTimeoutMs"), "default header deadline");
        eq(30_000, l.get("bodyTimeoutMs"), "default body deadline");
        eq(64, l.get("maxJsonDepth"), "depth");
        eq(Limits.MAX_BODY_BYTES, l.get("maxBodyBytes"), "body");
        eq(900, new HttpLimits(1, 900, 100).bodyTimeoutMs, "the body deadline is never shorter than the header one");
        HttpServer s = server(new HttpLimits(4096, 400, 800));
        try {
          String req = "POST /v3/hello HTTP/1.1\r\nauthorization: Bearer tok\r\ncontent-length: 2\r\n\r\n{}";
          Socket c = new Socket("127.0.0.1", s.port());
          try {
            c.setSoTimeout(3_000);
            OutputStream out = c.getOutputStream();
            InputStream in = c.getInputStream();
            for (int i = 0; i < 2; i++) {
              out.write(req.getBytes(StandardCharsets.ISO_8859_1));
              out.flush();
              String h = HttpServer.readHead(in);
              eq("HTTP/1.1 200 OK", h.split("\r\n")[0], "request " + i);
              int len = 0;
              for (String line : h.split("\r\n")) if (line.toLowerCase().startsWith("content-length:")) len = Integer.parseInt(line.substring(15).trim());
              String body = new String(HttpServer.readN(in, len), StandardCharsets.UTF_8);
              check(body.contains("\"headerTimeoutMs\":400") && body.contains("\"bodyTimeoutMs\":800") && body.contains("\"maxBodyBytes\":4096"), body);
            }
          } finally {
            c.close();
          }
        } finally {
          s.close();
        }
      }
    });
    test("http: JSON nested 10,000 deep → 400 over HTTP (v3 and compat), never 500", new TestMain.Test() {
      public void run() throws Exception {
        HttpServer s = server(HttpLimits.DEFAULTS);
        try {
          String[] heads = {"POST /v3/action HTTP/1.1\r\nauthorization: Bearer tok\r\n", "POST /action HTTP/1.1\r\nx-android-bridge-token: tok\r\n"};
          byte[] body = ("{\"action\":" + nested(10_000) + "}").getBytes(StandardCharsets.UTF_8);
          for (String h : heads) {
            String[] r = EngineTests.http(s.port(), h + "content-length: " + body.length + "\r\n\r\n", body);
            eq("HTTP/1.1 400 Bad Request", r[0], h.split(" ")[1]);
            check(r[1].contains("64"), r[1]);
          }
        } finally {
          s.close();
        }
      }
    });
  }
}
