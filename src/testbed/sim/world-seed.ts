import { seededRandom } from '../../core/random.js';
import type { App } from './app.js';
import type { World } from './world.js';

/**
 * A fresh world: phone defaults, then each app's own seeded part. Each app draws from its own
 * random stream (seed × package), so adding an app never changes another app's data.
 */

import { fnv1a as hashString } from '../../core/hash.js';

export { hashString };

export function createWorld(seed: number, apps: App[] = []): World {
  const world: World = {
    settings: { wifi: true, bluetooth: false, brightness: 128, darkMode: false },
    about: { model: 'Pixel 7', androidVersion: '14', buildNumber: 'UQ1A.240205.004' },
    toggles: {},
    permissions: {},
    contacts: [],
    threads: [],
    sent: [],
    cart: [],
    orders: [],
    payments: [],
    session: { attempts: 0 },
    account: { balance: '0.00' },
    launched: {},
    updateStarted: false,
    alarms: [],
    timer: { durationSec: 0, running: false },
    calendar: [],
    notes: [],
    files: new Map([['/sdcard/Download/readme.txt', Buffer.from('Welcome to the virtual phone.\n')]]),
    fileTimes: new Map(),
    events: [],
  };
  for (const app of apps) app.seedWorld?.(world, seededRandom((seed ^ hashString(app.package)) >>> 0));
  return world;
}
