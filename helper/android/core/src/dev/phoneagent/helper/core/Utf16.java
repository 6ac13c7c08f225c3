package dev.phoneagent.helper.core;

/** UTF-16 index rules of text actions: Android's indices, and a surrogate pair is never split. */
public final class Utf16 {
  private Utf16() {}

  /** Null when [start, end] is a valid selection of text, else why not. */
  public static String checkRange(String text, int start, int end) {
    if (start < 0 || end < start || end > text.length())
      return "selection [" + start + "," + end + "] is outside the text (0.." + text.length() + " UTF-16 units)";
    if (splits(text, start) || splits(text, end))
      return "selection [" + start + "," + end + "] splits a surrogate pair (an emoji or other character outside the BMP)";
    return null;
  }

  /** True when index i falls between the two halves of a surrogate pair. */
  public static boolean splits(String text, int i) {
    return i > 0 && i < text.length() && Character.isHighSurrogate(text.charAt(i - 1)) && Character.isLowSurrogate(text.charAt(i));
  }

  /** Replace [start, end) with insert; the cursor goes to the end of the insertion. */
  public static String replace(String text, int start, int end, String insert) {
    return text.substring(0, start) + insert + text.substring(end);
  }
}
