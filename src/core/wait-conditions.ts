/**
 * The conditions `wait_until` can wait for (PROTOCOL.md §7). One list: the protocol's request
 * schema and the planner's wait-until tool both read it, so they cannot drift apart.
 */
export const WAIT_CONDITIONS = [
  'appears',
  'disappears',
  'enabled',
  'disabled',
  'checked',
  'unchecked',
  'selected',
  'text_equals',
  'value_equals',
  'stable',
] as const;

export type WaitCondition = (typeof WAIT_CONDITIONS)[number];
