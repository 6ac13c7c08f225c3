import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import type { PageMemoryData } from '../planner/memory/page-memory.js';

/** Page memory persisted across runs (lowdb, atomic writes), so a second run of a task is warm. */
export async function loadPageMemory(file: string): Promise<PageMemoryData> {
  const db = new Low<PageMemoryData>(new JSONFile(file), { entries: {}, plans: {} });
  await db.read();
  return db.data;
}

export async function savePageMemory(file: string, data: PageMemoryData): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const db = new Low<PageMemoryData>(new JSONFile(file), data);
  await db.write();
}
