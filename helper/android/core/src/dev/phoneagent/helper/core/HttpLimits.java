package dev.phoneagent.helper.core;

/**
 * The HTTP-level bounds one server enforces and hello announces (PROTOCOL.md §3): body size, and the
 * header and whole-request deadlines (both counted from a request's first byte). The body deadline
 * is never shorter than the header one.
 */
public final class HttpLimits {
  public static final HttpLimits DEFAULTS = new HttpLimits(Limits.MAX_BODY_BYTES, Limits.HEADER_TIMEOUT_MS, Limits.BODY_TIMEOUT_MS);

  public final int maxBodyBytes;
  public final int headerTimeoutMs;
  public final int bodyTimeoutMs;

  public HttpLimits(int maxBodyBytes, int headerTimeoutMs, int bodyTimeoutMs) {
    if (maxBodyBytes < 0 || headerTimeoutMs <= 0 || bodyTimeoutMs <= 0)
      throw new IllegalArgumentException("limits must be positive: body " + maxBodyBytes + ", header " + headerTimeoutMs + " ms, body " + bodyTimeoutMs + " ms");
    this.maxBodyBytes = maxBodyBytes;
    this.headerTimeoutMs = headerTimeoutMs;
    this.bodyTimeoutMs = Math.max(headerTimeoutMs, bodyTimeoutMs);
  }
}
