package dev.phoneagent.helper.core;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * HttpServer's byte level: reads bounded by absolute deadlines (SO_TIMEOUT set to what is left
 * before every read, so a client dripping bytes cannot push a deadline out), answers, and the
 * bounded linger after a refusal.
 */
final class HttpWire {
  private HttpWire() {}

  /** A deadline passed while reading a request: answer 408 and close. */
  static final class Late extends IOException {
    Late() {
      super("request not in time");
    }
  }

  /** Largest request head (request line + headers). */
  static final int MAX_HEAD_BYTES = 16 * 1024;
  /** Bytes and time spent discarding what a refused client still sends, so it can read the answer. */
  static final int LINGER_BYTES = 1024 * 1024;
  static final int LINGER_MS = 1_000;

  static long now() {
    return System.nanoTime() / 1_000_000L;
  }

  /** One byte before `deadline` (ms on now()'s clock), or -1 at the end of the stream. */
  static int read(Socket s, InputStream in, long deadline) throws IOException {
    arm(s, deadline);
    try {
      return in.read();
    } catch (SocketTimeoutException e) {
      throw new Late();
    }
  }

  static int read(Socket s, InputStream in, byte[] buf, int off, int len, long deadline) throws IOException {
    arm(s, deadline);
    try {
      return in.read(buf, off, len);
    } catch (SocketTimeoutException e) {
      throw new Late();
    }
  }

  private static void arm(Socket s, long deadline) throws IOException {
    long left = deadline - now();
    if (left <= 0) throw new Late();
    s.setSoTimeout((int) Math.min(left, Integer.MAX_VALUE));
  }

  /** The rest of a request head whose first byte was `first`, up to the blank line (excluded). */
  static String readHead(Socket s, InputStream in, int first, long deadline) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int state = 0;
    int c = first;
    while (true) {
      if (c < 0) throw new IOException("the client closed inside the headers");
      b.write(c);
      if (b.size() > MAX_HEAD_BYTES) throw new IOException("header too large");
      state = (c == '\r' && (state == 0 || state == 2)) ? state + 1 : (c == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
      if (state == 4) break;
      c = read(s, in, deadline);
    }
    String h = new String(b.toByteArray(), StandardCharsets.ISO_8859_1);
    return h.substring(0, h.length() - 4);
  }

  static byte[] readN(Socket s, InputStream in, int n, long deadline) throws IOException {
    byte[] buf = new byte[n];
    int off = 0;
    while (off < n) {
      int r = read(s, in, buf, off, n - off, deadline);
      if (r < 0) throw new IOException("body ended early");
      off += r;
    }
    return buf;
  }

  static void write(OutputStream out, HttpServer.Response r, boolean keep) throws IOException {
    String head =
        "HTTP/1.1 " + r.status + " " + reason(r.status) + "\r\n" + (r.body.length > 0 ? "content-type: application/json; charset=utf-8\r\n" : "")
            + "content-length: " + r.body.length + "\r\nconnection: " + (keep ? "keep-alive\r\nkeep-alive: timeout=" + HttpServer.KEEP_ALIVE_MS / 1000 : "close")
            + "\r\n\r\n";
    out.write(head.getBytes(StandardCharsets.ISO_8859_1));
    out.write(r.body);
    out.flush();
  }

  /**
   * After a final answer (`connection: close`): end our side, then discard what the client still
   * sends for at most LINGER_MS / LINGER_BYTES (closing with unread input makes TCP reset the
   * connection, and the client may lose the answer). The caller closes the socket.
   */
  static void linger(Socket s, InputStream in) {
    try {
      s.shutdownOutput();
      long end = now() + LINGER_MS;
      byte[] buf = new byte[8192];
      long seen = 0;
      while (seen <= LINGER_BYTES) {
        int r = read(s, in, buf, 0, buf.length, end);
        if (r < 0) return;
        seen += r;
      }
    } catch (IOException ignored) {
      // Late or gone: close either way
    }
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
      case 408:
        return "Request Timeout";
      case 413:
        return "Payload Too Large";
      default:
        return "Internal Server Error";
    }
  }
}
