package dev.phoneagent.helper;

import android.accessibilityservice.AccessibilityService;
import android.util.Log;
import android.view.accessibility.AccessibilityEvent;
import dev.phoneagent.helper.core.Auth;
import dev.phoneagent.helper.core.HttpLimits;
import dev.phoneagent.helper.core.HttpServer;
import dev.phoneagent.helper.core.Protocol;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The helper's AccessibilityService: while Android keeps it bound it serves protocol v3 on
 * 127.0.0.1:7912. A fresh token per start is written to files/token (app-private; the host reads it
 * with `adb shell run-as dev.phoneagent.helper cat files/token`) and never logged.
 */
public final class HelperService extends AccessibilityService {
  static final String TAG = "PhoneAgentHelper";
  public static final int PORT = 7912;

  /** 7912 on a phone; the Robolectric tests bind 0 (an ephemeral port) and may shorten the deadlines. */
  int listenPort = PORT;
  HttpLimits limits = HttpLimits.DEFAULTS;

  private HttpServer server;
  private AndroidDevice device;
  private Protocol protocol;

  @Override
  protected void onServiceConnected() {
    device = new AndroidDevice(this);
    String token = Auth.newToken();
    if (!writeToken(token)) return;
    protocol = new Protocol(device, token, new Protocol.Log() {
      @Override
      public void line(String method, String path, int status) {
        // Method, path and status only: never bodies, screen text or the token.
        Log.i(TAG, method + " " + path + " " + status);
      }
    }, limits);
    try {
      server = new HttpServer(listenPort, limits, protocol);
      Log.i(TAG, "serving protocol 3 on 127.0.0.1:" + server.port());
    } catch (IOException e) {
      Log.e(TAG, "cannot listen on 127.0.0.1:" + listenPort + ": " + e.getMessage());
    }
  }

  private boolean writeToken(String token) {
    File f = new File(getFilesDir(), "token");
    try {
      FileOutputStream out = new FileOutputStream(f);
      try {
        out.write(token.getBytes(StandardCharsets.US_ASCII));
      } finally {
        out.close();
      }
      f.setReadable(false, false);
      f.setReadable(true, true);
      return true;
    } catch (IOException e) {
      Log.e(TAG, "cannot write the token file: " + e.getMessage());
      return false;
    }
  }

  /** The port the server listens on (0 before it does). */
  int port() {
    return server == null ? 0 : server.port();
  }

  @Override
  public void onAccessibilityEvent(AccessibilityEvent event) {
    if (device != null) device.onEvent(event.getEventType());
  }

  @Override
  public void onInterrupt() {
    if (protocol != null) protocol.engine().ops().cancelAll();
  }

  @Override
  public void onDestroy() {
    if (protocol != null) protocol.engine().ops().cancelAll();
    if (server != null) server.close();
    new File(getFilesDir(), "token").delete();
    super.onDestroy();
  }
}
