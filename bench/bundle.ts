// Browser bundle sizes (esbuild, minified, gzip -9), side by side in one run:
//  - "." as a page loads it first (the entry and every chunk it imports statically),
//    and everything "." can ever load (lazy chunks too, built-in skill texts apart);
//  - the MCP HTTP client alone (connect, with the chunks it loads at the first connection);
//  - the official SDK's Client + StreamableHTTPClientTransport.

import { bundleForBrowser, firstLoadChunks, gzipSizes } from "../scripts/_browser_bundle.ts";

interface Sized {
  first: number;
  all: number;
}

/** Bundle `contents` (an entry module's source, resolved from the repository root). */
async function measure(contents: string): Promise<Sized> {
  const result = await bundleForBrowser(contents);
  const gz = gzipSizes(result);
  const first = [...firstLoadChunks(result)].reduce((n, f) => n + (gz.get(f) ?? 0), 0);
  // Data apart: the built-in skill texts and the o200k tokenizer tables (loaded only to count).
  const all = [...gz].filter(([f]) => !/_builtin_skills|o200k/.test(f)).reduce(
    (n, [, size]) => n + size,
    0,
  );
  return { first, all };
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

export async function benchBundle(): Promise<void> {
  {
    const mod = await measure('export * from "./lib/mod.ts";');
    const client = await measure('export { connect } from "./lib/mcp/client/client.ts";');
    const sdk = await measure(
      'export { Client } from "@modelcontextprotocol/sdk/client/index.js";\n' +
        'export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";\n',
    );
    console.log(`\n## Browser bundles (esbuild --minify, gzip -9)`);
    console.log(`"." first load (entry + static chunks)   ${kib(mod.first)}`);
    console.log(`"." with every lazy chunk (no skill data, no o200k tables) ${kib(mod.all)}`);
    console.log(
      `MCP HTTP client alone (connect: ${
        kib(client.first)
      } first, the rest at the first connection) ${kib(client.all)}`,
    );
    console.log(
      `SDK Client + StreamableHTTPClientTransport ${kib(sdk.first)}  (${
        (sdk.first / client.all).toFixed(1)
      }x our client)`,
    );
  }
}
