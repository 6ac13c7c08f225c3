package dev.phoneagent.helper.core;

import java.util.ArrayList;
import java.util.List;

/** One finger's path in pixels with times in ms from the gesture's start (t strictly increasing). */
public final class Stroke {
  public final List<int[]> points = new ArrayList<int[]>();

  public Stroke add(int x, int y, int t) {
    points.add(new int[] {x, y, t});
    return this;
  }

  public int startTime() {
    return points.get(0)[2];
  }

  public int endTime() {
    return points.get(points.size() - 1)[2];
  }
}
