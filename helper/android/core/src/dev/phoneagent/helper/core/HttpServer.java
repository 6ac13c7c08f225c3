package dev.phoneagent.helper.core;

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
 * Content-Length; a body over the limit is drained and answered 413.
 */
public final class HttpServer {
  public interface Handler {
    Response handle(String method, String path, Map<String, String> headers, byte[] body);
  }

  public static final class Response {
    final int status;
    final byte[] body;

    public Response(int status, String json) {
      this.status = status;
      this.body = json.getBytes(StandardCharsets.UTF_8);
    }
  }

  /** Largest body drained before the 413 is sent; beyond it the connection is closed. */
  static final int DRAIN_LIMIT = 8 * 1024 * 1024;

  private final ServerSocket socket;
  private final Handler handler;
  private final int maxBody;
  private volatile boolean closed;

  public HttpServer(int port, int maxBody, Handler handler) throws IOException {
    this.socket = new ServerSocket(port, 16, InetAddress.getByName("127.0.0.1"));
    this.handler = handler;
    this.maxBody = maxBody;
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
    try {
      InputStream in = s.getInputStream();
      OutputStream out = s.getOutputStream();
      while (!closed) {
        String head = readHead(in);
        if (head == null) break;
        String[] lines = head.split("\r\n");
        String[] first = lines[0].split(" ");
        if (first.length < 3) {
          write(out, new Response(400, "{\"error\":{\"code\":\"INVALID_ARGUMENT\",\"message\":\"bad request line\"}}"), false);
          break;
        }
        Map<String, String> headers = new HashMap<String, String>();
        for (int i = 1; i < lines.length; i++) {
          int c = lines[i].indexOf(':');
          if (c > 0) headers.put(lines[i].substring(0, c).trim().toLowerCase(Locale.ROOT), lines[i].substring(c + 1).trim());
        }
        long len = 0;
        try {
          if (headers.containsKey("content-length")) len = Long.parseLong(headers.get("content-length"));
        } catch (NumberFormatException e) {
          len = -1;
        }
        if (len < 0 || headers.containsKey("transfer-encoding")) {
          write(out, new Response(400, "{\"error\":{\"code\":\"INVALID_ARGUMENT\",\"message\":\"send a Content-Length body (chunked bodies are not accepted)\"}}"), false);
          break;
        }
        byte[] body = null;
        if (len <= maxBody) body = readN(in, (int) len);
        else if (len <= DRAIN_LIMIT) skip(in, len);
        else {
          write(out, handler.handle(first[0], first[1], headers, null), false);
          break;
        }
        boolean keep = !"close".equalsIgnoreCase(headers.get("connection"));
        write(out, handler.handle(first[0], first[1], headers, body), keep);
        if (!keep) break;
      }
    } catch (IOException ignored) {
      // the client went away
    } finally {
      try {
        s.close();
      } catch (IOException ignored) {
        // already closed
      }
    }
  }

  static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int state = 0;
    while (true) {
      int c = in.read();
      if (c < 0) return null;
      b.write(c);
      if (b.size() > 16 * 1024) throw new IOException("header too large");
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

  static void skip(InputStream in, long n) throws IOException {
    byte[] buf = new byte[8192];
    while (n > 0) {
      int r = in.read(buf, 0, (int) Math.min(buf.length, n));
      if (r < 0) throw new IOException("body ended early");
      n -= r;
    }
  }

  static void write(OutputStream out, Response r, boolean keep) throws IOException {
    String head =
        "HTTP/1.1 " + r.status + " " + reason(r.status) + "\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: "
            + r.body.length + "\r\nconnection: " + (keep ? "keep-alive" : "close") + "\r\n\r\n";
    out.write(head.getBytes(StandardCharsets.ISO_8859_1));
    out.write(r.body);
    out.flush();
  }

  static String reason(int s) {
    switch (s) {
      case 200:
        return "OK";
      case 400:
        return "Bad Request";
      case 401:
        return "Unauthorized";
      case 404:
        return "Not Found";
      case 405:
        return "Method Not Allowed";
      case 413:
        return "Payload Too Large";
      default:
        return "Internal Server Error";
    }
  }
}
