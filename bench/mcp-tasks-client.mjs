#!/usr/bin/env node
/**
 * The MCP client a model drives in `npm run bench:mcp-tasks` (or any `phone-agent mcp --http`): the
 * official SDK's Client over Streamable HTTP, one session per command, printing what a model would
 * receive — the tool list (server instructions, names, descriptions, input schemas) or a call's
 * result content (text as is; each image saved to a file and named).
 *
 *   node bench/mcp-tasks-client.mjs task        (waits for the next task, prints its sentence)
 *   node bench/mcp-tasks-client.mjs list
 *   node bench/mcp-tasks-client.mjs call TOOL ['{"json":"arguments"}']
 *   node bench/mcp-tasks-client.mjs finish done|infeasible|ask_user [ANSWER]
 *
 * Where the server is: PA_MCP_WORK (or --work), the bench's work folder, whose `current.json` names
 * the running task's server, token and folder — one setting for the whole run. Or each of them:
 * --url/PA_MCP_URL, --token/PA_MCP_TOKEN, --task-dir/PA_MCP_TASK_DIR (the harness prints them too).
 * With a task dir the client is the host a user sits at: a server's consent request (elicitation)
 * is put to the user through `D/consent/` (the harness answers as the task's user) and never shown
 * to the model as a question; without one the server answers needs_confirmation instead.
 * Plain JavaScript so a command starts fast (a model makes dozens); types in the .d.mts beside it.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const USAGE = `usage: node bench/mcp-tasks-client.mjs [options] task
       node bench/mcp-tasks-client.mjs [options] list
       node bench/mcp-tasks-client.mjs [options] call TOOL ['{"arg": "value"}']
       node bench/mcp-tasks-client.mjs [options] finish done|infeasible|ask_user [ANSWER]
options: --work DIR (env PA_MCP_WORK: the bench's work folder, names the running task's server)
         or --url U --token T --task-dir D (env PA_MCP_URL, PA_MCP_TOKEN, PA_MCP_TASK_DIR); --images DIR`;

const CONSENT_WAIT_MS = 10 * 60_000;
/** How long `task` waits for the harness to set up the next task (a fresh phone, a server). */
const TASK_WAIT_MS = 5 * 60_000;
const FINISH = new Set(['done', 'infeasible', 'ask_user']);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Where consent questions and answers are exchanged with the user (the harness). */
export const consentDir = (taskDir) => path.join(taskDir, 'consent');

/** The running task, in the bench's work folder: `{ n, of, instruction, url, token, taskDir }`. */
export const currentFile = (workDir) => path.join(workDir, 'current.json');
/** Written when the last task is judged: `task` then says the run is over. */
export const overFile = (workDir) => path.join(workDir, 'over.json');

async function readJson(file) {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : JSON.parse(text);
}

/** The running task, or undefined between tasks (the harness is judging one or setting up the next). */
export async function readCurrent(workDir) {
  return readJson(currentFile(workDir));
}

/** Wait for a task that is running and not yet finished; undefined when the run is over. */
async function nextTask(workDir) {
  const until = Date.now() + TASK_WAIT_MS;
  while (Date.now() < until) {
    const cur = await readCurrent(workDir);
    if (cur && !(await readJson(path.join(cur.taskDir, 'finished.json')))) return cur;
    if (!cur && (await readJson(overFile(workDir)))) return undefined;
    await sleep(200);
  }
  throw new Error(`no task started within ${TASK_WAIT_MS / 60_000} minutes in ${workDir}: is the bench running?`);
}

/** Write a file whole or not at all (a reader polling the folder never sees half of it). */
export async function writeAtomic(file, text) {
  const tmp = `${file}.${randomBytes(3).toString('hex')}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

/** Put the server's consent request to the user and wait for the answer (`{ approve: boolean }`). */
async function askUser(taskDir, params) {
  const dir = consentDir(taskDir);
  await mkdir(dir, { recursive: true });
  const id = `${Date.now()}-${randomBytes(3).toString('hex')}`;
  await writeAtomic(path.join(dir, `${id}.question.json`), JSON.stringify({ message: params.message }));
  const answer = path.join(dir, `${id}.answer.json`);
  const until = Date.now() + CONSENT_WAIT_MS;
  while (Date.now() < until) {
    const text = await readFile(answer, 'utf8').catch(() => undefined);
    if (text !== undefined) {
      const approve = JSON.parse(text).approve === true;
      process.stderr.write(`(the user was asked "${params.message}" and answered: ${approve ? 'allow' : 'deny'})\n`);
      return { action: 'accept', content: { approve } };
    }
    await sleep(100);
  }
  process.stderr.write('(the user did not answer within 10 minutes: declined)\n');
  return { action: 'decline' };
}

/**
 * One session on the server. `taskDir` makes this client a host that can ask its user for consent.
 * Close it with `close()` (the session is ended on the server too).
 */
export async function openClient({ url, token, taskDir }) {
  if (!url) throw new Error('no server URL: pass --url or set PA_MCP_URL');
  if (!token) throw new Error('no token: pass --token or set PA_MCP_TOKEN');
  const client = new Client(
    { name: 'mcp-tasks-client', version: '1.0.0' },
    { capabilities: taskDir ? { elicitation: {} } : {} },
  );
  if (taskDir) client.setRequestHandler(ElicitRequestSchema, (req) => askUser(taskDir, req.params));
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return {
    client,
    async close() {
      await transport.terminateSession().catch(() => {});
      await client.close().catch(() => {});
    },
  };
}

/** The tool list as a model is given it: the server's instructions, then each tool and its schema. */
export function renderTools(tools, instructions) {
  const lines = instructions ? [`server instructions: ${instructions}`, ''] : [];
  for (const t of tools) {
    lines.push(`## ${t.name}${t.title && t.title !== t.name ? ` (${t.title})` : ''}`);
    if (t.description) lines.push(t.description);
    lines.push(`input schema: ${JSON.stringify(t.inputSchema)}`, '');
  }
  return lines.join('\n');
}

