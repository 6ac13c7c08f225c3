package dev.phoneagent.helper.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A tiny strict schema checker for request bodies, mirroring src/device/protocol's zod schemas:
 * unknown keys are refused, defaults applied, and every message names the path of the bad field.
 */
public abstract class Schema {
  /** Checks v at path; adds messages to errs; returns the normalized value. */
  public abstract Object check(Object v, String path, List<String> errs);

  public Object fallback;
  public boolean optional;

  public Schema opt() {
    optional = true;
    return this;
  }

  public Schema def(Object d) {
    fallback = d;
    optional = true;
    return this;
  }

  static String kind(Object v) {
    if (v == null) return "null";
    if (v instanceof String) return "string";
    if (v instanceof Number) return "number";
    if (v instanceof Boolean) return "boolean";
    if (v instanceof List) return "array";
    return "object";
  }

  static String at(String path) {
    return path.isEmpty() ? "(body)" : path;
  }

  public static final class Num extends Schema {
    boolean integer;
    double min = Double.NEGATIVE_INFINITY, max = Double.POSITIVE_INFINITY;
    boolean positive;

    public Num integer() {
      integer = true;
      return this;
    }

    public Num range(double lo, double hi) {
      min = lo;
      max = hi;
      return this;
    }

    public Num positive() {
      positive = true;
      return this;
    }

    @Override
    public Object check(Object v, String path, List<String> errs) {
      if (!(v instanceof Number)) {
        errs.add(at(path) + ": expected number, received " + kind(v));
        return v;
      }
      double d = ((Number) v).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) errs.add(at(path) + ": expected a finite number");
      else if (integer && d != Math.rint(d)) errs.add(at(path) + ": expected an integer, received " + d);
      else if (d < min) errs.add(at(path) + ": too small: expected ≥ " + fmt(min) + ", received " + fmt(d));
      else if (d > max) errs.add(at(path) + ": too big: expected ≤ " + fmt(max) + ", received " + fmt(d));
      else if (positive && d <= 0) errs.add(at(path) + ": expected a number > 0");
      return Double.valueOf(d);
    }
  }

  static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }

  public static final class Str extends Schema {
    int min, max = Integer.MAX_VALUE;
    Pattern pattern;
    String patternMessage;

    public Str len(int lo, int hi) {
      min = lo;
      max = hi;
      return this;
    }

    public Str matching(String regex, String message) {
      pattern = Pattern.compile(regex);
      patternMessage = message;
      return this;
    }

    @Override
    public Object check(Object v, String path, List<String> errs) {
      if (!(v instanceof String)) {
        errs.add(at(path) + ": expected string, received " + kind(v));
        return v;
      }
      String s = (String) v;
      if (s.length() < min) errs.add(at(path) + ": too short: expected at least " + min + " characters");
      else if (s.length() > max) errs.add(at(path) + ": too long: expected at most " + max + " characters");
      else if (pattern != null && !pattern.matcher(s).matches()) errs.add(at(path) + ": " + patternMessage);
      return s;
    }
  }

  public static final class Enum extends Schema {
    final List<String> values;

    public Enum(String... values) {
      this.values = Arrays.asList(values);
    }

    @Override
    public Object check(Object v, String path, List<String> errs) {
      if (!(v instanceof String) || !values.contains(v))
        errs.add(at(path) + ": expected one of " + String.join("|", values) + ", received " + Json.write(v));
      return v;
    }
  }

  public static final class Bool extends Schema {
    @Override
    public Object check(Object v, String path, List<String> errs) {
      if (!(v instanceof Boolean)) errs.add(at(path) + ": expected boolean, received " + kind(v));
      return v;
    }
  }

  public static final class Arr extends Schema {
    final Schema of;
    final int min, max;

    public Arr(Schema of, int min, int max) {
      this.of = of;
      this.min = min;
      this.max = max;
    }

    @Override
    public Object check(Object v, String path, List<String> errs) {
      if (!(v instanceof List)) {
        errs.add(at(path) + ": expected array, received " + kind(v));
        return v;
      }
      List<?> in = (List<?>) v;
      if (in.size() < min) errs.add(at(path) + ": too small: expected at least " + min + " items");
      if (in.size() > max) errs.add(at(path) + ": too big: expected at most " + max + " items");
      List<Object> out = new ArrayList<Object>();
      for (int i = 0; i < in.size(); i++) out.add(of.check(in.get(i), path + "." + i, errs));
      return out;
    }
  }

  public static final class Obj extends Schema {
    final LinkedHashMap<String, Schema> fields = new LinkedHashMap<String, Schema>();

    public Obj f(String name, Schema s) {
      fields.put(name, s);
      return this;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object check(Object v, String path, List<String> errs) {
      if (!(v instanceof Map)) {
        errs.add(at(path) + ": expected object, received " + kind(v));
        return v;
      }
      Map<String, Object> in = (Map<String, Object>) v;
      Map<String, Object> out = new LinkedHashMap<String, Object>();
      for (String k : in.keySet())
        if (!fields.containsKey(k)) errs.add(at(path) + ": unrecognized key \"" + k + "\"");
      for (Map.Entry<String, Schema> e : fields.entrySet()) {
        String p = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
        Object x = in.get(e.getKey());
        if (x == null) {
          if (!e.getValue().optional) errs.add(p + ": required");
          else if (e.getValue().fallback != null) out.put(e.getKey(), e.getValue().fallback);
          continue;
        }
        out.put(e.getKey(), e.getValue().check(x, p, errs));
      }
      return out;
    }
  }

  public static Num num() {
    return new Num();
  }

  public static Num integer(double lo, double hi) {
    return new Num().integer().range(lo, hi);
  }

  public static Str str() {
    return new Str();
  }

  public static Obj obj() {
    return new Obj();
  }
}
