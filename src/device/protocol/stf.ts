import { z } from 'zod';

/**
 * The part of STF's REST API (DeviceFarmer/stf, `lib/units/api/swagger/api_v1.yaml`, OpenAPI 3.0.1,
 * server `/api/v1`) that phone-agent uses, field for field: list the devices, take one under your
 * control, open and close its remote ADB endpoint, give it back. Authentication is
 * `Authorization: Bearer <access token>` (the API's `accessTokenAuth`). The stand-in farm
 * (testbed/stf) serves the same schemas; unknown fields pass through, since a real farm sends many.
 */

export const STF_API_BASE = '/api/v1';

/** `GET /devices` and `GET /user/devices`: the `fields` query picks the columns (comma-separated). */
export const STF_DEVICE_FIELDS = [
  'serial',
  'present',
  'ready',
  'using',
  'owner',
  'model',
  'manufacturer',
  'marketName',
  'name',
  'product',
  'sdk',
  'version',
  'remoteConnect',
  'remoteConnectUrl',
  'display',
] as const;

/** `components.schemas.Device` (the columns above; every one optional there too). */
export const StfDeviceSchema = z.looseObject({
  serial: z.string(),
  present: z.boolean().optional(),
  ready: z.boolean().optional(),
  using: z.boolean().optional(),
  owner: z
    .looseObject({ email: z.string().optional(), name: z.string().optional(), group: z.string().optional() })
    .nullable()
    .optional(),
  model: z.string().optional(),
  manufacturer: z.string().optional(),
  marketName: z.string().optional(),
  name: z.string().optional(),
  product: z.string().optional(),
  /** The API level, as a string ("34"). */
  sdk: z.string().optional(),
  /** The Android release ("14"). */
  version: z.string().optional(),
  remoteConnect: z.boolean().optional(),
  remoteConnectUrl: z.string().nullable().optional(),
  display: z.looseObject({ width: z.number().optional(), height: z.number().optional() }).optional(),
});
export type StfDevice = z.infer<typeof StfDeviceSchema>;

/**
 * The responses' common fields: `success` and `description` are required by every schema below; the
 * client reads `description` leniently (a farm's own build may leave it out of a 200).
 */
const answer = { success: z.boolean(), description: z.string().optional() };

/** `DeviceListResponse` (`devices` is commented out of `required` in the API description). */
export const StfDeviceListResponseSchema = z.looseObject({ ...answer, devices: z.array(StfDeviceSchema).optional() });
/** `DeviceResponse`. */
export const StfDeviceResponseSchema = z.looseObject({ ...answer, device: StfDeviceSchema });
/** `RemoteConnectUserDeviceResponse`: `remoteConnectUrl` is `host:port` for `adb connect`. */
export const StfRemoteConnectResponseSchema = z.looseObject({ ...answer, remoteConnectUrl: z.string().min(1) });
/** `DefaultResponse` (and the 200 of `addUserDevice`, whose content the description leaves empty). */
export const StfDefaultResponseSchema = z.looseObject(answer);
/** `UnexpectedErrorResponse`: every non-2xx answer (401, 403, 404, 500, 504). */
export const StfErrorResponseSchema = z.looseObject({ success: z.boolean(), description: z.string() });

/** `AddUserDevicePayload`, the body of `POST /user/devices`. */
export const StfAddUserDevicePayloadSchema = z.object({
  serial: z.string().min(1),
  /**
   * ms: "If device is kept idle for this period, it will be automatically disconnected. Default is
   * provider group timeout." Remote ADB traffic counts as activity (STF's connect plugin keeps the
   * group alive on every `userActivity`), so this is the lease a crashed client leaves behind.
   */
  timeout: z.number().int().min(0).optional(),
});
export type StfAddUserDevicePayload = z.infer<typeof StfAddUserDevicePayloadSchema>;

/** Whether a device can be taken now — STF's own `deviceutil.isAddable`. */
export function stfAddable(d: StfDevice): boolean {
  return d.present === true && d.ready === true && d.using !== true && !d.owner;
}
