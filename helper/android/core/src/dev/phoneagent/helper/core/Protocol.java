package dev.phoneagent.helper.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Protocol v3's endpoints over HttpServer (PROTOCOL.md §4–§5, §8): auth, limits, hello, snapshot,
 * apps, action, cancel, and the plugin-compatible /action. Logs nothing of a request (no token, no text).
 */
public final class Protocol implements HttpServer.Handler {
  public static final String VERSION = "0.1.0";

  /** Where the helper may log method, path, status and error code — never bodies or tokens. */
  public interface Log {
    void line(String method, String path, int status);
  }

  final Device device;
  final Engine engine;
  final Compat compat;
  final String token;
  final Log log;
  /** What the server in front enforces, announced in hello.limits. */
  final HttpLimits limits;

  public Protocol(Device device, String token, Log log) {
    this(device, token, log, HttpLimits.DEFAULTS);
  }

  public Protocol(Device device, String token, Log log, HttpLimits limits) {
    this.device = device;
    this.engine = new Engine(device);
    this.compat = new Compat(this);
    this.token = token;
    this.log = log;
    this.limits = limits;
  }

  public Engine engine() {
    return engine;
  }

  static HttpServer.Response error(int status, String code, String message) {
    return new HttpServer.Response(status, Json.write(Json.obj("error", Json.obj("code", code, "message", message))));
  }

  static HttpServer.Response ok(Object body) {
    return new HttpServer.Response(200, Json.write(body));
  }

  @Override
  public HttpServer.Response early(String method, String path, Map<String, String> headers, long contentLength) {
    HttpServer.Response r = refusal(method, bare(path), headers, contentLength);
    if (r != null && log != null) log.line(method, bare(path), r.status);
    return r;
  }

  @Override
  public HttpServer.Response handle(String method, String path, Map<String, String> headers, byte[] body) {
    HttpServer.Response r = route(method, bare(path), headers, body);
    if (log != null) log.line(method, bare(path), r.status);
    return r;
  }

  static String bare(String path) {
    int q = path.indexOf('?');
    return q >= 0 ? path.substring(0, q) : path;
  }

  /**
   * What is decided from the headers, before a byte of the body is read (PROTOCOL.md §2): the path,
   * the token, the method and a Content-Length over the limit. contentLength is MAX_VALUE for a
   * body the server did not keep.
   */
  HttpServer.Response refusal(String method, String path, Map<String, String> headers, long contentLength) {
    if (path.equals("/action")) return compat.refusal(method, headers, contentLength);
    boolean v3 = path.equals("/v3/hello") || path.equals("/v3/snapshot") || path.equals("/v3/apps") || path.equals("/v3/action") || path.equals("/v3/cancel");
    if (!v3) return error(404, "NO_SUCH_ENDPOINT", "no endpoint " + path + "; the helper serves POST /v3/hello, /v3/snapshot, /v3/apps, /v3/action, /v3/cancel and /action");
    if (!Auth.same(Auth.bearer(headers.get("authorization")), token))
      return error(401, "UNAUTHORIZED", "missing or wrong token: send authorization: Bearer <token> (phone-agent helper status shows how to get it)");
    if (!method.equals("POST")) return error(405, "INVALID_ARGUMENT", "every endpoint is POST");
    if (contentLength > limits.maxBodyBytes) return error(413, "PAYLOAD_TOO_LARGE", "the body is over " + limits.maxBodyBytes + " bytes");
    return null;
  }

