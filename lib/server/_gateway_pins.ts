// Private: pinned tools (`pinned`, `--pin`, `[gateway] pinned`): catalog ids, or globs over them
// (`*` any run of characters, `?` one), listed directly even with `discover`. A pin is looked up
// among the approved tools (listed) and the held ones (reported with the approve command, never
// listed and never dropped in silence); a pin that matches neither is unknown (a warning).

import type { GatewayPins } from "./gateway_types.ts";

/** What a pin may hold: a tool id's characters and the glob's `*` and `?`. */
const PIN = /^[A-Za-z0-9_.*?-]{1,128}$/;

/** Why `pin` cannot be a pin, or `undefined` when it can. */
export function pinProblem(pin: unknown): string | undefined {
  if (typeof pin !== "string") return `a pin must be a string, got ${typeof pin}`;
  if (!PIN.test(pin)) {
    return `pin ${JSON.stringify(pin.slice(0, 80))} is not a tool id or a glob over ids ` +
      "(letters, digits, _ - . and the wildcards * ?)";
  }
  return undefined;
}

/** `pin` as a regular expression over whole ids. */
function matcher(pin: string): RegExp {
  const body = pin.replace(/[.+^${}()|[\]\\-]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`);
}

/** The pinned ids among `listed` (approved) and `held`, and the pins that match nothing. */
export function matchPins(
  pins: readonly string[],
  listed: readonly string[],
  held: readonly string[],
): GatewayPins {
  const tests = pins.map((pin) => ({ pin, re: matcher(pin) }));
  const hit = new Set<string>();
  const pick = (ids: readonly string[]) =>
    ids.filter((id) => {
      const found = tests.filter((t) => t.re.test(id));
      for (const t of found) hit.add(t.pin);
      return found.length > 0;
    });
  const on = pick(listed);
  const waiting = pick(held);
  return {
    listed: on,
    held: waiting,
    unknown: pins.filter((pin) => !hit.has(pin)),
  };
}
