import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIRECT, listedDirectTools } from './direct-listing.js';

/**
 * The direct tools are generated from the registry's MCP exposure (`Tool.mcpDirect`, issue 23).
 * What an MCP client sees must be what it saw before they were: `direct-tools.listing.json` is the
 * listing as the hand-written tools gave it (stop 34, before the move), taken with the same client.
 * A deliberate change to a direct tool's schema, description or annotations updates that file and
 * says so in docs/CHANGES.md.
 */
const BEFORE = JSON.parse(readFileSync(join(import.meta.dirname, 'direct-tools.listing.json'), 'utf8'));

describe('the MCP direct tools, as an SDK client lists them', () => {
  it('are listed with the names, schemas, descriptions and annotations they had', async () => {
    const listed = await listedDirectTools();
    expect(Object.keys(listed).sort()).toEqual([...DIRECT].sort());
    expect(listed).toEqual(BEFORE);
  }, 30_000);
});