  HttpServer.Response route(String method, String path, Map<String, String> headers, byte[] body) {
    if (path.equals("/action")) return compat.handle(method, headers, body);
    HttpServer.Response refused = refusal(method, path, headers, body == null ? Long.MAX_VALUE : body.length);
    if (refused != null) return refused;
    Object json;
    try {
      String text = new String(body, StandardCharsets.UTF_8);
      json = text.trim().isEmpty() ? Json.obj() : Json.parse(text);
    } catch (Json.ParseError e) {
      return error(400, "INVALID_ARGUMENT", e.getMessage());
    }
    if (!(json instanceof Map)) return error(400, "INVALID_ARGUMENT", "the body must be a JSON object");
    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) json;
    try {
      if (path.equals("/v3/hello")) return ok(hello());
      if (path.equals("/v3/snapshot")) return snapshot(m);
      if (path.equals("/v3/apps")) return apps(m);
      if (path.equals("/v3/cancel")) return cancel(m);
      return ok(engine.run(engine.validate(m)));
    } catch (Requests.Invalid e) {
      return error(400, "INVALID_ARGUMENT", e.getMessage());
    } catch (RuntimeException e) {
      return error(500, "INTERNAL", "the helper failed: " + e.getClass().getSimpleName());
    }
  }

  public Map<String, Object> hello() {
    DeviceInfo i = device.info();
    return Json.obj(
        "protocol", 3, "helperVersion", VERSION, "apiLevel", i.apiLevel,
        "device", Json.obj("manufacturer", i.manufacturer, "model", i.model, "androidVersion", i.androidVersion),
        "screen", screen(i), "capabilities", new ArrayList<Object>(i.capabilities),
        "limits", Json.obj("maxBodyBytes", limits.maxBodyBytes, "headerTimeoutMs", limits.headerTimeoutMs,
            "bodyTimeoutMs", limits.bodyTimeoutMs, "maxJsonDepth", Limits.MAX_JSON_DEPTH, "maxBurstActions", Limits.MAX_BURST_ACTIONS,
            "maxWaitMs", Limits.MAX_WAIT_MS, "maxScrolls", Limits.MAX_SCROLLS, "maxGestureMs", Limits.MAX_GESTURE_MS));
  }

  static Map<String, Object> screen(DeviceInfo i) {
    return Json.obj("width", i.width, "height", i.height, "rotation", i.rotation, "density", i.density);
  }

  HttpServer.Response cancel(Map<String, Object> m) throws Requests.Invalid {
    Object id = m.get("op_id");
    if (!(id instanceof String) || ((String) id).isEmpty() || ((String) id).length() > 64 || m.size() != 1)
      throw new Requests.Invalid("op_id: cancel takes exactly { op_id: string (1–64) }");
    return ok(Json.obj("op_id", id, "state", engine.ops().cancel((String) id)));
  }

  /** The launcher's apps with their labels (PROTOCOL.md §5 `/v3/apps`); the body must be `{}`. */
  HttpServer.Response apps(Map<String, Object> m) throws Requests.Invalid {
    if (!m.isEmpty()) throw new Requests.Invalid("apps takes an empty body {}; unknown field " + m.keySet().iterator().next());
    List<Object> out = new ArrayList<Object>();
    for (String[] a : device.launchables()) {
      Map<String, Object> app = Json.obj("package", a[1], "label", a[0]);
      if (a.length > 2 && a[2] != null) app.put("activity", a[2]);
      out.add(app);
    }
    return ok(Json.obj("apps", out));
  }

  HttpServer.Response snapshot(Map<String, Object> m) throws Requests.Invalid {
    Schema.Obj shot =
        Schema.obj().f("format", new Schema.Enum("png", "jpeg").def("png")).f("scale", Schema.num().range(0.01, 1).def(1.0))
            .f("quality", Schema.integer(1, 100).def(80.0));
    List<String> errs = new ArrayList<String>();
    @SuppressWarnings("unchecked")
    Map<String, Object> req = (Map<String, Object>) Schema.obj().f("screenshot", shot.opt()).check(m, "", errs);
    if (!errs.isEmpty()) throw new Requests.Invalid(String.join("; ", errs));
    Tree t;
    try {
      t = device.read();
    } catch (Device.ReadFailed e) {
      t = new Tree(); // an empty nodes array is a failed read, never an empty screen
      t.takenAt = device.now();
    }
    Map<String, Object> out = treeJson(t, device.info());
    @SuppressWarnings("unchecked")
    Map<String, Object> s = (Map<String, Object>) req.get("screenshot");
    if (s != null) {
      Device.Image img = device.screenshot((String) s.get("format"), ((Number) s.get("scale")).doubleValue(), ((Number) s.get("quality")).intValue());
      if (img != null)
        out.put("screenshot", Json.obj("format", img.format, "width", img.width, "height", img.height, "offsetY", img.offsetY,
            "base64", Base64.getEncoder().encodeToString(img.bytes)));
    }
    return ok(out);
  }

  public static Map<String, Object> treeJson(Tree t, DeviceInfo i) {
    List<Object> wins = new ArrayList<Object>();
    for (Win w : t.windows) wins.add(w.toJson());
    List<Object> nodes = new ArrayList<Object>();
    for (Node n : t.nodes) nodes.add(n.toJson());
    Map<String, Object> kb = Json.obj("shown", t.keyboardShown);
    if (t.keyboardBounds != null) kb.put("bounds", t.keyboardBounds.toJson());
    return Json.obj(
        "seq", t.seq, "takenAt", t.takenAt, "screen", screen(i),
        "foreground", Json.obj("package", t.foregroundPackage, "activity", t.foregroundActivity),
        "keyboard", kb, "windows", wins, "nodes", nodes);
  }
}
