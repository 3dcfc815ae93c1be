// Private: how messages name a skill and a place in its text.

const MAX_SHOWN = 80;

/** JSON-quotes `value` and truncates it to about 80 characters. */
export function quote(value: string): string {
  const quoted = JSON.stringify(value);
  return quoted.length <= MAX_SHOWN ? quoted : `${quoted.slice(0, MAX_SHOWN - 2)}…"`;
}

/**
 * ` "samtools" (skills/samtools.md:4)`, ` "samtools" (line 4)`, ` (x.md)` or
 * `""`, ready to follow `Cannot parse skill` or `Skill`.
 */
export function formatSkillLocation(skill?: string, source?: string, line?: number): string {
  let out = skill === undefined ? "" : ` ${quote(skill)}`;
  if (source !== undefined) out += ` (${source}${line === undefined ? "" : `:${line}`})`;
  else if (line !== undefined) out += ` (line ${line})`;
  return out;
}
