import { ActionableError } from '../core/errors.js';

/** The phone stopped answering while a run was driving it: the run folder stays resumable. */
export class DeviceUnavailableError extends ActionableError {
  override readonly name: string = 'DeviceUnavailableError';
  constructor(device: string, code: string, detail: string) {
    super(
      'DEVICE',
      `could not observe the phone through ${device} (${code}): ${detail}`,
      'check the device (`adb devices`, or that the helper/`phone-agent sim` is running), then `phone-agent resume <run>`',
    );
  }
}
