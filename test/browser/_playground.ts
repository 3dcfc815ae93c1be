/**
 * Helpers for the playground's browser tests: start it the way `npm start` does
 * (`scripts/start.ts` builds it and serves it with a skills server), and scan a view with axe.
 *
 * @module
 */

import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import process from "node:process";
import { expect, type Page } from "@playwright/test";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** A running playground. */
export interface RunningPlayground {
  /** The page URL `npm start` printed. */
  url: string;
  /** Stop it (SIGTERM to the process this started). */
  stop(): void;
}

/** Run `scripts/start.ts` on free ports (`extraEnv` added); resolves once it prints the playground's URL. */
export async function startPlayground(
  extraEnv: Record<string, string> = {},
): Promise<RunningPlayground> {
  const start: ChildProcess = spawn("node", ["--import", "tsx", "scripts/start.ts"], {
    // Every built-in over MCP (not npm start's example team folder): the views' tests name them.
    env: { ...process.env, PORT: "0", SKILLS_PORT: "0", SKILLS_FOLDER: "skills", ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      start.kill("SIGTERM");
      reject(new Error(`npm start printed no URL:\n${output}`));
    }, 90_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const found = /skillmux playground: (http:\/\/\S+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    start.stdout!.on("data", read);
    start.stderr!.on("data", read);
    start.once("exit", (code) => reject(new Error(`start exited ${code}:\n${output}`)));
  });
  return { url, stop: () => start.kill("SIGTERM") };
}

/** Scan `page` with axe: no serious or critical violation. */
export async function axe(page: Page, view: string): Promise<void> {
  await page.addScriptTag({ content: AXE });
  const found = await page.evaluate(async () => {
    const result = await (globalThis as unknown as {
      axe: {
        run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }>;
      };
    }).axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  const bad = found.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad, `axe on ${view}`).toEqual([]);
}
