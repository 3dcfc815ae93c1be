// Private: load a module that needs an optional peer dependency (the MCP SDK for ./server, the AI
// SDK and LangChain for ./ai-sdk and ./langchain), and when that dependency is not installed say
// which package is missing and how to install it (instead of Node's bare ERR_MODULE_NOT_FOUND
// pointing into dist/).

/** An optional peer dependency: its npm name, the range package.json declares, and who needs it. */
export interface Peer {
  /** npm name, e.g. `@modelcontextprotocol/sdk`. */
  name: string;
  /** The range of `peerDependencies`, e.g. `^1.32.2`. */
  range: string;
  /** The entry point that needs it, e.g. `@skillmux/core/server`. */
  entry: string;
}

/** Whether `error` says `peer` (or one of its own dependencies) could not be found. */
export function isMissing(error: unknown, peer: Peer): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  const notFound = code === "ERR_MODULE_NOT_FOUND" ||
    /cannot find (package|module)|could not find|not found/i.test(error.message);
  return notFound && error.message.includes(peer.name);
}

/** `load()`, with a clear error naming the package and the install command when `peer` is missing. */
export async function importPeer<T>(load: () => Promise<T>, peer: Peer): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isMissing(error, peer)) throw error;
    throw new Error(
      `${peer.entry} needs the package ${peer.name}, an optional peer dependency that is not ` +
        `installed: run \`npm install ${peer.name}@${peer.range}\``,
      { cause: error },
    );
  }
}
