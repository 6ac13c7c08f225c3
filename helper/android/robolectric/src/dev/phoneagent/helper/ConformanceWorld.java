package dev.phoneagent.helper;

import android.content.ComponentName;
import android.content.Intent;
import android.os.Bundle;
import android.view.View;
import android.view.inputmethod.EditorInfo;
import android.widget.AdapterView;
import android.widget.ArrayAdapter;
import android.widget.EditText;
import android.widget.ImageButton;
import android.widget.LinearLayout;
import android.widget.ListView;
import android.widget.SeekBar;
import android.widget.Switch;
import android.widget.TextView;
import java.util.Arrays;
import java.util.List;

/**
 * The phone the conformance suite expects (helper/conformance): a launcher, and a Settings app as a
 * phone has it — a list longer than the screen with Display among its entries, a search entry that
 * opens a search field, and a Display page with a brightness seek bar and a dark-theme switch. Real
 * widgets throughout; the helper reads and drives them through Android's own classes.
 */
final class ConformanceWorld {
  static final String LAUNCHER = "com.android.launcher3";
  static final String SETTINGS = "com.android.settings";
  static final List<String> ENTRIES =
      Arrays.asList(
          "Network & internet", "Connected devices", "Apps", "Notifications", "Battery", "Storage", "Sound & vibration",
          "Display", "Wallpaper & style", "Accessibility", "Security & privacy", "Location", "Safety & emergency",
          "Passwords & accounts", "Digital Wellbeing", "System", "About phone", "Tips & support");

  private ConformanceWorld() {}

  /** The launcher and Settings installed (launcher entries in the package manager), the launcher in front. */
  static void install(RoboSystem sys) {
    sys.apps.install(LAUNCHER, "Launcher", Launcher.class, true);
    sys.apps.install(SETTINGS, "Settings", Settings.class, false);
    sys.apps.start(main(LAUNCHER, Launcher.class));
    sys.settle();
  }

  static Intent main(String pkg, Class<?> k) {
    return new Intent(Intent.ACTION_MAIN).setComponent(new ComponentName(pkg, k.getName())).addFlags(Intent.FLAG_ACTIVITY_NEW_TASK);
  }

  static TextView text(LinearLayout parent, String s, int sp) {
    TextView t = new TextView(parent.getContext());
    t.setText(s);
    t.setTextSize(sp);
    t.setPadding(32, 24, 32, 24);
    parent.addView(t, new LinearLayout.LayoutParams(LinearLayout.LayoutParams.MATCH_PARENT, LinearLayout.LayoutParams.WRAP_CONTENT));
    return t;
  }

  /** The page's own views only: no window title bar (Robolectric's would show the class name). */
  static LinearLayout column(android.app.Activity a) {
    a.requestWindowFeature(android.view.Window.FEATURE_NO_TITLE);
    LinearLayout col = new LinearLayout(a);
    col.setOrientation(LinearLayout.VERTICAL);
    a.setContentView(col);
    return col;
  }

  /** Home: an icon per app; a tap opens its task. */
  public static class Launcher extends RoboApp {
    @Override
    String playsPackage() {
      return LAUNCHER;
    }

    @Override
    protected void onCreate(Bundle b) {
      super.onCreate(b);
      LinearLayout col = column(this);
      TextView settings = text(col, "Settings", 16);
      settings.setContentDescription("Settings");
      settings.setOnClickListener(new View.OnClickListener() {
        @Override
        public void onClick(View v) {
          startActivity(main(SETTINGS, Settings.class));
        }
      });
      text(col, "Clock", 16).setOnClickListener(new View.OnClickListener() {
        @Override
        public void onClick(View v) {
          // Not installed in this world: the icon does nothing, as a disabled app's would.
        }
      });
    }
  }

  /** Settings' main page: title, search entry, the list of sections. */
  public static class Settings extends RoboApp {
    @Override
    String playsPackage() {
      return SETTINGS;
    }

    @Override
    protected void onCreate(Bundle b) {
      super.onCreate(b);
      LinearLayout col = column(this);
      text(col, "Settings", 24);
      TextView search = text(col, "Search settings", 16);
      search.setId(android.R.id.hint);
      search.setOnClickListener(new View.OnClickListener() {
        @Override
        public void onClick(View v) {
          startActivity(new Intent(Settings.this, SettingsSearch.class));
        }
      });
      ListView list = new ListView(this);
      list.setId(android.R.id.list);
      list.setAdapter(new ArrayAdapter<String>(this, android.R.layout.simple_list_item_1, ENTRIES));
      list.setOnItemClickListener(new AdapterView.OnItemClickListener() {
        @Override
        public void onItemClick(AdapterView<?> parent, View view, int position, long id) {
          if (ENTRIES.get(position).equals("Display")) startActivity(new Intent(Settings.this, DisplaySettings.class));
        }
      });
      col.addView(list, new LinearLayout.LayoutParams(LinearLayout.LayoutParams.MATCH_PARENT, 0, 1));
    }
  }

  /** Settings search: up, the field (focused, IME action search), what it found. */
  public static class SettingsSearch extends RoboApp {
    @Override
    String playsPackage() {
      return SETTINGS;
    }

    @Override
    protected void onCreate(Bundle b) {
      super.onCreate(b);
      LinearLayout col = column(this);
      ImageButton up = new ImageButton(this);
      up.setContentDescription("Navigate up");
      up.setOnClickListener(new View.OnClickListener() {
        @Override
        public void onClick(View v) {
          finish();
        }
      });
      col.addView(up);
      EditText field = new EditText(this);
      field.setId(android.R.id.edit);
      field.setHint("Search settings");
      field.setSingleLine(true);
      field.setImeOptions(EditorInfo.IME_ACTION_SEARCH);
      col.addView(field, new LinearLayout.LayoutParams(LinearLayout.LayoutParams.MATCH_PARENT, LinearLayout.LayoutParams.WRAP_CONTENT));
      text(col, "Recent searches", 14);
      field.requestFocus();
    }
  }

  /** Display: the brightness level and dark theme. */
  public static class DisplaySettings extends RoboApp {
    @Override
    String playsPackage() {
      return SETTINGS;
    }

    @Override
    protected void onCreate(Bundle b) {
      super.onCreate(b);
      LinearLayout col = column(this);
      text(col, "Display", 24);
      text(col, "Brightness level", 16);
      SeekBar brightness = new SeekBar(this);
      brightness.setId(android.R.id.progress);
      brightness.setContentDescription("Brightness");
      brightness.setMax(100);
      brightness.setProgress(40);
      col.addView(brightness, new LinearLayout.LayoutParams(LinearLayout.LayoutParams.MATCH_PARENT, LinearLayout.LayoutParams.WRAP_CONTENT));
      Switch dark = new Switch(this);
      dark.setId(android.R.id.toggle);
      dark.setText("Dark theme");
      col.addView(dark, new LinearLayout.LayoutParams(LinearLayout.LayoutParams.MATCH_PARENT, LinearLayout.LayoutParams.WRAP_CONTENT));
    }
  }
}
