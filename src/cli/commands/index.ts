import type { Command } from 'commander';
import { register as devices } from './devices.js';
import { register as doctor } from './doctor.js';
import { register as explore } from './explore.js';
import { register as helper } from './helper.js';
import { register as mcp } from './mcp.js';
import { register as observe } from './observe.js';
import { register as referenceModel } from './reference-model.js';
import { register as report } from './report.js';
import { register as resume } from './resume.js';
import { register as run } from './run.js';
import { register as sim } from './sim.js';
import { register as stfStandin } from './stf-standin.js';
import { register as tasks } from './tasks.js';
import { register as verifyDevice } from './verify-device.js';

/** Each subcommand lives in its own file and registers itself here (one import line each). */
export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [
  sim,
  observe,
  run,
  explore,
  resume,
  report,
  referenceModel,
  tasks,
  doctor,
  devices,
  mcp,
  helper,
  verifyDevice,
  stfStandin,
];
