/**
 * OpenAI's strict function schemas need every property listed in `required` and
 * `additionalProperties: false`; optional properties become nullable instead. The parser drops the
 * nulls again (stripNulls).
 */
type Json = Record<string, unknown>;

export function toStrictSchema(schema: Json): Json {
  const out: Json = { ...schema };
  delete out.$schema;
  if (out.type === 'object' && out.properties && typeof out.properties === 'object') {
    const props = out.properties as Record<string, Json>;
    const required = new Set(Array.isArray(out.required) ? (out.required as string[]) : []);
    const next: Record<string, Json> = {};
    for (const [k, v] of Object.entries(props)) {
      const s = toStrictSchema(v);
      next[k] = required.has(k) ? s : { anyOf: [s, { type: 'null' }] };
    }
    out.properties = next;
    out.required = Object.keys(next);
    out.additionalProperties = false;
  }
  if (out.items && typeof out.items === 'object') out.items = toStrictSchema(out.items as Json);
  return out;
}
