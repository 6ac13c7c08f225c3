import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/testbed/sim/adbd/shell/commands/index.js';
import { captureCommandLine } from '../../src/testbed/sim/adbd/shell/interpreter.js';
import {
  DOWNLOAD_NAMES,
  DOWNLOADS,
  formatDate,
  formatSize,
  listFolder,
  seedDownloads,
  seededContent,
} from '../../src/testbed/sim/apps/files-data.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { centre, find, findAllIn, findIn, scrollTo, setText, settle, tapOn } from './helpers.js';

/** Files through the phone's input surface: Downloads over the sdcard map, search, view, delete. */

const FILES = 'com.android.documentsui';

async function openDownloads(locale: 'en' | 'zh' = 'en'): Promise<VirtualPhone> {
  const phone = new VirtualPhone({ seed: 5, locale });
  seedDownloads(phone.world);
  expect((await phone.launch(FILES)).ok).toBe(true);
  await settle(phone);
  await tapOn(phone, { id: 'downloads' });
  return phone;
}

async function visibleFiles(phone: VirtualPhone): Promise<string[]> {
  return findAllIn(await phone.readTree(), { id: 'file_name' }).map((n) => n.text);
}

function othersIntact(phone: VirtualPhone, except: string[]): boolean {
  return DOWNLOAD_NAMES.filter((n) => !except.includes(n)).every((n) =>
    phone.readFile(`${DOWNLOADS}/${n}`)?.equals(seededContent(n)),
  );
}

