package dev.phoneagent.helper.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/** The per-start token: 32 random bytes as hex, compared in constant time over SHA-256 digests. */
public final class Auth {
  private Auth() {}

  public static String newToken() {
    byte[] b = new byte[32];
    new SecureRandom().nextBytes(b);
    StringBuilder s = new StringBuilder();
    for (byte x : b) s.append(String.format("%02x", x & 0xff));
    return s.toString();
  }

  public static boolean same(String given, String expected) {
    if (given == null || expected == null) return false;
    try {
      MessageDigest a = MessageDigest.getInstance("SHA-256");
      MessageDigest b = MessageDigest.getInstance("SHA-256");
      return MessageDigest.isEqual(
          a.digest(given.getBytes(StandardCharsets.UTF_8)), b.digest(expected.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The token of an `authorization: Bearer T` header, or null. */
  public static String bearer(String header) {
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) return null;
    return header.substring(7).trim();
  }
}
