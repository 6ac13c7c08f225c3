import { MAX_NOTE_CHARS } from './act-tool.js';
import type { PlannerToolSpec } from './tool-spec.js';

/**
 * Planner tools that are not device actions: the agent answers them. `look` asks for a screenshot
 * (crop around a target); `note` keeps a fact in working memory (shown in every later prompt);
 * `read` asks for the full text of a cut line (perception/read-text.ts answers it from the
 * observation). Their parse is act-tool.ts's (a no-op decision the loop does not dispatch).
 */

export interface MetaToolSpec extends PlannerToolSpec {
  /** Offered only to a model that reads images. */
  needsVision?: boolean;
}

const meta = (name: string, line: string, extra: Partial<MetaToolSpec> = {}): MetaToolSpec => ({
  name,
  help: () => line,
  parse: () => ({ ok: true, action: {} }),
  meta: true,
  quiet: true,
  ...extra,
});

export const META_TOOLS: readonly MetaToolSpec[] = [
  meta(
    'note',
    `note(text) keeps a fact under Notes in later prompts (your memory, not the Notes app; ≤ ${MAX_NOTE_CHARS} chars)`,
  ),
  meta('read', 'read(target_id | text=cut line) its full text'),
  meta('look', 'look(target_id|point?) a step: the next prompt has the screenshot, zoomed on the control and its row', {
    needsVision: true,
  }),
];
