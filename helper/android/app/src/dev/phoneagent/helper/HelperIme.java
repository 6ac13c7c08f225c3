package dev.phoneagent.helper;

import android.inputmethodservice.InputMethodService;
import android.os.Build;
import android.view.KeyEvent;
import android.view.View;
import android.view.inputmethod.EditorInfo;
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

  /** A field is bound to this keyboard (it edits the focused field). */
  static boolean bound() {
    HelperIme ime = current;
    return ime != null && ime.getCurrentInputConnection() != null;
  }

  /**
   * The enter key as a keyboard sends it: the field's own IME action (search, go, send, next, done:
   * EditorInfo.imeOptions, or the app's custom action id) through performEditorAction, else — no
   * action, or a multi-line field (IME_FLAG_NO_ENTER_ACTION) — the enter key itself. Android's
   * ACTION_IME_ENTER sends getImeActionId() instead (0 unless the app set an action label), which a
   * listener waiting for IME_ACTION_SEARCH ignores.
   */
  boolean enter() {
    InputConnection ic = getCurrentInputConnection();
    if (ic == null) return false;
    int action = editorAction(getCurrentInputEditorInfo());
    return action != EditorInfo.IME_ACTION_NONE ? ic.performEditorAction(action) : sendKey(KeyEvent.KEYCODE_ENTER);
  }

  /** The action a keyboard's enter key performs for this field; IME_ACTION_NONE for a plain enter key. */
  static int editorAction(EditorInfo ei) {
    if (ei == null || (ei.imeOptions & EditorInfo.IME_FLAG_NO_ENTER_ACTION) != 0) return EditorInfo.IME_ACTION_NONE;
    if (ei.actionLabel != null && ei.actionId != 0) return ei.actionId;
    int a = ei.imeOptions & EditorInfo.IME_MASK_ACTION;
    return a == EditorInfo.IME_ACTION_UNSPECIFIED ? EditorInfo.IME_ACTION_NONE : a;
  }

  boolean sendKey(int keyCode) {
    InputConnection ic = getCurrentInputConnection();
    if (ic == null) return false;
    ic.sendKeyEvent(new KeyEvent(KeyEvent.ACTION_DOWN, keyCode));
    return ic.sendKeyEvent(new KeyEvent(KeyEvent.ACTION_UP, keyCode));
  }
}
