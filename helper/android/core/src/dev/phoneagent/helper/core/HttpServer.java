package dev.phoneagent.helper.core;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A small HTTP/1.1 server over java.net.ServerSocket, bound to 127.0.0.1 only (screen content is
 * personal data and the bridge drives the phone). One thread per connection, keep-alive, bodies by
 * Content-Length. Token, method, path and size are decided from the headers (Handler.early) before a
 * byte of the body is read; a refusal is answered at once with `connection: close`, then what the
 * client still sends is discarded for a bounded while. Headers and the whole request have deadlines
 * from the request's first byte (HttpLimits): late → 408 and close. PROTOCOL.md §2–§4.
 */
public final class HttpServer {
  public interface Handler {
    /**
     * The answer decided from the headers alone (401, 404, 405, 413 for a Content-Length over the
     * limit), or null to read the body and call handle.
     */
    Response early(String method, String path, Map<String, String> headers, long contentLength);

    /** body is null when it was over the server's limit. */
    Response handle(String method, String path, Map<String, String> headers, byte[] body);
  }

  public static final class Response {
    final int status;
    final byte[] body;

    public Response(int status, String json) {
      this.status = status;
      this.body = json.getBytes(StandardCharsets.UTF_8);
    }

    public int status() {
      return status;
    }
  }

  /** An idle keep-alive connection (no byte of a next request) is closed after this, silently. */
  static final int KEEP_ALIVE_MS = 5_000;

  static final Response TIMEOUT = new Response(408, "");

  private final ServerSocket socket;
  private final Handler handler;
  private final HttpLimits limits;
  private volatile boolean closed;

  public HttpServer(int port, int maxBody, Handler handler) throws IOException {
    this(port, new HttpLimits(maxBody, Limits.HEADER_TIMEOUT_MS, Limits.BODY_TIMEOUT_MS), handler);
  }

  public HttpServer(int port, HttpLimits limits, Handler handler) throws IOException {
    this.socket = new ServerSocket(port, 16, InetAddress.getByName("127.0.0.1"));
    this.handler = handler;
    this.limits = limits;
    Thread t = new Thread(new Runnable() {
      @Override
      public void run() {
        acceptLoop();
      }
    }, "helper-http");
    t.setDaemon(true);
    t.start();
  }

  public int port() {
    return socket.getLocalPort();
  }

  public void close() {
    closed = true;
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }

  void acceptLoop() {
    while (!closed) {
      try {
        final Socket s = socket.accept();
        s.setTcpNoDelay(true);
        Thread t = new Thread(new Runnable() {
          @Override
          public void run() {
            serve(s);
          }
        }, "helper-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        if (closed) return;
      }
    }
  }

  void serve(Socket s) {
    InputStream in = null;
    OutputStream out = null;
    try {
      in = new BufferedInputStream(s.getInputStream(), 8192);
      out = s.getOutputStream();
      while (!closed) {
        int first;
        try {
          first = HttpWire.read(s, in, HttpWire.now() + KEEP_ALIVE_MS);
        } catch (HttpWire.Late idle) {
          break; // no request begun: nothing to answer
        }
        if (first < 0 || !request(s, in, out, first, HttpWire.now())) break;
      }
    } catch (HttpWire.Late e) {
      try {
        HttpWire.write(out, TIMEOUT, false);
        HttpWire.linger(s, in);
      } catch (IOException ignored) {
        // the client went away
      }
    } catch (IOException ignored) {
      // the client went away, or sent a head we do not read
    } finally {
      try {
        s.close();
      } catch (IOException ignored) {
        // already closed
      }
    }
  }

  /** One request whose first byte arrived at t0; false when the connection is to be closed. */
  boolean request(Socket s, InputStream in, OutputStream out, int firstByte, long t0) throws IOException {
    String head = HttpWire.readHead(s, in, firstByte, t0 + limits.headerTimeoutMs);
    String[] lines = head.split("\r\n");
    String[] first = lines[0].split(" ");
    if (first.length < 3) return refuse(s, in, out, Protocol.error(400, "INVALID_ARGUMENT", "bad request line"));
    Map<String, String> headers = new HashMap<String, String>();
    for (int i = 1; i < lines.length; i++) {
      int c = lines[i].indexOf(':');
      if (c > 0) headers.put(lines[i].substring(0, c).trim().toLowerCase(Locale.ROOT), lines[i].substring(c + 1).trim());
    }
    long len = contentLength(headers.get("content-length"));
    if (len < 0 || headers.containsKey("transfer-encoding"))
      return refuse(s, in, out, Protocol.error(400, "INVALID_ARGUMENT", "send a Content-Length body (chunked bodies are not accepted)"));
    String method = first[0], path = first[1];
    Response early = handler.early(method, path, headers, len);
    if (early == null && len > limits.maxBodyBytes) early = handler.handle(method, path, headers, null);
    if (early != null) return refuse(s, in, out, early);
    if (len > 0 && "100-continue".equalsIgnoreCase(headers.get("expect"))) {
      out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
    }
    byte[] body = HttpWire.readN(s, in, (int) len, t0 + limits.bodyTimeoutMs);
    String conn = headers.get("connection");
    boolean keep = first[2].equals("HTTP/1.0") ? "keep-alive".equalsIgnoreCase(conn) : !"close".equalsIgnoreCase(conn);
    HttpWire.write(out, handler.handle(method, path, headers, body), keep);
    return keep;
  }

  /** A Content-Length of digits only (absent = 0), or -1. */
  static long contentLength(String v) {
    if (v == null) return 0;
    if (v.isEmpty() || v.length() > 18) return -1;
    for (int i = 0; i < v.length(); i++) if (v.charAt(i) < '0' || v.charAt(i) > '9') return -1;
    return Long.parseLong(v);
  }

  private static boolean refuse(Socket s, InputStream in, OutputStream out, Response r) throws IOException {
    HttpWire.write(out, r, false);
    HttpWire.linger(s, in);
    return false;
  }

  /** Client side, for tests: a response head up to the blank line (excluded), or null at EOF. */
  static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int state = 0;
    while (true) {
      int c = in.read();
      if (c < 0) return null;
      b.write(c);
      state = (c == '\r' && (state == 0 || state == 2)) ? state + 1 : (c == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
      if (state == 4) break;
    }
    String h = new String(b.toByteArray(), StandardCharsets.ISO_8859_1);
    return h.substring(0, h.length() - 4);
  }

  static byte[] readN(InputStream in, int n) throws IOException {
    byte[] buf = new byte[n];
    int off = 0;
    while (off < n) {
      int r = in.read(buf, off, n - off);
      if (r < 0) throw new IOException("body ended early");
      off += r;
    }
    return buf;
  }
}
