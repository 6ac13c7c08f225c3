package dev.phoneagent.helper;

import android.inputmethodservice.InputMethodService;
import android.os.Build;
import android.view.KeyEvent;
import android.view.View;
import android.view.inputmethod.InputConnection;
import android.widget.Button;

/**
 * The helper's input method: commits Unicode text (CJK, emoji) at the cursor, which `input text`
 * cannot. Its only key switches back to the user's previous keyboard (API 28+), so a person left
 * with it after a crash of the agent is one tap from their own; the host also restores it by `ime set`.
 */
public final class HelperIme extends InputMethodService {
  private static volatile HelperIme current;

  static HelperIme current() {
    return current;
  }

  @Override
  public void onCreate() {
    super.onCreate();
    current = this;
  }

  @Override
  public void onDestroy() {
    if (current == this) current = null;
    super.onDestroy();
  }

  @Override
  public View onCreateInputView() {
    Button back = new Button(this);
    back.setText("phone-agent keyboard: tap to switch back");
    back.setOnClickListener(new View.OnClickListener() {
      @Override
      public void onClick(View v) {
        if (Build.VERSION.SDK_INT >= 28) switchToPreviousInputMethod();
      }
    });
    return back;
  }

  /** True when a field is bound to this IME and took the text. */
  boolean commit(String text) {
    InputConnection ic = getCurrentInputConnection();
    return ic != null && ic.commitText(text, 1);
  }

  boolean sendKey(int keyCode) {
    InputConnection ic = getCurrentInputConnection();
    if (ic == null) return false;
    ic.sendKeyEvent(new KeyEvent(KeyEvent.ACTION_DOWN, keyCode));
    return ic.sendKeyEvent(new KeyEvent(KeyEvent.ACTION_UP, keyCode));
  }
}
