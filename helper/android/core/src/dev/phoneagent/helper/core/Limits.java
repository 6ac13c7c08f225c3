package dev.phoneagent.helper.core;

import java.util.Arrays;
import java.util.List;

/** The protocol's limits (PROTOCOL.md §3), the same numbers as src/device/protocol/limits.ts. */
public final class Limits {
  private Limits() {}

  public static final int MAX_BODY_BYTES = 256 * 1024;
  /** A request's headers must be in within this (ms) of its first byte, else 408 and close. */
  public static final int HEADER_TIMEOUT_MS = 10_000;
  /** The whole request, body included, within this (ms) of its first byte, else 408 and close. */
  public static final int BODY_TIMEOUT_MS = 30_000;
  /** Nesting of arrays/objects allowed in a body; deeper → 400, decided before parsing. */
  public static final int MAX_JSON_DEPTH = 64;
  public static final int MAX_FINGERS = 5;
  public static final int MIN_FRAMES = 2;
  public static final int MAX_FRAMES = 32;
  public static final int MAX_GESTURE_MS = 10_000;
  public static final int MAX_PINCH_MS = 10_000;
  public static final int MAX_WAIT_MS = 30_000;
  public static final int MAX_SCROLLS = 20;
  public static final int MAX_SCROLL_MS = 30_000;
  /** scroll_to's budget when the request names none. */
  public static final int DEFAULT_SCROLLS = 10;
  public static final int DEFAULT_SCROLL_MS = 10_000;
  public static final int MAX_BURST_ACTIONS = 8;
  public static final int MAX_GROUP_WAIT_MS = 3_000;
  public static final int MAX_SEQUENCE_TEXT_CHARS = 1_024;
  public static final int MAX_SEQUENCE_PARAM_CHARS = 16_384;
  public static final int MAX_TEXT_CHARS = 16_384;
  public static final int POLL_MS = 120;
  public static final int KEPT_RECEIPTS = 512;

  public static final List<String> ACTION_NAMES =
      Arrays.asList(
          "tap", "long_press", "swipe", "touch_gesture", "pinch", "key", "set_text", "ime_commit", "launch_app",
          "read_control", "control_action", "wait_until", "scroll_to", "action_sequence");

  public static final List<String> READ_ONLY = Arrays.asList("read_control", "wait_until");
}
