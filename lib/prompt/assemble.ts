/**
 * `assemblePrompt`: the system prompt and the tool definitions for a selection,
 * loading only the selected skills and connecting only the selected tools' servers.
 *
 * @module
 */

import type { AssembledPrompt, AssemblePromptOptions } from "./types.ts";

/**
 * Assemble the prompt for `selection`: the system prompt with the selected
 * skills' bodies (or an `activate_skill` tool), and the selected tools'
 * definitions in the OpenAI and Anthropic formats. Only the selected skills
 * are loaded and only the selected tools' servers connected. Content from a
 * remote source (an `mcp:*` skill, a server's tool description) is fenced as
 * untrusted data with its provenance and cut to a size budget; a remote
 * skill's `allowed-tools` is shown as requested and unapproved, never
 * granted; text that tries to address the model is flagged in `diagnostics`.
 *
 * @example
 * ```ts
 * import { assemblePrompt, createBuiltinSource, createCatalog, createResolver, selectForRequest } from "@skillmux/core";
 * const catalog = await createCatalog({ resolver: createResolver({ sources: [createBuiltinSource()] }) });
 * const request = "sort and index my BAM file";
 * const selection = await selectForRequest(catalog, request);
 * const prompt = await assemblePrompt({ request, selection, catalog });
 * console.log(prompt.loaded.skills, prompt.tokens);
 * await prompt.session.close();
 * ```
 */
export async function assemblePrompt(options: AssemblePromptOptions): Promise<AssembledPrompt> {
  const [{ assemble }, { displayablePrompt }] = await Promise.all([
    import("./_assemble.ts"),
    import("./_display.ts"),
  ]);
  return displayablePrompt(await assemble(options));
}
