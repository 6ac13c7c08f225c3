import sharp from 'sharp';
import { type Command, fail, ok, usage, writePhoneFile } from '../command.js';

/** `uiautomator dump` and `screencap`: the two ways an adb client reads the screen. */

const DEFAULT_DUMP = '/sdcard/window_dump.xml';

export const uiautomator: Command = async (ctx) => {
  const [sub, ...rest] = ctx.argv.slice(1);
  if (sub !== 'dump') {
    return usage(
      'Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\nhelp: displays help message\n\nruntest: executes UI automation tests\n\ndump: creates an XML dump of current UI hierarchy\n\nevents: prints out accessibility events until terminated\n',
    );
  }
  const path = rest.filter((a) => !a.startsWith('--'))[0] ?? DEFAULT_DUMP;
  let xml: string;
  try {
    xml = await ctx.phone.dumpXml();
  } catch {
    // What UiAutomator prints when the accessibility tree is empty (WebView, secure screens, faults).
    // It exits 0, so callers must read the message.
    return { stderr: 'ERROR: null root node returned by UiTestAutomationBridge.\n', code: 0 };
  }
  // The real tool's message has this typo; clients match on it.
  const done = `UI hierchary dumped to: ${path}\n`;
  if (path === '/dev/tty' || path === '/dev/stdout') return ok(`${xml}${done}`);
  const err = writePhoneFile(ctx.phone, path, Buffer.from(xml, 'utf8'));
  if (err) return fail(`ERROR: could not write ${path}: ${err}\n`);
  return ok(done);
};

/** Raw screencap: width, height, format (1 = RGBA_8888), dataspace (API 28+), then pixels. */
async function rawCapture(png: Buffer, apiLevel: number): Promise<Buffer> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const header = Buffer.alloc(apiLevel >= 28 ? 16 : 12);
  header.writeUInt32LE(info.width, 0);
  header.writeUInt32LE(info.height, 4);
  header.writeUInt32LE(1, 8);
  if (apiLevel >= 28) header.writeUInt32LE(0, 12);
  return Buffer.concat([header, data]);
}

export const screencap: Command = async (ctx) => {
  let png = false;
  let file: string | undefined;
  const args = ctx.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-p') png = true;
    else if (a === '-d') i++;
    else if (a === '-h')
      return usage(
        'usage: screencap [-hp] [-d display-id] [FILENAME]\n   -h: this message\n   -p: save the file as a png.\n',
      );
    else if (a.startsWith('-')) return fail(`screencap: invalid option -- ${a.slice(1)}\n`);
    else file = a;
  }
  if (file?.endsWith('.png')) png = true;
  const shot = await ctx.phone.screenshot();
  const bytes = png ? shot.png : await rawCapture(shot.png, ctx.phone.info.apiLevel);
  if (file) {
    const err = writePhoneFile(ctx.phone, file, bytes);
    return err ? fail(`Error opening file: ${file} (${err})\n`) : ok();
  }
  return { stdout: bytes, code: 0 };
};