const EXT = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** A call's result content as a model receives it; images go to files under `imagesDir`, named. */
export async function renderResult(result, { imagesDir, name }) {
  const out = result.isError ? ['isError: true'] : [];
  let n = 0;
  for (const c of result.content ?? []) {
    if (c.type === 'text') out.push(c.text);
    else if (c.type === 'image') {
      await mkdir(imagesDir, { recursive: true });
      const file = path.join(
        imagesDir,
        `${name}-${Date.now()}-${++n}.${EXT[c.mimeType] ?? 'bin'}`.replace(/[^\w.-]+/g, '_'),
      );
      await writeFile(file, Buffer.from(c.data, 'base64'));
      out.push(`[image ${c.mimeType} saved to ${file}]`);
    } else out.push(`[${c.type} content]`);
  }
  return out.join('\n');
}

/** The client's word that the task is finished, for the harness (its checker judges the world). */
export async function writeFinished(taskDir, status, answer) {
  if (!FINISH.has(status)) throw new Error(`finish needs done, infeasible or ask_user, not "${status}"`);
  await mkdir(taskDir, { recursive: true });
  await writeAtomic(path.join(taskDir, 'finished.json'), JSON.stringify({ status, answer }));
}

function parseArgv(argv) {
  const opts = { work: undefined, url: undefined, token: undefined, taskDir: undefined, images: undefined };
  const rest = [];
  const flags = { '--work': 'work', '--url': 'url', '--token': 'token', '--task-dir': 'taskDir', '--images': 'images' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const flag = flags[a];
    if (flag) {
      if (argv[i + 1] === undefined) throw new Error(`${a} needs a value`);
      opts[flag] = argv[++i];
    } else rest.push(a);
  }
  // A work folder names the running task itself: the per-task variables would be a task behind.
  opts.work ??= process.env.PA_MCP_WORK;
  if (!opts.work) {
    opts.url ??= process.env.PA_MCP_URL;
    opts.token ??= process.env.PA_MCP_TOKEN;
    opts.taskDir ??= process.env.PA_MCP_TASK_DIR;
  }
  return { opts, rest };
}

async function main(argv) {
  let parsed;
  try {
    parsed = parseArgv(argv);
  } catch (e) {
    process.stderr.write(`${e.message}\n${USAGE}\n`);
    return 2;
  }
  const { opts, rest } = parsed;
  const [command, ...args] = rest;
  if (command === 'task') {
    if (!opts.work) {
      process.stderr.write(`task needs --work (or PA_MCP_WORK), the bench's work folder\n${USAGE}\n`);
      return 2;
    }
    const cur = await nextTask(opts.work);
    process.stdout.write(cur ? `task ${cur.n} of ${cur.of}: ${cur.instruction}\n` : 'no more tasks: the run is over\n');
    return 0;
  }
  if (opts.work) {
    // The running task's server, unless a flag names another.
    const cur = await readCurrent(opts.work);
    if (!cur) {
      process.stderr.write(`no task is running in ${opts.work} now: run "task" to wait for the next one\n`);
      return 1;
    }
    opts.url ??= cur.url;
    opts.token ??= cur.token;
    opts.taskDir ??= cur.taskDir;
  }
  if (command === 'finish') {
    if (!opts.taskDir) {
      process.stderr.write(`finish needs --work or --task-dir (or PA_MCP_WORK, PA_MCP_TASK_DIR)\n${USAGE}\n`);
      return 2;
    }
    if (await readJson(path.join(opts.taskDir, 'finished.json'))) {
      process.stderr.write('this task is already finished: run "task" for the next one\n');
      return 1;
    }
    await writeFinished(opts.taskDir, args[0] ?? 'done', args[1]);
    process.stdout.write(`finished: ${args[0] ?? 'done'}${args[1] ? ` — ${args[1]}` : ''}\n`);
    return 0;
  }
  if (command !== 'list' && command !== 'call') {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  let toolArgs = {};
  if (command === 'call') {
    if (!args[0]) {
      process.stderr.write(`call needs a tool name\n${USAGE}\n`);
      return 2;
    }
    try {
      toolArgs = args[1] ? JSON.parse(args[1]) : {};
    } catch (e) {
      process.stderr.write(`the arguments are not JSON (${e.message}): ${args[1]}\n`);
      return 2;
    }
  }
  const session = await openClient(opts);
  try {
    if (command === 'list') {
      const { tools } = await session.client.listTools();
      process.stdout.write(`${renderTools(tools, session.client.getInstructions())}\n`);
    } else {
      const result = await session.client.callTool({ name: args[0], arguments: toolArgs }, undefined, {
        timeout: CONSENT_WAIT_MS,
      });
      const imagesDir = opts.images ?? path.join(opts.taskDir ?? '.', 'images');
      process.stdout.write(`${await renderResult(result, { imagesDir, name: args[0] })}\n`);
    }
  } finally {
    await session.close();
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href)
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`mcp-tasks-client: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