describe('Files', () => {
  it('lists Downloads from the sdcard map adb uses: newest first, with size and date', async () => {
    const phone = new VirtualPhone({ seed: 5 });
    seedDownloads(phone.world);
    await phone.launch(FILES);
    await settle(phone);
    const entry = await find(phone, { id: 'downloads' });
    expect(findIn(entry.snap, { text: '151 files' })).toBeDefined();
    await tapOn(phone, { id: 'downloads' });
    expect((await phone.readTree()).foreground).toEqual({ package: FILES, activity: '.FolderActivity' });

    const entries = listFolder(phone.world, DOWNLOADS);
    expect(entries.map((e) => e.name).sort()).toEqual([...(phone.listDir(DOWNLOADS) ?? [])].sort());
    const shown = await visibleFiles(phone);
    expect(shown.length).toBeGreaterThan(4);
    expect(shown).toEqual(entries.slice(0, shown.length).map((e) => e.name));
    for (let i = 1; i < entries.length; i++) expect(entries[i - 1]!.at).toBeGreaterThanOrEqual(entries[i]!.at);
    const first = entries[0]!;
    const summaries = findAllIn(await phone.readTree(), { id: 'file_summary' }).map((n) => n.text);
    expect(summaries[0]).toBe(`${formatSize(first.size)} · ${formatDate(first.at, false)}`);
    // readme.txt (30 bytes, no recorded time → the seed time) is first; seeded files are kB-sized.
    expect(summaries[0]).toBe('30 B · Nov 14, 2023');
    expect(summaries[1]).toMatch(/^\d+(\.\d)? kB · [A-Z][a-z]{2} \d{1,2}, 20\d\d$/);

    // The oldest file is at the end of a long list: reachable by scrolling.
    const last = entries.at(-1)!;
    await scrollTo(phone, 'files', { id: 'file_name', text: last.name }, 80);
    await tapOn(phone, { id: 'file_name', text: last.name });
    expect((await find(phone, { id: 'file_path' })).node.text).toBe(last.path);
  });

  it('a file pushed over adb shows up; search narrows the list to matching names', async () => {
    const phone = await openDownloads();
    phone.writeFile(`${DOWNLOADS}/pushed-by-adb.bin`, Buffer.alloc(2048));
    await setText(phone, { id: 'search' }, 'pushed');
    expect(await visibleFiles(phone)).toEqual(['pushed-by-adb.bin']);
    expect(findAllIn(await phone.readTree(), { id: 'file_summary' })[0]?.text).toMatch(/^2 kB · /);
    await setText(phone, { id: 'search' }, 'invoice_final');
    expect((await visibleFiles(phone)).sort()).toEqual(['invoice_final (1).pdf', 'invoice_final.pdf']);
    await setText(phone, { id: 'search' }, 'no-such-file');
    expect(await visibleFiles(phone)).toEqual([]);
    expect((await find(phone, { id: 'empty' })).node.text).toBe('No results');
  });

  it('deletes a file only after "Delete 1 item?"; Cancel keeps it; one deleted event', async () => {
    const phone = await openDownloads();
    const victim = 'receipt_2024.pdf';
    await setText(phone, { id: 'search' }, victim);
    await tapOn(phone, { id: 'file_name', text: victim });
    expect((await phone.readTree()).foreground.activity).toBe('.FileViewerActivity');
    expect((await find(phone, { id: 'file_size' })).node.text).toBe(formatSize(seededContent(victim).length));
    await tapOn(phone, { id: 'delete' });
    const snap = await phone.readTree();
    expect(findIn(snap, { text: 'Delete 1 item?' })).toBeDefined();
    expect(findIn(snap, { text: `"${victim}" will be permanently deleted from this device.` })).toBeDefined();
    await tapOn(phone, { text: 'Cancel' });
    expect(phone.readFile(`${DOWNLOADS}/${victim}`)).toBeDefined();
    expect(phone.world.events).toEqual([]);

    await tapOn(phone, { id: 'delete' });
    await tapOn(phone, { id: 'confirm_delete' });
    expect(phone.readFile(`${DOWNLOADS}/${victim}`)).toBeUndefined();
    expect(phone.listDir(DOWNLOADS)).not.toContain(victim);
    expect(othersIntact(phone, [victim])).toBe(true);
    expect(phone.world.events).toEqual([
      expect.objectContaining({ kind: 'deleted', app: FILES, detail: { paths: [`${DOWNLOADS}/${victim}`] } }),
    ]);
    const after = await phone.readTree();
    expect(after.foreground.activity).toBe('.FolderActivity');
    expect(findIn(after, { text: '1 item deleted' })).toBeDefined();
    expect(await visibleFiles(phone)).toEqual([]);
  });

  it("a row's ⋮ menu offers Open and Delete; Delete still asks first", async () => {
    const phone = await openDownloads();
    await setText(phone, { id: 'search' }, 'ticket_scan');
    await tapOn(phone, { id: 'more_options', desc: 'More options' });
    expect(findIn(await phone.readTree(), { text: 'ticket_scan.pdf' })).toBeDefined();
    await tapOn(phone, { id: 'menu_delete' });
    expect(findIn(await phone.readTree(), { text: 'Delete 1 item?' })).toBeDefined();
    expect(phone.readFile(`${DOWNLOADS}/ticket_scan.pdf`)).toBeDefined();
    await tapOn(phone, { id: 'confirm_delete' });
    expect(phone.readFile(`${DOWNLOADS}/ticket_scan.pdf`)).toBeUndefined();
    expect(phone.world.events).toHaveLength(1);
    await setText(phone, { id: 'search' }, 'ticket_final.pdf');
    await tapOn(phone, { id: 'more_options' });
    await tapOn(phone, { id: 'menu_open' });
    expect((await find(phone, { id: 'file_title' })).node.text).toBe('ticket_final.pdf');
  });

  it('long-press selects; a second tap adds; "Delete 2 items?" removes both; back leaves selection mode', async () => {
    const phone = await openDownloads();
    await setText(phone, { id: 'search' }, 'budget_2024');
    const names = await visibleFiles(phone);
    expect(names.length).toBe(3);
    const [a, b, c] = names as [string, string, string];
    const { node } = await find(phone, { id: 'file_name', text: a });
    const p = centre(node);
    expect((await phone.tap(p.x, p.y, 900)).ok).toBe(true);
    await settle(phone);
    expect((await find(phone, { id: 'selection_count' })).node.text).toBe('1 selected');
    await phone.key('back');
    await settle(phone);
    expect(findIn(await phone.readTree(), { id: 'selection_count' })).toBeUndefined();
    expect((await phone.readTree()).foreground.activity).toBe('.FolderActivity');

    const again = centre((await find(phone, { id: 'file_name', text: a })).node);
    await phone.tap(again.x, again.y, 900);
    await settle(phone);
    await tapOn(phone, { id: 'file_name', text: b });
    expect((await find(phone, { id: 'selection_count' })).node.text).toBe('2 selected');
    expect(findAllIn(await phone.readTree(), { id: 'select' }).filter((n) => n.flags.checked)).toHaveLength(2);
    await tapOn(phone, { id: 'delete' });
    expect(findIn(await phone.readTree(), { text: 'Delete 2 items?' })).toBeDefined();
    await tapOn(phone, { id: 'confirm_delete' });
    expect(phone.readFile(`${DOWNLOADS}/${a}`)).toBeUndefined();
    expect(phone.readFile(`${DOWNLOADS}/${b}`)).toBeUndefined();
    expect(phone.readFile(`${DOWNLOADS}/${c}`)).toBeDefined();
    expect(othersIntact(phone, [a, b])).toBe(true);
    expect(phone.world.events.filter((e) => e.kind === 'deleted')).toHaveLength(1);
    expect(await visibleFiles(phone)).toEqual([c]);
  });

  it('agrees with `adb shell`: ls after a delete in the app, and an rm over the shell leaves the list', async () => {
    const phone = await openDownloads();
    const sh = async (line: string) =>
      (await captureCommandLine(line, { phone, commands: COMMANDS })).stdout?.toString() ?? '';
    const listed = async () => (await sh(`ls ${DOWNLOADS}`)).split('\n').filter(Boolean);
    expect((await listed()).sort()).toEqual(
      listFolder(phone.world, DOWNLOADS)
        .map((e) => e.name)
        .sort(),
    );
    await setText(phone, { id: 'search' }, 'minutes.pdf');
    await tapOn(phone, { id: 'file_name', text: 'minutes.pdf' });
    await tapOn(phone, { id: 'delete' });
    await tapOn(phone, { id: 'confirm_delete' });
    expect(await listed()).not.toContain('minutes.pdf');
    expect(await listed()).toHaveLength(DOWNLOAD_NAMES.length);

    await setText(phone, { id: 'search' }, 'minutes_2023');
    expect(await visibleFiles(phone)).toEqual(['minutes_2023.pdf']);
    await sh(`rm '${DOWNLOADS}/minutes_2023.pdf'`);
    await settle(phone);
    expect(await visibleFiles(phone)).toEqual([]);
  });

  it('in landscape the viewer scrolls its details and keeps Delete on screen', async () => {
    const phone = new VirtualPhone({ seed: 5, screen: 'landscape' });
    seedDownloads(phone.world);
    await phone.launch(FILES);
    await settle(phone);
    await tapOn(phone, { id: 'downloads' });
    await setText(phone, { id: 'search' }, 'contract.docx');
    await tapOn(phone, { id: 'file_name', text: 'contract.docx' });
    const snap = await phone.readTree();
    const del = findIn(snap, { id: 'delete' });
    expect(del).toBeDefined();
    expect(del!.bounds.bottom).toBeLessThanOrEqual(snap.screen.height);
    await tapOn(phone, { id: 'delete' });
    expect(findIn(await phone.readTree(), { text: 'Delete 1 item?' })).toBeDefined();
  });

  it('Internal storage browses folders of the same map', async () => {
    const phone = new VirtualPhone({ seed: 5 });
    phone.writeFile('/sdcard/Documents/plan.txt', Buffer.from('plan'));
    await phone.launch(FILES);
    await settle(phone);
    await tapOn(phone, { id: 'internal_storage' });
    const folders = findAllIn(await phone.readTree(), { id: 'file_name' }).map((n) => n.text);
    expect(folders).toEqual([...(phone.listDir('/sdcard') ?? [])].sort((x, y) => x.localeCompare(y)));
    await tapOn(phone, { id: 'file_name', text: 'Documents' });
    expect(await visibleFiles(phone)).toEqual(['plan.txt']);
  });

  it('speaks Chinese in the zh locale: 下载, search hint, 删除 dialog with 取消', async () => {
    const phone = new VirtualPhone({ seed: 5, locale: 'zh' });
    seedDownloads(phone.world);
    await phone.launch('文件');
    await settle(phone);
    expect(findIn(await phone.readTree(), { text: '下载' })).toBeDefined();
    await tapOn(phone, { id: 'downloads' });
    const xml = await phone.dumpXml();
    // An empty EditText reports its hint as its text, as uiautomator dumps do.
    expect(xml).toContain('text="在“下载”中搜索" resource-id="com.android.documentsui:id/search"');
    await setText(phone, { id: 'search' }, '旧发票');
    expect((await visibleFiles(phone)).sort()).toEqual(['旧发票 (1).pdf', '旧发票.jpg', '旧发票.pdf']);
    const summary = findAllIn(await phone.readTree(), { id: 'file_summary' })[0]?.text ?? '';
    expect(summary).toMatch(/ · 20\d\d年\d{1,2}月\d{1,2}日$/);
    await tapOn(phone, { id: 'file_name', text: '旧发票.pdf' });
    await tapOn(phone, { text: '删除' });
    const dialog = await phone.dumpXml();
    expect(dialog).toContain('要删除 1 项内容吗？');
    expect(dialog).toContain('“旧发票.pdf”将从此设备中永久删除。');
    await tapOn(phone, { text: '取消' });
    expect(phone.readFile(`${DOWNLOADS}/旧发票.pdf`)).toBeDefined();
    expect(phone.world.events).toEqual([]);
  });
});
