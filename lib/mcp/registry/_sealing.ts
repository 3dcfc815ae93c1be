// Private: seal and open the secret fields of a server — the API key, header values and stdio
// env values — each bound to `<server id>:<field>`.

import type { McpServerConfig } from "../protocol/types.ts";
import { SecretKeyError } from "./errors.ts";
import { isSealedSecret, type SecretBox } from "../sealing/secrets.ts";

type Server = McpServerConfig & { id: string };
type Transform = (value: string, context: string) => Promise<string>;

async function each<T extends Server>(server: T, fn: Transform): Promise<T> {
  const out: T = { ...server };
  const at = (field: string) => `${server.id}:${field}`;
  if (server.apiKey !== undefined) out.apiKey = await fn(server.apiKey, at("apiKey"));
  for (const table of ["headers", "env"] as const) {
    const values = server[table];
    if (values === undefined) continue;
    const next: Record<string, string> = {};
    for (const [name, value] of Object.entries(values)) {
      next[name] = await fn(value, at(`${table}.${name}`));
    }
    out[table] = next;
  }
  return out;
}

/** `server` with every secret sealed by `box`; unchanged without a box. */
export function sealServer<T extends Server>(server: T, box: SecretBox | undefined): Promise<T> {
  if (box === undefined) return Promise.resolve(server);
  return each(
    server,
    (value, context) => isSealedSecret(value) ? Promise.resolve(value) : box.seal(value, context),
  );
}

/** `server` with every sealed secret opened; plain values (written without a key) stay. */
export function openServer<T extends Server>(server: T, box: SecretBox | undefined): Promise<T> {
  return each(server, (value, context) => {
    if (!isSealedSecret(value)) return Promise.resolve(value);
    if (box === undefined) {
      return Promise.reject(
        new SecretKeyError(
          `Cannot open the secret of server "${server.name}" (${context}): it is encrypted, and this registry has no key`,
          { server: server.name },
        ),
      );
    }
    return box.open(value, context).catch((error: Error) => {
      throw new SecretKeyError(`Server "${server.name}": ${error.message}`, {
        server: server.name,
        cause: error,
      });
    });
  });
}
