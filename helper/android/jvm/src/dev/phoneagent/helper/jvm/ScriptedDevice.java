package dev.phoneagent.helper.jvm;

import dev.phoneagent.helper.core.Device;
import dev.phoneagent.helper.core.DeviceInfo;
import dev.phoneagent.helper.core.Node;
import dev.phoneagent.helper.core.Rect;
import dev.phoneagent.helper.core.Stroke;
import dev.phoneagent.helper.core.Tree;
import dev.phoneagent.helper.core.Win;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.imageio.ImageIO;

/**
 * A scripted phone for running the helper's own protocol code on the JVM: a launcher and a
 * Settings app (a list longer than the screen, a search field, a Display page with a brightness
 * seek bar), status/navigation bars and a keyboard window. It is not Android: gestures only hit-test
 * a tap onto the clickable node under it, and the clock is virtual (sleep advances it at once).
 */
public final class ScriptedDevice implements Device {
  static final String SETTINGS = "com.android.settings";
  static final String LAUNCHER = "com.android.launcher3";
  static final int W = 1080, H = 2400, BAR = 80, NAV = 2280, KB_TOP = 1500, ROW = 200, LIST_TOP = 400;
  static final List<String> ENTRIES =
      Arrays.asList(
          "Network & internet", "Connected devices", "Apps", "Notifications", "Battery", "Storage", "Sound & vibration",
          "Display", "Wallpaper & style", "Accessibility", "Security & privacy", "Location", "Safety & emergency",
          "Passwords & accounts", "Digital Wellbeing", "System", "About phone", "Tips & support");
  static final int VISIBLE_ROWS = (NAV - LIST_TOP) / ROW; // 9

  private final DeviceInfo info = new DeviceInfo();
  private long clock = 1_000_000;
  private long seq = 1;
  /** launcher | settings | search | display */
  private String page = "launcher";
  private int offset;
  private String query = "";
  private int selStart, selEnd;
  private double brightness = 40;
  private boolean searchFocused;
  private List<Node> last = new ArrayList<Node>();
  /** Gestures injected, for tests. */
  public final List<List<Stroke>> gestures = new ArrayList<List<Stroke>>();

  public ScriptedDevice(int apiLevel) {
    info.apiLevel = apiLevel;
    info.manufacturer = "phone-agent";
    info.model = "scripted JVM tree";
    info.androidVersion = "scripted";
    info.width = W;
    info.height = H;
    info.density = 420;
    info.capabilities = DeviceInfo.capabilitiesFor(apiLevel, true);
  }

  @Override
  public DeviceInfo info() {
    return info;
  }

  private void changed() {
    seq++;
  }

  /** Whole-tree reads and Android-style queries the core asked for (the cost a phone would pay). */
  public int walks, queries;

  @Override
  public synchronized Tree read() {
    walks++;
    return build();
  }

  private Tree build() {
    Tree t = new Tree();
    t.seq = seq;
    t.takenAt = clock;
    boolean keyboard = page.equals("search") && searchFocused;
    t.foregroundPackage = page.equals("launcher") ? LAUNCHER : SETTINGS;
    t.foregroundActivity = page.equals("launcher") ? ".Launcher" : page.equals("settings") ? ".Settings" : "." + page;
    t.keyboardShown = keyboard;
    if (keyboard) t.keyboardBounds = new Rect(0, KB_TOP, W, NAV);
    t.windows.add(win(1, "application", 1, new Rect(0, 0, W, H), t.foregroundPackage));
    if (keyboard) t.windows.add(win(2, "input_method", 5, new Rect(0, KB_TOP, W, NAV), "dev.phoneagent.helper"));
    t.windows.add(win(3, "status_bar", 10, new Rect(0, 0, W, BAR), "com.android.systemui"));
    t.windows.add(win(4, "navigation_bar", 10, new Rect(0, NAV, W, H), "com.android.systemui"));
    t.windows.get(0).focused = true;
    int root = add(t, node(-1, "android.widget.FrameLayout", "", "", new Rect(0, 0, W, H)));
    if (page.equals("launcher")) {
      for (int i = 0; i < 3; i++) {
        String[] app = LAUNCHABLE.get(i);
        Node n = node(root, "android.widget.TextView", app[0], "", new Rect(60 + i * 320, 600, 340 + i * 320, 900));
        n.desc = app[0];
        click(n);
        add(t, n);
      }
    } else if (page.equals("settings")) settings(t, root);
    else if (page.equals("search")) search(t, root);
    else display(t, root);
    for (Node n : t.nodes) {
      n.window = n.window == 0 ? 1 : n.window;
      n.pkg = t.foregroundPackage;
    }
    last = t.nodes;
    return t;
  }

