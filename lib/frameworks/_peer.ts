// Private: load an optional peer dependency (the AI SDK, LangChain), and when it is not installed
// say which package is missing and how to install it, instead of a bare ERR_MODULE_NOT_FOUND.
// (lib/server/_peer.ts does the same for the MCP SDK; server/ sits above this layer.)

/** An optional peer dependency: its npm name, the range package.json declares, and who needs it. */
export interface Peer {
  /** npm name, e.g. `ai`. */
  name: string;
  /** The range of `peerDependencies`. */
  range: string;
  /** The entry point that needs it, e.g. `@skillmux/core/ai-sdk`. */
  entry: string;
}

/** Whether `error` says `peer` could not be found. */
function isMissing(error: unknown, peer: Peer): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  const notFound = code === "ERR_MODULE_NOT_FOUND" ||
    /cannot find (package|module)|could not find|not found/i.test(error.message);
  return notFound && error.message.includes(peer.name);
}

/** `load()`, with a clear error naming the package and the install command when it is missing. */
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
