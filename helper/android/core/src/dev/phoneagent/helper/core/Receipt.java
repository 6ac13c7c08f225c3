package dev.phoneagent.helper.core;

import java.util.LinkedHashMap;
import java.util.Map;

/** A receipt under construction (PROTOCOL.md §6); `done()` stamps ended_at and yields the JSON map. */
public final class Receipt {
  public final Map<String, Object> m = new LinkedHashMap<String, Object>();
  final Map<String, Object> timings = new LinkedHashMap<String, Object>();

  public Receipt(String opId, String action, long receivedAt, long startedAt) {
    m.put("op_id", opId);
    m.put("action", action);
    m.put("status", "not_started");
    m.put("delivery", "not_delivered");
    timings.put("received_at", receivedAt);
    timings.put("started_at", startedAt);
    m.put("timings", timings);
  }

  public Receipt status(String status, String delivery) {
    m.put("status", status);
    m.put("delivery", delivery);
    return this;
  }

  public Receipt error(String code, String message) {
    m.put("error", Json.obj("code", code, "message", message));
    return this;
  }

  public Receipt fail(String code, String message) {
    return status("not_started", "not_delivered").error(code, message);
  }

  public Receipt put(String k, Object v) {
    m.put(k, v);
    return this;
  }

  public void dispatched(long at) {
    timings.put("dispatched_at", at);
  }

  public String status() {
    return (String) m.get("status");
  }

  @SuppressWarnings("unchecked")
  public String errorCode() {
    Object e = m.get("error");
    return e == null ? null : (String) ((Map<String, Object>) e).get("code");
  }

  public Map<String, Object> done(long at) {
    timings.put("ended_at", at);
    return m;
  }
}
