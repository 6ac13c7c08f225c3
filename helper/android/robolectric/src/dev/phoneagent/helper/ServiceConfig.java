package dev.phoneagent.helper;

import android.view.accessibility.AccessibilityNodeInfo;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The helper's own accessibility-service config (app/res/xml/accessibility_service.xml), read the way
 * the system applies it: flagReportViewIds and flagIncludeNotImportantViews become the fetch flags
 * every node query carries (without them Android reports no resource ids and drops views it thinks
 * unimportant).
 */
final class ServiceConfig {
  private ServiceConfig() {}

  static String xml() throws Exception {
    File f = new File(System.getProperty("phoneagent.repo", "."), "helper/android/app/res/xml/accessibility_service.xml");
    return new String(Files.readAllBytes(f.toPath()), StandardCharsets.UTF_8);
  }

  static String attribute(String name) throws Exception {
    Matcher m = Pattern.compile("android:" + name + "=\"([^\"]*)\"").matcher(xml());
    return m.find() ? m.group(1) : "";
  }

  static int fetchFlags() throws Exception {
    String flags = attribute("accessibilityFlags");
    int out = 0;
    // The constants were renamed (and renumbered) in API 33: FLAG_SERVICE_REQUESTS_….
    if (flags.contains("flagReportViewIds")) out |= constant("FLAG_SERVICE_REQUESTS_REPORT_VIEW_IDS", "FLAG_REPORT_VIEW_IDS");
    if (flags.contains("flagIncludeNotImportantViews"))
      out |= constant("FLAG_SERVICE_REQUESTS_INCLUDE_NOT_IMPORTANT_VIEWS", "FLAG_INCLUDE_NOT_IMPORTANT_VIEWS");
    return out;
  }

  private static int constant(String... names) throws Exception {
    for (String n : names) {
      try {
        return AccessibilityNodeInfo.class.getField(n).getInt(null);
      } catch (NoSuchFieldException next) {
        // older name below
      }
    }
    throw new IllegalStateException("AccessibilityNodeInfo has none of " + String.join(", ", names));
  }
}
