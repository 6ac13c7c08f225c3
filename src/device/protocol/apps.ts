import { z } from 'zod';

/**
 * `POST /v3/apps` (helper/PROTOCOL.md §5, capability `list_apps`): the launcher's apps — those with
 * a MAIN/LAUNCHER activity — each with the label the launcher shows under its icon in the phone's
 * language. The home screen itself is not one of them. Read-only: no op_id, no receipt.
 */

export const APPS_PATH = '/v3/apps';
export const LIST_APPS_CAPABILITY = 'list_apps';

export const AppsRequestSchema = z.object({}).strict();

export const WireAppSchema = z.object({
  package: z.string().min(1),
  /** As the launcher shows it (PackageManager's loadLabel); `launch_app { label }` accepts it. */
  label: z.string(),
  /** The launcher activity, when the host knows it (`.MainActivity` or fully qualified). */
  activity: z.string().optional(),
});
export type WireApp = z.infer<typeof WireAppSchema>;

export const AppsSchema = z.object({ apps: z.array(WireAppSchema) });
export type AppsAnswer = z.infer<typeof AppsSchema>;
