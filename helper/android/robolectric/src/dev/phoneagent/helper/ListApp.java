package dev.phoneagent.helper;

import android.os.Bundle;
import android.view.View;
import android.widget.AdapterView;
import android.widget.ArrayAdapter;
import android.widget.ListView;
import java.util.ArrayList;
import java.util.List;

/** A ListView far longer than the screen (rows recycled, as a contacts or settings list is). */
public class ListApp extends RoboApp {
  static final String PACKAGE = "com.example.list";
  static final int ROWS = 60;
  ListView list;
  /** Positions of the rows the app saw clicked. */
  final List<Integer> clicked = new ArrayList<Integer>();

  @Override
  String playsPackage() {
    return PACKAGE;
  }

  @Override
  protected void onCreate(Bundle b) {
    super.onCreate(b);
    List<String> rows = new ArrayList<String>();
    for (int i = 1; i <= ROWS; i++) rows.add("Row " + i);
    list = new ListView(this);
    list.setId(android.R.id.list);
    list.setAdapter(new ArrayAdapter<String>(this, android.R.layout.simple_list_item_1, rows));
    list.setOnItemClickListener(new AdapterView.OnItemClickListener() {
      @Override
      public void onItemClick(AdapterView<?> parent, View view, int position, long id) {
        clicked.add(position);
      }
    });
    setContentView(list);
  }
}
