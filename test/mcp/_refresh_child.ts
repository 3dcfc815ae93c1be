/**
 * Child process for the multi-process refresh test: opens the OAuth store its arguments name
 * (`redis <url> <mcpUrl>` — unstorage over Redis — or `fs <folder> <mcpUrl>`), prints "ready",
 * waits for a line on stdin (so that every child starts at once), asks an OAuthSession for the
 * access token of the MCP server — which refreshes it when due — and prints `{ token }` or
 * `{ error }` as JSON.
 *
 * @module
 */

import process from "node:process";
import { createStorage } from "unstorage";
import redisDriver from "unstorage/drivers/redis";
import { createOAuthStore, OAuthSession } from "../../lib/mcp/auth/mod.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { createUnstorageStorage } from "../../lib/storage/unstorage.ts";

const [kind, where, mcpUrl] = process.argv.slice(-3);
const redis = kind === "redis"
  ? createStorage({ driver: redisDriver({ url: where, maxRetriesPerRequest: 1 }) })
  : undefined;
const storage = redis !== undefined
  ? createUnstorageStorage(redis)
  : createFsStorage({ root: where, private: true });
const store = createOAuthStore(storage);
console.log("ready");
await new Promise((resolve) => process.stdin.once("data", resolve));
try {
  const token = await new OAuthSession(mcpUrl, { store }).accessToken();
  console.log(JSON.stringify({ token }));
} catch (error) {
  console.log(JSON.stringify({ error: String(error) }));
}
await redis?.dispose();
process.exit(0);
