package dev.phoneagent.helper.core;

import java.util.ArrayList;
import java.util.List;

/** One read of the screen: windows with layers and all their nodes (pre-order, id = index). */
public final class Tree {
  public long seq;
  public long takenAt;
  public String foregroundPackage = "";
  public String foregroundActivity = "";
  public boolean keyboardShown;
  public Rect keyboardBounds;
  /** False when the platform could not list every window (→ UNAVAILABLE, never "gone"). */
  public boolean windowsComplete = true;
  public List<Win> windows = new ArrayList<Win>();
  public List<Node> nodes = new ArrayList<Node>();

  public Win window(int id) {
    for (Win w : windows) if (w.id == id) return w;
    return null;
  }
}
