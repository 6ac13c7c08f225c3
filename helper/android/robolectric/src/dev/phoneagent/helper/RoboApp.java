package dev.phoneagent.helper;

import android.app.Activity;
import android.content.Context;
import android.content.ContextWrapper;

/**
 * A test app's activity. Robolectric runs every test app in one process, so each plays its own
 * package through its contexts — the activity's, and the application context its window's decor is
 * made from — and its nodes and windows report that package, as separate apps on a phone do.
 */
public abstract class RoboApp extends Activity {
  /** The package this app plays (e.g. com.android.settings). */
  abstract String playsPackage();

  @Override
  protected void attachBaseContext(Context base) {
    super.attachBaseContext(new PackageContext(base, playsPackage()));
  }

  @Override
  public Context getApplicationContext() {
    return new PackageContext(super.getApplicationContext(), playsPackage());
  }

  static final class PackageContext extends ContextWrapper {
    private final String pkg;

    PackageContext(Context base, String pkg) {
      super(base);
      this.pkg = pkg;
    }

    @Override
    public String getPackageName() {
      return pkg;
    }

    @Override
    public Context getApplicationContext() {
      return this;
    }
  }
}
