// Required fields left empty, checked before anything is sent (servers reject them anyway, with
// a less helpful message).

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[] };

/**
 * The paths of required fields of `schema` that `value` leaves empty (missing, or an empty
 * string), nested objects included: `["sample.id"]`.
 */
export function missingRequired(schema: Schema, value: unknown, prefix = ""): string[] {
  const object = (value ?? {}) as Record<string, unknown>;
  const out: string[] = [];
  for (const [key, sub] of Object.entries(schema.properties ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    const v = object[key];
    if (schema.required?.includes(key) && (v === undefined || v === "")) out.push(path);
    else if (v && typeof v === "object" && !Array.isArray(v) && sub?.properties) {
      out.push(...missingRequired(sub, v, path));
    }
  }
  return out;
}
