import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ActionableError } from '../core/errors.js';
import type { Element } from '../core/types.js';

/**
 * What Explore learned about an app (issue 25): its pages (identity = perception's page hash, the
 * screen's elements and screenshot, a description per page and per control) and the transitions
 * between them. Written as DroidBot's UTG folder (./app-map-write.ts, which the replay phone and
 * DroidBot's viewer read) plus the compact knowledge file defined here, which Pro and Flash load.
 */

export interface MapPage {
  /** The perception's page hash. */
  id: string;
  package: string;
  activity: string;
  title: string;
  screen: { w: number; h: number };
  /** Every element of the page's observation (its own app's windows). */
  elements: Element[];
  png?: Buffer;
  description?: string;
  /** Element id → what the control shows or what tapping it does (the model's words). */
  notes: Record<string, string>;
}

export type MapEvent =
  | { kind: 'touch'; element: string }
  /** A swipe up on a list: its content moves on to show what is below (DroidBot's direction DOWN). */
  | { kind: 'scroll'; element: string }
  | { kind: 'back' }
  | { kind: 'launch' };

export interface MapTransition {
  from: string;
  to: string;
  event: MapEvent;
  /** The walk's action number, for a stable order (DroidBot's event_id). */
  step: number;
}

export interface AppMap {
  app: { package: string; label: string };
  /** The page a launch shows (DroidBot's `<FIRST>`). */
  first: string;
  pages: MapPage[];
  transitions: MapTransition[];
  device?: { model: string; sdk: number };
}

export const KNOWLEDGE_VERSION = 1;

const KnowledgeElementSchema = z.object({
  id: z.string(),
  /** The control's name without the value it showed when explored ("Internet", not "Internet — HomeNet"). */
  label: z.string(),
  /** The describer's words, when they say more than the label (agent/knowledge-of.ts drops the rest). */
  description: z.string().optional(),
  /** The page a tap on it opened, when the walk saw one. */
  opens: z.string().optional(),
});

const KnowledgePageSchema = z.object({
  id: z.string(),
  activity: z.string(),
  title: z.string(),
  description: z.string().optional(),
  /**
   * The names of the page's controls with text, in listing order, those further down (found by
   * scrolling) included, values stripped: what a control that opens this page leads to.
   */
  holds: z.array(z.string()).optional(),
  elements: z.array(KnowledgeElementSchema),
});

export const KnowledgeSchema = z.object({
  version: z.literal(KNOWLEDGE_VERSION),
  app: z.object({ package: z.string(), label: z.string() }),
  pages: z.array(KnowledgePageSchema),
});
export type Knowledge = z.infer<typeof KnowledgeSchema>;
export type KnowledgePage = z.infer<typeof KnowledgePageSchema>;
export type KnowledgeElement = z.infer<typeof KnowledgeElementSchema>;

export const KNOWLEDGE_FILE = 'knowledge.json';

/** What a person would call an element (the listing's label). */
export function elementLabel(e: Element): string {
  return (e.label || e.text || e.desc || e.resourceId.split('/').pop() || e.role).trim();
}

/** A knowledge file, validated: a bad file is an error naming it and what to do, never half-read. */
export async function loadKnowledge(file: string): Promise<Knowledge> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    throw new ActionableError(
      'INVALID_ARGUMENT',
      `cannot read the knowledge file ${file}: ${(e as Error).message}`,
      'pass the knowledge.json that `phone-agent explore --out DIR` wrote in DIR',
    );
  }
  const parsed = KnowledgeSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ActionableError(
      'INVALID_ARGUMENT',
      `${file} is not an app knowledge file: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
      `pass the knowledge.json that \`phone-agent explore\` wrote (version ${KNOWLEDGE_VERSION})`,
    );
  }
  return parsed.data;
}
