package dev.phoneagent.helper.jvm;

import dev.phoneagent.helper.core.Auth;
import dev.phoneagent.helper.core.HttpLimits;
import dev.phoneagent.helper.core.HttpServer;
import dev.phoneagent.helper.core.Limits;
import dev.phoneagent.helper.core.Protocol;

/**
 * The helper's HTTP layer on the JVM over the scripted tree: `java -cp … JvmMain [--port P]
 * [--token T] [--api N] [--header-timeout-ms MS] [--body-timeout-ms MS]` (the deadlines default to
 * PROTOCOL.md §3's and are announced in hello.limits). Prints `listening http://127.0.0.1:PORT` once ready; the token is the one
 * passed (or a random one, printed only when generated here, as the virtual phone does).
 */
public final class JvmMain {
  private JvmMain() {}

  public static void main(String[] args) throws Exception {
    int port = 0;
    int api = 34;
    String token = null;
    int headerMs = Limits.HEADER_TIMEOUT_MS;
    int bodyMs = Limits.BODY_TIMEOUT_MS;
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (args[i].equals("--port")) port = Integer.parseInt(args[i + 1]);
      else if (args[i].equals("--token")) token = args[i + 1];
      else if (args[i].equals("--api")) api = Integer.parseInt(args[i + 1]);
      else if (args[i].equals("--header-timeout-ms")) headerMs = Integer.parseInt(args[i + 1]);
      else if (args[i].equals("--body-timeout-ms")) bodyMs = Integer.parseInt(args[i + 1]);
      else
        throw new IllegalArgumentException(
            "unknown option " + args[i] + "; use --port P --token T --api N --header-timeout-ms MS --body-timeout-ms MS");
    }
    boolean generated = token == null;
    if (generated) token = Auth.newToken();
    HttpLimits limits = new HttpLimits(Limits.MAX_BODY_BYTES, headerMs, bodyMs);
    Protocol protocol = new Protocol(new ScriptedDevice(api), token, null, limits);
    HttpServer server = new HttpServer(port, limits, protocol);
    System.out.println("listening http://127.0.0.1:" + server.port());
    if (generated) System.out.println("token " + token);
    System.out.flush();
    Thread.currentThread().join();
  }
}
