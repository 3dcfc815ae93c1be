// Sources for resolver tests: real storage underneath, with call counting and fault injection;
// MCP sources disposed after a file, and a skills stub for the length of one test.
import { createMemoryStorage } from "../../lib/storage/memory.ts";
import { createStorageSource } from "../../lib/resolve/storage_source.ts";
import type { SkillSource, SourceCallOptions, SourceEntry } from "../../lib/resolve/types.ts";
import type { Storage } from "../../lib/storage/types.ts";
import {
  createMcpSkillSource,
  type McpSkillSource,
  type McpSkillSourceOptions,
} from "../../lib/resolve/mcp_source.ts";
import { type Answer, type SkillsStub, startSkillsStub } from "../mcp/_skills_stub.ts";

/** A valid skill document named `name`. */
export function skillDoc(
  name: string,
  description = `The ${name} skill. Use when testing ${name}.`,
): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n## Concepts\n\n- A concept.\n`;
}

/** A memory-backed source holding `docs` (name → document), counting calls. */
export interface CountingSource extends SkillSource {
  gets: string[];
  lists: number;
}

export function countingSource(label: string, docs: Record<string, string>): CountingSource {
  const storage = createMemoryStorage({
    initial: Object.fromEntries(Object.entries(docs).map(([name, text]) => [`${name}.md`, text])),
  });
  const inner = createStorageSource({ label, storage });
  const source: CountingSource = {
    label,
    gets: [],
    lists: 0,
    get(name: string, options: SourceCallOptions): Promise<SourceEntry | undefined> {
      source.gets.push(name);
      return inner.get(name, options);
    },
    list(options: SourceCallOptions): Promise<string[]> {
      source.lists++;
      return inner.list(options);
    },
  };
  return source;
}

/** A source that never answers and ignores its signal (a stuck remote). */
export function hangingSource(
  label: string,
  timeoutMs?: number,
): SkillSource & { aborted: number } {
  const source = {
    label,
    timeoutMs,
    aborted: 0,
    get(_name: string, { signal }: SourceCallOptions): Promise<SourceEntry | undefined> {
      signal.addEventListener("abort", () => source.aborted++, { once: true });
      return new Promise<SourceEntry | undefined>(() => {});
    },
    list({ signal }: SourceCallOptions): Promise<string[]> {
      signal.addEventListener("abort", () => source.aborted++, { once: true });
      return new Promise<string[]>(() => {});
    },
  };
  return source;
}

/** A source whose every call fails with `message`. */
export function failingSource(label: string, message: string): SkillSource {
  return {
    label,
    get: () => Promise.reject(new Error(message)),
    list: () => Promise.reject(new Error(message)),
  };
}

/** A source that answers `doc` for `name` after `delayMs`, recording when it was asked. */
export function delayedSource(
  label: string,
  name: string,
  doc: string | undefined,
  delayMs: number,
): SkillSource & { askedAt: number[]; aborted: number } {
  const source = {
    label,
    askedAt: [] as number[],
    aborted: 0,
    get(asked: string, { signal }: SourceCallOptions): Promise<SourceEntry | undefined> {
      source.askedAt.push(performance.now());
      signal.addEventListener("abort", () => source.aborted++, { once: true });
      return new Promise((resolve) =>
        setTimeout(() => resolve(asked === name && doc ? { text: doc } : undefined), delayMs)
      );
    },
    list: () => Promise.resolve(doc ? [name] : []),
  };
  return source;
}

/** `storage` with its `get` calls counted (the keys read, in order). */
export function counted(storage: Storage): { storage: Storage; gets: string[] } {
  const gets: string[] = [];
  const get = storage.get.bind(storage);
  storage.get = (key, options) => (gets.push(key), get(key, options));
  return { storage, gets };
}

/**
 * MCP skill sources of one test file, named s0, s1, …: `source(url, options)` makes one, `keep`
 * takes others made elsewhere; `disposeAll` (for `after`) closes every one.
 */
export function mcpSources() {
  const made: McpSkillSource[] = [];
  return {
    source(url: string, options: McpSkillSourceOptions = {}): McpSkillSource {
      const created = createMcpSkillSource({ name: `s${made.length}`, url }, options);
      made.push(created);
      return created;
    },
    keep: (...more: McpSkillSource[]) => void made.push(...more),
    disposeAll: () => Promise.all(made.map((s) => s.dispose())),
  };
}

/** Runs `fn` against a skills stub answering by `answers` (a resources server when `plain`). */
export async function withStub(
  answers: Record<string, Answer>,
  plain: boolean,
  fn: (stub: SkillsStub) => Promise<void>,
): Promise<void> {
  const stub = await startSkillsStub(answers, plain);
  try {
    await fn(stub);
  } finally {
    await stub.close();
  }
}
