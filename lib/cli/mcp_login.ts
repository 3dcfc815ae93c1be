/**
 * `skillmux mcp login|logout <name>`: sign in to an OAuth-protected MCP server (the browser
 * opens the authorization page; the redirect comes back to a loopback port) and sign out.
 *
 * @module
 */

import { isOAuthError } from "../mcp/auth/errors.ts";
import { OAuthSession } from "../mcp/auth/session.ts";
import type { RegisteredServer } from "../mcp/registry/records.ts";
import { CliError, str } from "./_args.ts";
import type { Command } from "./_command.ts";
import { type Context, ensureConfigDir, printJson } from "./_context.ts";
import { openBrowser, startLoopback } from "./_loopback.ts";
import { didYouMean } from "./_suggest.ts";

async function httpServer(ctx: Context, name: string): Promise<RegisteredServer & { url: string }> {
  const all = await (await ctx.registry()).list();
  const found = all.find((s) => s.name === name || s.url === name);
  if (found === undefined) {
    const hint = didYouMean(name, all.map((s) => s.name));
    throw new CliError(`No server named "${name}" is registered${hint}`);
  }
  if (found.url === undefined) throw new CliError(`"${name}" is a stdio server: it has no sign-in`);
  return found as RegisteredServer & { url: string };
}

/** The endpoint `connect()` uses (its OAuth key): `/mcp` appended when the URL has no path. */
export function endpointOf(url: string): string {
  const parsed = new URL(url);
  if (parsed.pathname === "/" || parsed.pathname === "") parsed.pathname = "/mcp";
  return parsed.href;
}

/** Sign in to `server` interactively; resolves the issuer signed in with. */
export async function login(
  ctx: Context,
  server: RegisteredServer & { url: string },
  options: { browser: boolean; timeoutMs: number },
): Promise<string> {
  const loopback = await startLoopback(options.timeoutMs);
  try {
    const store = await ctx.oauthStore();
    const resource = endpointOf(server.url);
    // A fresh sign-in registers again (the loopback port changed); a failed one keeps the old.
    const previous = await store.get(resource);
    await store.delete(resource);
    const session = new OAuthSession(resource, {
      store,
      redirectUri: loopback.redirectUri,
      clientName: "skillmux CLI",
      async onAuthorize(url) {
        ctx.err(`Open this URL in a browser to sign in to "${server.name}":`);
        ctx.err(`  ${url.href}`);
        if (options.browser) await openBrowser(url.href);
        ctx.err(ctx.paint.dim(`Waiting for the redirect on ${loopback.redirectUri} …`));
        return await loopback.wait();
      },
    }, { server: server.name });
    try {
      await session.signIn();
    } catch (error) {
      if (previous !== undefined) await store.set(resource, previous);
      throw error;
    }
    return (await store.get(resource))?.issuer ?? "";
  } finally {
    await loopback.close();
  }
}

const loginCommand: Command = {
  words: ["mcp", "login"],
  args: "<name>",
  min: 1,
  summary: "Sign in to an OAuth-protected server (opens the browser; the tokens are stored 0600)",
  options: [
    "--no-browser       print the sign-in URL only",
    "--timeout <s>      how long to wait for the sign-in (default 300)",
  ],
  spec: { "no-browser": { type: "boolean" }, timeout: { type: "string" } },
  async run(ctx, [name], values) {
    await ensureConfigDir(ctx);
    const server = await httpServer(ctx, name);
    const seconds = Number(str(values, "timeout") ?? "300");
    if (!(seconds > 0)) throw new CliError("--timeout must be a positive number of seconds");
    let issuer: string;
    try {
      issuer = await login(ctx, server, {
        browser: values["no-browser"] !== true,
        timeoutMs: seconds * 1000,
      });
    } catch (error) {
      if (isOAuthError(error)) {
        throw new CliError(`Sign-in failed: ${error.message}`, { cause: error });
      }
      throw error;
    }
    if (ctx.json) return printJson(ctx, { server: server.name, signedIn: true, issuer }), 0;
    ctx.out(`${ctx.paint.ok("✓")} Signed in to "${server.name}" (${issuer})`);
    return 0;
  },
};

const logoutCommand: Command = {
  words: ["mcp", "logout"],
  args: "<name>",
  min: 1,
  summary: "Revoke (when the server can) and forget the OAuth tokens and registration of a server",
  async run(ctx, [name]) {
    const server = await httpServer(ctx, name);
    const store = await ctx.oauthStore();
    const session = new OAuthSession(endpointOf(server.url), { store }, { server: server.name });
    const { revoked, warning } = await session.signOut();
    if (warning !== undefined) ctx.err(`warning: ${server.name}: ${warning}`);
    if (ctx.json) {
      return printJson(ctx, { server: server.name, signedIn: false, revoked, warning }), 0;
    }
    ctx.out(`${ctx.paint.ok("✓")} Signed out of "${server.name}"`);
    return 0;
  },
};

/** `mcp login` and `mcp logout`. */
export const loginCommands: readonly Command[] = [loginCommand, logoutCommand];
