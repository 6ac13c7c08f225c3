#!/usr/bin/env node
// The `phone-agent` command. It runs the TypeScript sources through tsx (a dependency), so
// `npx phone-agent …` works right after `npm ci`, with no build step; a package without sources
// (only dist/, from `npm run build`) runs the compiled CLI instead.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(new URL('../dist/cli/main.js', import.meta.url).href);
}