  /** Android's queries over the scripted tree: by view id exactly, else text or description containing `text`. */
  @Override
  public synchronized Tree lookup(String viewId, String text) {
    queries++;
    Tree all = build();
    Tree t = new Tree();
    t.seq = all.seq;
    t.takenAt = all.takenAt;
    t.foregroundPackage = all.foregroundPackage;
    t.foregroundActivity = all.foregroundActivity;
    t.keyboardShown = all.keyboardShown;
    t.keyboardBounds = all.keyboardBounds;
    t.windows = all.windows;
    String low = text == null ? "" : text.toLowerCase(java.util.Locale.ROOT);
    for (Node n : all.nodes) {
      boolean hit =
          viewId != null
              ? n.resourceId.equals(viewId)
              : n.visibleText().toLowerCase(java.util.Locale.ROOT).contains(low)
                  || n.desc.toLowerCase(java.util.Locale.ROOT).contains(low);
      if (hit) t.nodes.add(n);
    }
    return t;
  }

  static final List<String[]> LAUNCHABLE =
      Arrays.asList(
          new String[] {"Settings", SETTINGS, SETTINGS + ".Settings"},
          new String[] {"Clock", "com.android.deskclock", "com.android.deskclock.DeskClock"},
          new String[] {"Files", "com.android.documentsui"});

  private void settings(Tree t, int root) {
    add(t, node(root, "android.widget.TextView", "Settings", "", new Rect(40, 120, 600, 220)));
    Node search = node(root, "android.widget.TextView", "Search settings", "", new Rect(40, 240, 1040, 360));
    search.resourceId = SETTINGS + ":id/search_action_bar";
    click(search);
    add(t, search);
    Node list = node(root, "androidx.recyclerview.widget.RecyclerView", "", "", new Rect(0, LIST_TOP, W, NAV));
    list.resourceId = SETTINGS + ":id/recycler_view";
    list.scrollable = true;
    list.focusable = true;
    if (offset > 0) list.actions.add("scroll_backward");
    if (offset + VISIBLE_ROWS < ENTRIES.size()) list.actions.add("scroll_forward");
    list.actions.add("show_on_screen");
    int l = add(t, list);
    for (int i = 0; i < VISIBLE_ROWS && offset + i < ENTRIES.size(); i++) {
      int top = LIST_TOP + i * ROW;
      Node row = node(l, "android.widget.LinearLayout", "", "", new Rect(0, top, W, top + ROW));
      click(row);
      int r = add(t, row);
      Node title = node(r, "android.widget.TextView", ENTRIES.get(offset + i), "", new Rect(160, top + 40, 1000, top + 120));
      title.resourceId = "android:id/title";
      add(t, title);
    }
  }

  private void search(Tree t, int root) {
    Node up = node(root, "android.widget.ImageButton", "", "Navigate up", new Rect(0, 100, 160, 260));
    click(up);
    add(t, up);
    Node field = node(root, "android.widget.EditText", query, "", new Rect(160, 100, 1040, 260));
    field.resourceId = SETTINGS + ":id/search_src_text";
    field.hint = "Search settings";
    field.editable = true;
    field.focusable = true;
    field.focused = searchFocused;
    field.selStart = selStart;
    field.selEnd = selEnd;
    field.clickable = true;
    field.actions.addAll(Arrays.asList("click", "long_click", "focus", "set_text", "set_selection", "replace_selection", "ime_enter"));
    add(t, field);
    add(t, node(root, "android.widget.TextView", query.isEmpty() ? "Recent searches" : "No results", "", new Rect(40, 320, 1040, 420)));
  }

  private void display(Tree t, int root) {
    add(t, node(root, "android.widget.TextView", "Display", "", new Rect(40, 120, 600, 220)));
    add(t, node(root, "android.widget.TextView", "Brightness level", "", new Rect(40, 400, 1040, 480)));
    Node seek = node(root, "android.widget.SeekBar", "", "Brightness", new Rect(40, 500, 1040, 600));
    seek.resourceId = SETTINGS + ":id/seekbar";
    seek.focusable = true;
    seek.rangeMin = 0.0;
    seek.rangeMax = 100.0;
    seek.rangeCurrent = brightness;
    seek.actions.addAll(Arrays.asList("set_progress", "scroll_forward", "scroll_backward"));
    add(t, seek);
    Node dark = node(root, "android.widget.Switch", "Dark theme", "", new Rect(40, 700, 1040, 820));
    dark.checkable = true;
    click(dark);
    add(t, dark);
  }

  static Win win(int id, String type, int layer, Rect b, String pkg) {
    Win w = new Win();
    w.id = id;
    w.type = type;
    w.layer = layer;
    w.bounds = b;
    w.pkg = pkg;
    return w;
  }

  static Node node(int parent, String cls, String text, String desc, Rect b) {
    Node n = new Node();
    n.parent = parent;
    n.className = cls;
    n.text = text;
    n.desc = desc;
    n.bounds = b;
    return n;
  }

