package dev.phoneagent.helper.jvm;

import dev.phoneagent.helper.core.Auth;
import dev.phoneagent.helper.core.HttpServer;
import dev.phoneagent.helper.core.Limits;
import dev.phoneagent.helper.core.Protocol;

/**
 * The helper's HTTP layer on the JVM over the scripted tree: `java -cp … JvmMain [--port P]
 * [--token T] [--api N]`. Prints `listening http://127.0.0.1:PORT` once ready; the token is the one
 * passed (or a random one, printed only when generated here, as the virtual phone does).
 */
public final class JvmMain {
  private JvmMain() {}

  public static void main(String[] args) throws Exception {
    int port = 0;
    int api = 34;
    String token = null;
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (args[i].equals("--port")) port = Integer.parseInt(args[i + 1]);
      else if (args[i].equals("--token")) token = args[i + 1];
      else if (args[i].equals("--api")) api = Integer.parseInt(args[i + 1]);
      else throw new IllegalArgumentException("unknown option " + args[i] + "; use --port P --token T --api N");
    }
    boolean generated = token == null;
    if (generated) token = Auth.newToken();
    Protocol protocol = new Protocol(new ScriptedDevice(api), token, null);
    HttpServer server = new HttpServer(port, Limits.MAX_BODY_BYTES, protocol);
    System.out.println("listening http://127.0.0.1:" + server.port());
    if (generated) System.out.println("token " + token);
    System.out.flush();
    Thread.currentThread().join();
  }
}
