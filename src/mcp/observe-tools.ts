import { z } from 'zod';
import { heldTaps } from '../agent/held-taps.js';
import { compactView } from '../perception/compact.js';
import { markHeld } from '../planner/prompt/format.js';
import { MCP_COMPACT } from './revisions.js';
import { has, type ToolDef } from './tool.js';

/**
 * Reading the screen: `observe` returns the compact view (what the agent's own model reads) with
 * a snapshot revision, or — given `since_revision` — only what changed since then (RFC §8), and
 * `screenshot` returns the screen as a downscaled image. Neither touches the phone's state.
 */

export const observeTools: ToolDef[] = [
  {
    name: 'observe',
    title: 'Observe the screen',
    description:
      'The screen as one line per actionable element: [id] verb Class "label" state #resource-id x,y (normalized 0..1000), plus visible text; a line ending "· asks user: <kind>" is a tap the guard holds until the user consents. Returns snapshot_revision; pass since_revision to get only the changes since that revision (if it is no longer kept: delta_available false, reason BASE_REVISION_UNAVAILABLE — observe without it).',
    shape: {
      since_revision: z.number().int().min(1).optional().describe('a snapshot_revision from an earlier call'),
      responseMode: z
        .enum(['compact', 'debug'])
        .optional()
        .describe('debug adds every element as JSON (the complete tree, no screenshot)'),
    },
    readOnly: true,
    destructive: false,
    usesDevice: true,
    offered: has('snapshot'),
    async run(args, call) {
      const since = args.since_revision as number | undefined;
      const o = await call.session.observe();
      const head = `snapshot_revision ${o.revision}`;
      if (since !== undefined) {
        const d = call.session.revisions.delta(since, o.revision);
        if (!d.delta_available)
          return {
            text: `${head} · delta unavailable (${d.reason}): revision ${since} is no longer kept — call observe without since_revision`,
            result: { ...d },
          };
        const { text, ...rest } = d;
        // One header line: the new revision, then the delta's own (which names its base).
        return { text: `${head} · ${text}`, result: rest };
      }
      const debug =
        args.responseMode === 'debug' ? { elements: o.obs.elements, windows: o.obs.windows, texts: o.obs.texts } : {};
      return {
        // debug promises the elements: in the content too, for clients that show their model only that.
        withJson: args.responseMode === 'debug',
        // The same marks the agent's model reads: which taps will ask the user, before they are tried.
        text: `${head}\n${markHeld(compactView(o.obs, MCP_COMPACT), heldTaps(o.obs, call.session.deps.guard))}`,
        result: {
          snapshot_revision: o.revision,
          app: o.obs.app,
          screen: o.obs.screen,
          elements: o.obs.elements.filter((e) => e.actionable).length,
          ...debug,
        },
      };
    },
  },
  {
    name: 'screenshot',
    title: 'Screenshot',
    description: 'The screen as an image, downscaled (default: 768 px on the long side, JPEG).',
    shape: {
      max_side: z.number().int().min(128).max(2048).optional(),
      format: z.enum(['jpeg', 'png']).optional(),
    },
    readOnly: true,
    destructive: false,
    usesDevice: true,
    offered: has('screenshot'),
    async run(args, call) {
      const o = await call.session.observe({ screenshot: true });
      if (!o.png)
        return {
          result: {
            success: false,
            failure_code: 'UNAVAILABLE',
            message: 'the device returned no screenshot; try again',
          },
          isError: true,
        };
      const side = (args.max_side as number | undefined) ?? 768;
      const format = (args.format as 'jpeg' | 'png' | undefined) ?? 'jpeg';
      const sharp = (await import('sharp')).default;
      const img = sharp(o.png).resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true });
      const buf = format === 'png' ? await img.png().toBuffer() : await img.jpeg({ quality: 75 }).toBuffer();
      const meta = await sharp(buf).metadata();
      return {
        result: {
          snapshot_revision: o.revision,
          width: meta.width,
          height: meta.height,
          screen: { w: o.obs.screen.w, h: o.obs.screen.h },
        },
        image: { data: buf.toString('base64'), mimeType: format === 'png' ? 'image/png' : 'image/jpeg' },
      };
    },
  },
];
