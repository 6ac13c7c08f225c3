package dev.phoneagent.helper.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * scroll_to's {@code target_match: "title"} (PROTOCOL.md §7): the same rule as
 * src/device/protocol/scroll-target.ts, character for character — a text's title is what comes before
 * the first separator a row puts after its title, a cut's "…" dropped and a trailing price or count
 * removed; two texts match by title when their titles are equal, or a cut text's title begins the
 * node's. Both sides run helper/conformance/title-cases.json.
 */
public final class Titles {
  private Titles() {}

  private static final Pattern AFTER_TITLE = Pattern.compile(" — | – | · | ¶ | \\| |, |，|、|; |；|: |：|\n");
  /** Spaces spelled out (Java's \s is not JavaScript's), so both sides trim alike. */
  private static final String WS = "[ \\t\\r\\n\\u00a0\\u2009\\u202f\\u3000]";
  private static final Pattern TRAILING_PRICE =
      Pattern.compile(WS + "+(?:[¥$€£₩₹]" + WS + "?[0-9.,]+|[0-9.,]+" + WS + "?(?:%|[¥$€£元]))$");
  private static final Pattern EDGES = Pattern.compile("^" + WS + "+|" + WS + "+$");
  private static final String CUT = "…";

  static String trim(String s) {
    return EDGES.matcher(s).replaceAll("");
  }

  /** A text's title; the text itself, trimmed, when nothing is left of it. */
  public static String titleOf(String text) {
    String whole = text.endsWith(CUT) ? text.substring(0, text.length() - CUT.length()) : text;
    String[] parts = AFTER_TITLE.split(whole, -1);
    String first = trim(parts.length > 0 ? parts[0] : whole);
    String bare = trim(TRAILING_PRICE.matcher(first).replaceAll(""));
    if (!bare.isEmpty()) return bare;
    return !first.isEmpty() ? first : trim(text);
  }

  /** Whether a node's text (or description) answers the wanted one by title. */
  public static boolean matches(String actual, String wanted) {
    if (actual.equals(wanted)) return true;
    String want = titleOf(wanted);
    if (want.isEmpty() || actual.isEmpty()) return false;
    String have = titleOf(actual);
    return wanted.endsWith(CUT) ? have.startsWith(want) : have.equals(want);
  }

  /**
   * The nodes a target names among these: those matching it exactly; with "title", when none does,
   * those whose text and description match it by title and every other field exactly.
   */
  public static List<Node> hits(List<Node> nodes, Map<String, Object> target, String match) {
    List<Node> exact = new ArrayList<Node>();
    for (Node n : nodes) if (Selectors.matches(n, target)) exact.add(n);
    String text = Selectors.str(target, "text"), desc = Selectors.str(target, "content_desc");
    if (!exact.isEmpty() || !"title".equals(match) || (text == null && desc == null)) return exact;
    Map<String, Object> rest = new HashMap<String, Object>(target);
    rest.remove("text");
    rest.remove("content_desc");
    List<Node> titled = new ArrayList<Node>();
    for (Node n : nodes)
      if (Selectors.matches(n, rest)
          && (text == null || matches(n.visibleText(), text))
          && (desc == null || matches(n.desc, desc))) titled.add(n);
    return titled;
  }

  /** A found node's label, as a receipt's {@code found} names it: its text, else its description. */
  public static String label(Node n) {
    return n.visibleText().isEmpty() ? n.desc : n.visibleText();
  }
}
