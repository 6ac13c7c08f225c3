package dev.phoneagent.helper;

import android.os.Bundle;
import android.text.InputType;
import android.view.View;
import android.view.ViewGroup;
import android.view.inputmethod.EditorInfo;
import android.webkit.WebView;
import android.widget.Button;
import android.widget.CheckBox;
import android.widget.EditText;
import android.widget.LinearLayout;
import android.widget.RadioButton;
import android.widget.RadioGroup;
import android.widget.ScrollView;
import android.widget.SeekBar;
import android.widget.Switch;
import android.widget.TextView;
import java.util.ArrayList;
import java.util.List;

/**
 * A test app with one of each widget the helper meets, framework ids as resource ids (they have
 * resource names without an APK of our own), inside a ScrollView longer than the screen.
 */
public class WidgetsApp extends RoboApp {
  static final String PACKAGE = "com.example.widgets";
  TextView title;
  Button send;
  Switch wifi;
  CheckBox agree;
  RadioGroup size;
  SeekBar volume;
  EditText name, password, notes;
  ScrollView scroll;
  WebView web;
  TextView bottom;
  /** Editor actions the fields received (ime_enter), as "id:action". */
  final List<String> editorActions = new ArrayList<String>();
  int sendClicks;

  @Override
  String playsPackage() {
    return PACKAGE;
  }

  @Override
  protected void onCreate(Bundle b) {
    super.onCreate(b);
    LinearLayout col = new LinearLayout(this);
    col.setOrientation(LinearLayout.VERTICAL);
    title = add(col, new TextView(this), android.R.id.title);
    title.setText("Widgets 设置");
    send = add(col, new Button(this), android.R.id.button1);
    send.setText("Send");
    send.setOnClickListener(new View.OnClickListener() {
      @Override
      public void onClick(View v) {
        sendClicks++;
      }
    });
    wifi = add(col, new Switch(this), android.R.id.toggle);
    wifi.setText("Wi-Fi");
    agree = add(col, new CheckBox(this), android.R.id.checkbox);
    agree.setText("I agree");
    size = add(col, new RadioGroup(this), android.R.id.selectAll);
    RadioButton small = new RadioButton(this);
    small.setId(android.R.id.button2);
    small.setText("Small");
    RadioButton large = new RadioButton(this);
    large.setId(android.R.id.button3);
    large.setText("Large");
    size.addView(small);
    size.addView(large);
    size.check(android.R.id.button2);
    volume = add(col, new SeekBar(this), android.R.id.progress);
    if (android.os.Build.VERSION.SDK_INT >= 26) volume.setMin(10);
    volume.setMax(200);
    volume.setProgress(50);
    volume.setContentDescription("Volume");
    name = add(col, new EditText(this), android.R.id.edit);
    name.setHint("Name");
    name.setSingleLine(true);
    name.setImeOptions(EditorInfo.IME_ACTION_SEARCH);
    password = add(col, new EditText(this), android.R.id.input);
    password.setHint("Password");
    password.setInputType(InputType.TYPE_CLASS_TEXT | InputType.TYPE_TEXT_VARIATION_PASSWORD);
    notes = add(col, new EditText(this), android.R.id.message);
    notes.setInputType(InputType.TYPE_CLASS_TEXT | InputType.TYPE_TEXT_FLAG_MULTI_LINE);
    notes.setMinLines(3);
    notes.setHint("Notes");
    TextView.OnEditorActionListener l = new TextView.OnEditorActionListener() {
      @Override
      public boolean onEditorAction(TextView v, int action, android.view.KeyEvent e) {
        editorActions.add(getResources().getResourceEntryName(v.getId()) + ":" + action);
        return true;
      }
    };
    name.setOnEditorActionListener(l);
    notes.setOnEditorActionListener(l);
    web = add(col, new WebView(this), android.R.id.widget_frame);
    web.setContentDescription("Web content");
    web.setLayoutParams(new LinearLayout.LayoutParams(ViewGroup.LayoutParams.MATCH_PARENT, 300));
    View spacer = new View(this);
    col.addView(spacer, new LinearLayout.LayoutParams(ViewGroup.LayoutParams.MATCH_PARENT, 1600));
    bottom = add(col, new TextView(this), android.R.id.summary);
    bottom.setText("The end");
    scroll = new ScrollView(this);
    scroll.setId(android.R.id.list);
    scroll.addView(col);
    setContentView(scroll);
  }

  private <V extends View> V add(LinearLayout col, V v, int id) {
    v.setId(id);
    if (v.getLayoutParams() == null) col.addView(v, new LinearLayout.LayoutParams(ViewGroup.LayoutParams.MATCH_PARENT, ViewGroup.LayoutParams.WRAP_CONTENT));
    else col.addView(v);
    return v;
  }
}
