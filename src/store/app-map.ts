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
  label: z.string(),
  description: z.string(),
  /** The page a tap on it opened, when the walk saw one. */
  opens: z.string().optional(),
});

const KnowledgePageSchema = z.object({
  id: z.string(),
  activity: z.string(),
  title: z.string(),
  description: z.string().optional(),
  elements: z.array(KnowledgeElementSchema),
});

export const KnowledgeSchema = z.object({
  version: z.literal(KNOWLEDGE_VERSION),
  app: z.object({ package: z.string(), label: z.string() }),
  pages: z.array(KnowledgePageSchema),
});
export type Knowledge = z.infer<typeof KnowledgeSchema>;
export type KnowledgePage = z.infer<typeof KnowledgePageSchema>;

export const KNOWLEDGE_FILE = 'knowledge.json';

/** What a person would call an element (the listing's label). */
export function elementLabel(e: Element): string {
  return (e.label || e.text || e.desc || e.resourceId.split('/').pop() || e.role).trim();
}

/** The compact knowledge of a map: per page its identity, description and described controls. */
export function knowledgeOf(map: AppMap): Knowledge {
  const opens = new Map<string, string>();
  for (const t of map.transitions)
    if (t.event.kind === 'touch' && t.to !== t.from) opens.set(`${t.from}|${t.event.element}`, t.to);
  return {
    version: KNOWLEDGE_VERSION,
    app: map.app,
    pages: map.pages.map((p) => ({
      id: p.id,
      activity: p.activity,
      title: p.title,
      ...(p.description ? { description: p.description } : {}),
      elements: p.elements
        .filter((e) => p.notes[e.id])
        .map((e) => {
          const to = opens.get(`${p.id}|${e.id}`);
          return {
            id: e.id,
            label: elementLabel(e),
            description: p.notes[e.id] as string,
            ...(to ? { opens: to } : {}),
          };
        }),
    })),
  };
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