  static void click(Node n) {
    n.clickable = true;
    n.focusable = true;
    n.actions.add("click");
    n.actions.add("long_click");
    n.actions.add("focus");
  }

  static int add(Tree t, Node n) {
    n.id = t.nodes.size();
    t.nodes.add(n);
    return n.id;
  }

  @Override
  public synchronized boolean gesture(List<Stroke> strokes) {
    gestures.add(strokes);
    long dur = 0;
    for (Stroke s : strokes) dur = Math.max(dur, s.endTime());
    clock += dur;
    if (strokes.size() == 1) {
      Stroke s = strokes.get(0);
      int[] a = s.points.get(0), b = s.points.get(s.points.size() - 1);
      if (Math.abs(a[0] - b[0]) < 20 && Math.abs(a[1] - b[1]) < 20 && dur < 500) tapAt(a[0], a[1]);
    }
    return true;
  }

  /** The deepest clickable node under the point gets the click (keyboard and bars swallow theirs). */
  private void tapAt(int x, int y) {
    Tree t = read();
    if (y < BAR || y >= NAV || (t.keyboardShown && y >= KB_TOP)) return;
    Node hit = null;
    for (Node n : t.nodes)
      if (n.clickable && x >= n.bounds.left && x < n.bounds.right && y >= n.bounds.top && y < n.bounds.bottom) hit = n;
    if (hit != null) click(hit.id);
  }

  private void click(int id) {
    Node n = last.get(id);
    if (page.equals("launcher")) {
      if (n.text.equals("Settings")) open("settings");
      return;
    }
    if (n.text.equals("Search settings") || n.resourceId.endsWith("search_action_bar")) open("search");
    else if (n.desc.equals("Navigate up")) open("settings");
    else if (n.className.endsWith("LinearLayout")) {
      int row = (n.bounds.top - LIST_TOP) / ROW;
      if ("Display".equals(ENTRIES.get(offset + row))) open("display");
    } else if (n.className.endsWith("EditText")) searchFocused = true;
    changed();
  }

  private void open(String p) {
    page = p;
    if (p.equals("search")) searchFocused = true;
    changed();
  }

  @Override
  public synchronized boolean key(String key) {
    if (key.equals("home") || key.equals("recents")) page = "launcher";
    else if (key.equals("back")) {
      if (page.equals("search") && searchFocused) searchFocused = false;
      else page = page.equals("launcher") || page.equals("settings") ? "launcher" : "settings";
    }
    changed();
    return true;
  }

  @Override
  public synchronized boolean nodeAction(Node n, String op, Double value, String text, int start, int end) {
    if (op.equals("click")) click(n.id);
    else if (op.equals("scroll_forward") && n.scrollable) offset = Math.min(ENTRIES.size() - VISIBLE_ROWS, offset + VISIBLE_ROWS - 1);
    else if (op.equals("scroll_backward") && n.scrollable) offset = Math.max(0, offset - (VISIBLE_ROWS - 1));
    else if (op.equals("set_progress")) brightness = value;
    else if (op.equals("set_text")) {
      query = text;
      selStart = selEnd = text.length();
    } else if (op.equals("set_selection")) {
      selStart = start;
      selEnd = end;
    } else if (op.equals("focus") && n.editable) searchFocused = true;
    else if (!op.equals("focus") && !op.equals("long_click") && !op.equals("show_on_screen") && !op.equals("ime_enter")) return false;
    changed();
    return true;
  }

  @Override
  public synchronized boolean commitText(String text) {
    if (!page.equals("search") || !searchFocused) return false;
    int s = Math.min(selStart, selEnd), e = Math.max(selStart, selEnd);
    query = query.substring(0, s) + text + query.substring(e);
    selStart = selEnd = s + text.length();
    changed();
    return true;
  }

  @Override
  public List<String[]> launchables() {
    return LAUNCHABLE;
  }

  @Override
  public synchronized boolean launch(String pkg, String activity) {
    if (!pkg.equals(SETTINGS)) return false;
    page = "settings";
    changed();
    return true;
  }

  @Override
  public Image screenshot(String format, double scale, int quality) {
    if (info.apiLevel < 30) return null;
    int w = Math.max(1, (int) Math.round(W * scale)), h = Math.max(1, (int) Math.round(H * scale));
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      ImageIO.write(img, format.equals("jpeg") ? "jpg" : "png", out);
    } catch (IOException e) {
      return null;
    }
    Image i = new Image();
    i.format = format;
    i.width = w;
    i.height = h;
    i.bytes = out.toByteArray();
    return i;
  }

  @Override
  public synchronized long now() {
    return clock;
  }

  @Override
  public synchronized void sleep(long ms) {
    clock += Math.max(1, ms);
  }
}
