// Drives the virtual phone with midscene's Android device (@midscene/android), unchanged, for
// test/adb/midscene.test.ts: `node midscene-driver.mjs SERIAL STEPS_JSON`, one JSON line per step
// on stdout ({ op, ok, value? , error? }). No model is involved: these are the device's own calls.
import { AndroidDevice } from '@midscene/android';

const [serial, stepsJson] = process.argv.slice(2);
const steps = JSON.parse(stepsJson ?? '[]');
const device = new AndroidDevice(serial, { autoDismissKeyboard: false });

async function run(step) {
  switch (step.op) {
    case 'size':
      return device.size();
    case 'screenshot': {
      const b64 = await device.screenshotBase64();
      return { bytes: Buffer.from(b64.replace(/^data:image\/\w+;base64,/, ''), 'base64').length };
    }
    case 'tap':
      return device.mouseClick(step.x, step.y);
    case 'scrollUp':
      return device.scrollUp(step.distance, step.start);
    case 'scrollDown':
      return device.scrollDown(step.distance, step.start);
    case 'type':
      return device.keyboardType(step.text, { autoDismissKeyboard: false });
    case 'back':
      return device.back();
    case 'launch':
      return device.launch(step.uri);
    default:
      throw new Error(`unknown op ${step.op}`);
  }
}

await device.connect();
for (const step of steps) {
  try {
    const value = await run(step);
    process.stdout.write(`${JSON.stringify({ op: step.op, ok: true, value: value ?? null })}\n`);
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ op: step.op, ok: false, error: String(err?.message ?? err) })}\n`);
  }
}
await device.destroy();
