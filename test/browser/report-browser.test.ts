import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands/run.js';
import { writeIndex, writeReport } from '../../src/report/index.js';
import { captureStdout } from '../report/helpers.js';

/**
 * The report as a person sees it: real runs on the virtual phone with the reference model, the
 * pages opened in headless Chromium (Debian's, `apt-get install chromium`), looked at by pixels
 * and by what is visible — not by grepping the HTML.
 */

const API_KEY = 'sk-test-4f9a1c2e7b3d';
let dir: string;
let browser: Browser;
let shop: { runDir: string; steps: number; status: string };
let denied: { runDir: string; steps: number; status: string };

async function run(goal: string, extra: { yes?: boolean; deny?: boolean }) {
  const { out } = await captureStdout(() =>
    runCommand(goal, {
      device: 'sim',
      model: 'reference',
      json: true,
      runsDir: path.join(dir, 'runs'),
      memory: path.join(dir, 'memory.json'),
      maxSteps: '20',
      seed: '1',
      locale: 'en',
      adbHost: '127.0.0.1',
      adbPort: '5037',
      ...extra,
    }),
  );
  return JSON.parse(out) as { runDir: string; steps: number; status: string };
}

async function open(file: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
  await page.goto(pathToFileURL(file).href);
  return page;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pa-browser-'));
  process.env.OPENAI_API_KEY = API_KEY;
  try {
    shop = await run("Order a Large Latte with ice, sweetness about 50%; go to payment but don't pay.", { yes: true });
    denied = await run('Text 15551234567: "On my way".', { deny: true });
  } finally {
    delete process.env.OPENAI_API_KEY;
  }
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

/** How many pixels of a PNG are the tap ring's red (#ff3b30). */
async function redPixels(png: Buffer): Promise<number> {
  const { data } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let red = 0;
  for (let i = 0; i < data.length; i += 3) {
    const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
    if (r > 200 && g < 110 && b < 110) red++;
  }
  return red;
}

/** How many distinct grey levels a picture has: a blank or missing image has one or two. */
async function levels(png: Buffer): Promise<number> {
  const { data } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return new Set(data).size;
}

describe('the inline report of a 12-step run, in Chromium', () => {
  let file: string;
  let bytes: number;
  beforeAll(async () => {
    file = path.join(dir, 'shop-inline.html');
    bytes = (await writeReport(shop.runDir, { out: file, inline: true })).bytes;
  });

  it('is one file well under 1 MB', () => {
    expect(shop.steps).toBeGreaterThanOrEqual(12);
    expect(bytes).toBeLessThan(600_000);
  });

  it('shows every step with a painted screen before and after it', async () => {
    const page = await open(file);
    const articles = page.locator('article.step');
    expect(await articles.count()).toBe(shop.steps);
    for (let n = 1; n <= shop.steps; n++) {
      for (const which of ['before', 'after']) {
        const frame = page.locator(`#step-${n} figure.${which} .frame`);
        await frame.scrollIntoViewIfNeeded();
        const box = await frame.boundingBox();
        expect(box?.height ?? 0, `step ${n} ${which}`).toBeGreaterThan(250);
        expect(await levels(await frame.screenshot()), `step ${n} ${which} is painted`).toBeGreaterThan(20);
      }
    }
    await page.close();
  });

  it('draws the tap ring on the screen before a tap, not on the screen after it', async () => {
    const page = await open(file);
    const steps = (await readdir(path.join(shop.runDir, 'steps'))).filter((n) => /^\d{3}\.json$/.test(n));
    let taps = 0;
    for (const name of steps) {
      const rec = JSON.parse(await readFile(path.join(shop.runDir, 'steps', name), 'utf8'));
      if (rec.decision?.action.tool !== 'tap') continue;
      taps++;
      const before = page.locator(`#step-${rec.step} figure.before .frame`);
      const after = page.locator(`#step-${rec.step} figure.after .frame`);
      await before.scrollIntoViewIfNeeded();
      // The ring (r 13 px, 3 px stroke) is ≈ 240 red pixels; app screens have some red of their own.
      const [b, a] = [await redPixels(await before.screenshot()), await redPixels(await after.screenshot())];
      expect(b - a, `step ${rec.step}: ${b} red pixels before, ${a} after`).toBeGreaterThan(150);
    }
    expect(taps).toBeGreaterThan(3);
    await page.close();
  });

  it("opens a step's model call: the request names the goal, the reply the action; no API key anywhere", async () => {
    const page = await open(file);
    const call = page.locator('#step-4 details.call.llm').first();
    await call.locator('summary').click();
    // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, not a DOM node; innerText is the rendered text the reader sees
    const text = await call.innerText();
    expect(text).toContain('Goal: Order a Large Latte');
    expect(text).toContain('"decision"');
    const device = page.locator('#step-4 details.call.device').first();
    await device.locator('summary').click();
    // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, not a DOM node; innerText is the rendered text the reader sees
    expect(await device.innerText()).toMatch(/tap \d+,\d+[\s\S]*"delivery": "delivered"/);
    await page.close();
    const logs = (await readdir(path.join(shop.runDir, 'steps'))).filter((n) => n.endsWith('.calls.jsonl'));
    expect(logs.length).toBeGreaterThan(shop.steps);
    for (const name of logs)
      expect(await readFile(path.join(shop.runDir, 'steps', name), 'utf8')).not.toContain(API_KEY);
    expect(await readFile(file, 'utf8')).not.toContain(API_KEY);
  });
});

describe('a run with a refused send, in Chromium', () => {
  it('the failed-steps filter leaves only the failed steps', async () => {
    expect(denied.steps).toBeGreaterThan(1);
    const file = (await writeReport(denied.runDir)).path;
    const page = await open(file);
    const all = await page.locator('article.step').count();
    const failed = await page.locator('article.step.failed').count();
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(all);
    expect(await page.locator('article.step:visible').count()).toBe(all);
    await page.getByLabel(/show only the \d+ failed step/).check();
    expect(await page.locator('article.step:visible').count()).toBe(failed);
    expect(await page.locator('article.step.ok:visible').count()).toBe(0);
    await page.close();
  });
});

describe('the index of runs, in Chromium', () => {
  it('lists both runs, newest first, and each opens its report', async () => {
    const idx = await writeIndex(path.join(dir, 'runs'));
    const page = await open(idx.path);
    const rows = page.locator('tr.run');
    expect(await rows.count()).toBe(2);
    // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, not a DOM node; innerText is the rendered text the reader sees
    expect(await rows.nth(0).innerText()).toContain('On my way');
    await rows.nth(1).getByRole('link').click();
    // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, not a DOM node; innerText is the rendered text the reader sees
    await expect.poll(() => page.locator('h1').innerText()).toContain('Order a Large Latte');
    expect(await page.locator('article.step').count()).toBe(shop.steps);
    await page.close();
  });
});
