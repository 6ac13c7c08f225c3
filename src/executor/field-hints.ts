import type { Action, Element, Observation } from '../core/types.js';
import type { WireSnapshot } from '../device/protocol/index.js';
import { entersText } from './act-kind.js';
import type { ExecutorToolSpec } from './tool-spec.js';

/**
 * What an edit field showed before the agent first typed into it, standing in for its hint where the
 * screen names none. A uiautomator dump (plain ADB) writes an empty field's hint as its text and,
 * on many Android versions, no `hint` attribute: "短信" is then the same whether it is the hint or
 * typed text. The agent does know what the field showed before it typed: a field back to that text
 * (a message field after Send) is empty, and the field keeps that text as its name (a history line
 * names the search box, not what was typed into it earlier). A prefilled value the agent replaced
 * would be mistaken for the hint; a field without a resource id, or sharing one on its screen, is
 * not remembered (it could not be found again for sure).
 */
export class FieldHints {
  private readonly learned = new Map<string, string>();

  /** Before a typing action is sent: remember what its field showed, once per field. */
  learn(action: Action, spec: ExecutorToolSpec, obs: Observation, target: Element | undefined): void {
    if (!target || !entersText(spec, action) || !target.flags.editable || target.flags.password) return;
    if (target.hint || !target.text.trim()) return;
    const rid = target.identity?.resourceId ?? target.resourceId;
    if (!rid) return;
    const same = obs.elements.filter(
      (e) => e.flags.editable && (e.identity?.resourceId ?? e.resourceId) === rid && e.className === target.className,
    );
    if (same.length !== 1) return;
    const k = key(obs.app.package, rid, target.className);
    if (!this.learned.has(k)) this.learned.set(k, target.text);
  }

  /** The snapshot with each remembered field's hint filled in where the screen names none. */
  apply(snap: WireSnapshot): WireSnapshot {
    if (this.learned.size === 0) return snap;
    const pkg = snap.foreground.package;
    const count = new Map<string, number>();
    for (const n of snap.nodes)
      if (n.resourceId)
        count.set(key(pkg, n.resourceId, n.className), (count.get(key(pkg, n.resourceId, n.className)) ?? 0) + 1);
    let changed = false;
    const nodes = snap.nodes.map((n) => {
      if (n.hint || !n.flags.editable || !n.resourceId) return n;
      const k = key(pkg, n.resourceId, n.className);
      const hint = count.get(k) === 1 ? this.learned.get(k) : undefined;
      if (hint === undefined) return n;
      changed = true;
      return { ...n, hint };
    });
    return changed ? { ...snap, nodes } : snap;
  }
}

const key = (pkg: string, rid: string, cls: string) => `${pkg}|${rid}|${cls}`;
