import type { z } from 'zod';
import { ActionableError, errorMessage } from '../../core/errors.js';
import {
  STF_API_BASE,
  STF_DEVICE_FIELDS,
  type StfAddUserDevicePayload,
  StfDefaultResponseSchema,
  type StfDevice,
  StfDeviceListResponseSchema,
  StfDeviceResponseSchema,
  StfErrorResponseSchema,
  StfRemoteConnectResponseSchema,
} from '../protocol/stf.js';

/**
 * A client of STF's REST API (device/protocol/stf.ts): the calls phone-agent makes, each one request
 * with a bearer token and a deadline. A refusal the farm answers (401, 403, 404, 504) is an
 * `StfRefusal` naming the call and the farm's own words; a farm that does not answer is an
 * ActionableError naming its URL. The token never appears in a message.
 */

export class StfRefusal extends ActionableError {
  override readonly name: string = 'StfRefusal';
  constructor(
    readonly status: number,
    readonly call: string,
    readonly description: string,
    hint: string,
  ) {
    super('STF', `STF refused ${call}: ${status} ${description}`, hint);
  }
}

export interface StfClientOptions {
  /** The farm's address (`https://stf.example.org`), with or without `/api/v1`. */
  url: string;
  /** An access token (STF: Settings → Keys → Access Tokens). */
  token: string;
  /** Per request (default 15 s; STF itself answers 504 after 5 s when a device does not respond). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const HINTS: Record<number, string> = {
  401: 'check --stf-token (env STF_TOKEN): an access token from STF → Settings → Keys',
  403: 'the device is taken by someone else, or not yours to release; pick another or try again later',
  404: 'the farm has no such device: `phone-agent devices --stf-url …` lists them',
  504: 'the device did not respond to the farm; try again or pick another',
};

export class StfClient {
  readonly api: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly opts: StfClientOptions) {
    const base = opts.url.replace(/\/+$/, '');
    this.api = base.endsWith(STF_API_BASE) ? base : `${base}${STF_API_BASE}`;
    this.fetchImpl = opts.fetch ?? fetch;
  }

  /** The farm's address as the user gave it, for messages. */
  get url(): string {
    return this.opts.url;
  }

  /** `GET /devices` (target `user`: the devices you can use now), with the columns phone-agent reads. */
  async devices(): Promise<StfDevice[]> {
    const body = await this.call('GET', `/devices?fields=${STF_DEVICE_FIELDS.join(',')}`, StfDeviceListResponseSchema);
    return body.devices ?? [];
  }

  /** `GET /user/devices`: the devices under your control. */
  async userDevices(): Promise<StfDevice[]> {
    const body = await this.call(
      'GET',
      `/user/devices?fields=${STF_DEVICE_FIELDS.join(',')}`,
      StfDeviceListResponseSchema,
    );
    return body.devices ?? [];
  }

  /** `GET /devices/{serial}`. */
  async device(serial: string): Promise<StfDevice> {
    return (await this.call('GET', `/devices/${encodeURIComponent(serial)}`, StfDeviceResponseSchema)).device;
  }

  /** `POST /user/devices` (`addUserDevice`): take the device, released by the farm after `timeout` ms idle. */
  async reserve(payload: StfAddUserDevicePayload): Promise<void> {
    await this.call('POST', '/user/devices', StfDefaultResponseSchema, payload);
  }

  /** `POST /user/devices/{serial}/remoteConnect`: its remote ADB endpoint, `host:port`. */
  async remoteConnect(serial: string): Promise<string> {
    const path = `/user/devices/${encodeURIComponent(serial)}/remoteConnect`;
    return (await this.call('POST', path, StfRemoteConnectResponseSchema)).remoteConnectUrl;
  }

  /** `DELETE /user/devices/{serial}/remoteConnect`. */
  async remoteDisconnect(serial: string): Promise<void> {
    await this.call('DELETE', `/user/devices/${encodeURIComponent(serial)}/remoteConnect`, StfDefaultResponseSchema);
  }

  /** `DELETE /user/devices/{serial}` (`deleteUserDeviceBySerial`): give it back. */
  async release(serial: string): Promise<void> {
    await this.call('DELETE', `/user/devices/${encodeURIComponent(serial)}`, StfDefaultResponseSchema);
  }

  private async call<S extends z.ZodType>(
    method: string,
    path: string,
    schema: S,
    body?: unknown,
  ): Promise<z.infer<S>> {
    const call = `${method} ${STF_API_BASE}${path.split('?')[0]}`;
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.api}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.opts.token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 15_000),
      });
    } catch (e) {
      throw new ActionableError(
        'STF',
        `the STF farm at ${this.opts.url} did not answer ${call}: ${errorMessage(e)}`,
        'check --stf-url (env STF_URL) and that the farm is up',
      );
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      throw new ActionableError(
        'STF',
        `the STF farm at ${this.opts.url} answered ${call} with ${res.status} and no JSON (${text.slice(0, 60)})`,
        'check that --stf-url is the farm itself (its API is under /api/v1)',
      );
    }
    if (!res.ok) {
      const e = StfErrorResponseSchema.safeParse(json);
      throw new StfRefusal(
        res.status,
        call,
        e.success ? e.data.description : text.slice(0, 80),
        HINTS[res.status] ?? "see the farm's message",
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new ActionableError(
        'STF',
        `the STF farm at ${this.opts.url} answered ${call} in a shape its API does not describe: ${parsed.error.issues[0]?.message ?? '?'}`,
        'check that --stf-url is an STF (DeviceFarmer) farm',
      );
    return parsed.data;
  }
}
