package dev.phoneagent.helper.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader and writer (objects → LinkedHashMap, arrays → ArrayList, numbers → Double or
 * Long). Hand-written so the helper has no dependency to ship in its dex.
 */
public final class Json {
  private Json() {}

  public static final class ParseError extends Exception {
    public ParseError(String message) {
      super(message);
    }
  }

  public static Object parse(String s) throws ParseError {
    if (depth(s, Limits.MAX_JSON_DEPTH) > Limits.MAX_JSON_DEPTH)
      throw new ParseError("JSON nested deeper than " + Limits.MAX_JSON_DEPTH + " levels");
    Reader r = new Reader(s);
    r.ws();
    Object v = r.value(0);
    r.ws();
    if (r.i != s.length()) throw new ParseError("unexpected text after the JSON value at offset " + r.i);
    return v;
  }

  /**
   * The deepest nesting of arrays and objects in a JSON text, in one linear pass before parsing
   * (strings and their escapes skipped); stops counting once past `max`.
   */
  public static int depth(String s, int max) {
    int depth = 0, deepest = 0;
    boolean inString = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (inString) {
        if (c == '\\') i++;
        else if (c == '"') inString = false;
      } else if (c == '"') inString = true;
      else if (c == '[' || c == '{') {
        if (++depth > deepest) deepest = depth;
        if (deepest > max) return deepest;
      } else if (c == ']' || c == '}') depth--;
    }
    return deepest;
  }

  private static final class Reader {
    final String s;
    int i;

    Reader(String s) {
      this.s = s;
    }

    void ws() {
      while (i < s.length()) {
        char c = s.charAt(i);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') i++;
        else break;
      }
    }

    ParseError err(String what) {
      return new ParseError("malformed JSON: " + what + " at offset " + i);
    }

    Object value(int depth) throws ParseError {
      // depth = containers around this value; the pre-scan already bounds it, this keeps the stack safe.
      if (depth > Limits.MAX_JSON_DEPTH) throw err("nesting too deep");
      if (i >= s.length()) throw err("unexpected end");
      char c = s.charAt(i);
      switch (c) {
        case '{':
          return object(depth);
        case '[':
          return array(depth);
        case '"':
          return string();
        case 't':
          return literal("true", Boolean.TRUE);
        case 'f':
          return literal("false", Boolean.FALSE);
        case 'n':
          return literal("null", null);
        default:
          if (c == '-' || (c >= '0' && c <= '9')) return number();
          throw err("unexpected character '" + c + "'");
      }
    }

    Object literal(String word, Object v) throws ParseError {
      if (!s.startsWith(word, i)) throw err("unexpected word");
      i += word.length();
      return v;
    }

    Map<String, Object> object(int depth) throws ParseError {
      Map<String, Object> m = new LinkedHashMap<String, Object>();
      i++;
      ws();
      if (i < s.length() && s.charAt(i) == '}') {
        i++;
        return m;
      }
      while (true) {
        ws();
        if (i >= s.length() || s.charAt(i) != '"') throw err("expected a key");
        String k = string();
        ws();
        if (i >= s.length() || s.charAt(i) != ':') throw err("expected ':'");
        i++;
        ws();
        m.put(k, value(depth + 1));
        ws();
        if (i >= s.length()) throw err("unexpected end");
        char c = s.charAt(i++);
        if (c == '}') return m;
        if (c != ',') throw err("expected ',' or '}'");
      }
    }

    List<Object> array(int depth) throws ParseError {
      List<Object> a = new ArrayList<Object>();
      i++;
      ws();
      if (i < s.length() && s.charAt(i) == ']') {
        i++;
        return a;
      }
      while (true) {
        ws();
        a.add(value(depth + 1));
        ws();
        if (i >= s.length()) throw err("unexpected end");
        char c = s.charAt(i++);
        if (c == ']') return a;
        if (c != ',') throw err("expected ',' or ']'");
      }
    }

    String string() throws ParseError {
      StringBuilder b = new StringBuilder();
      i++;
      while (true) {
        if (i >= s.length()) throw err("unterminated string");
        char c = s.charAt(i++);
        if (c == '"') return b.toString();
        if (c < 0x20) throw err("control character in string");
        if (c != '\\') {
          b.append(c);
          continue;
        }
        if (i >= s.length()) throw err("unterminated escape");
        char e = s.charAt(i++);
        switch (e) {
          case '"':
          case '\\':
          case '/':
            b.append(e);
            break;
          case 'b':
            b.append('\b');
            break;
          case 'f':
            b.append('\f');
            break;
          case 'n':
            b.append('\n');
            break;
          case 'r':
            b.append('\r');
            break;
          case 't':
            b.append('\t');
            break;
          case 'u':
            if (i + 4 > s.length()) throw err("short \\u escape");
            try {
              b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
            } catch (NumberFormatException x) {
              throw err("bad \\u escape");
            }
            i += 4;
            break;
          default:
            throw err("bad escape");
        }
      }
    }

    Object number() throws ParseError {
      int start = i;
      if (s.charAt(i) == '-') i++;
      while (i < s.length() && "0123456789.eE+-".indexOf(s.charAt(i)) >= 0) i++;
      String t = s.substring(start, i);
      try {
        if (t.indexOf('.') < 0 && t.indexOf('e') < 0 && t.indexOf('E') < 0 && t.length() < 18)
          return Long.valueOf(Long.parseLong(t));
        return Double.valueOf(Double.parseDouble(t));
      } catch (NumberFormatException x) {
        throw err("bad number");
      }
    }
  }

  /** Serialize maps, lists, strings, numbers, booleans, null (and Jsonable). */
  public static String write(Object v) {
    StringBuilder b = new StringBuilder();
    write(b, v);
    return b.toString();
  }

  @SuppressWarnings("unchecked")
  static void write(StringBuilder b, Object v) {
    if (v == null) b.append("null");
    else if (v instanceof String) quote(b, (String) v);
    else if (v instanceof Boolean) b.append(v.toString());
    else if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      if (d == Math.rint(d) && Math.abs(d) < 1e15) b.append((long) d);
      else b.append(d);
    } else if (v instanceof Number) b.append(v.toString());
    else if (v instanceof Map) {
      b.append('{');
      boolean first = true;
      for (Map.Entry<String, Object> e : ((Map<String, Object>) v).entrySet()) {
        if (e.getValue() == null) continue; // absent fields are omitted, never null
        if (!first) b.append(',');
        first = false;
        quote(b, e.getKey());
        b.append(':');
        write(b, e.getValue());
      }
      b.append('}');
    } else if (v instanceof List) {
      b.append('[');
      boolean first = true;
      for (Object o : (List<Object>) v) {
        if (!first) b.append(',');
        first = false;
        write(b, o);
      }
      b.append(']');
    } else throw new IllegalArgumentException("not JSON: " + v.getClass().getName());
  }

  static void quote(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"') b.append("\\\"");
      else if (c == '\\') b.append("\\\\");
      else if (c == '\n') b.append("\\n");
      else if (c == '\r') b.append("\\r");
      else if (c == '\t') b.append("\\t");
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    b.append('"');
  }

  /** A map literal helper: obj("a", 1, "b", "x"). */
  public static Map<String, Object> obj(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<String, Object>();
    for (int i = 0; i + 1 < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
    return m;
  }
}
