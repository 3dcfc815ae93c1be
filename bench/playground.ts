// The playground's production build and its first paint of skills, in one run:
//  - bundle size, minified + gzip -9: the first load (index.html's script, its static imports and
//    CSS) and everything the build holds (lazy chunks too), with and without the data chunks
//    (built-in skill texts, tokenizer tables);
//  - time from navigation to the first listed skill in Chromium, against `npm start`'s skills
//    server, side by side with the time to DOMContentLoaded of the same page (the ratio says how
//    much of the wait is the library's own work: discovery, listing, parsing).
// Run: node --import tsx bench/playground.ts [runs=5]

import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import * as path from "node:path";
import process from "node:process";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";

const dist = path.resolve("playground/dist");
const runs = Number(process.argv[2] ?? 5);
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

const { build } = await import("vite");
await build({ configFile: path.resolve("playground/vite.config.ts") });

const gz = new Map<string, number>();
for (const name of await readdir(path.join(dist, "assets"))) {
  gz.set(name, gzipSync(await readFile(path.join(dist, "assets", name)), { level: 9 }).length);
}
// First load: what index.html references, plus the static imports of those chunks.
const html = await readFile(path.join(dist, "index.html"), "utf8");
const first = new Set([...html.matchAll(/assets\/([\w.-]+\.(?:js|css))/g)].map((m) => m[1]));
for (const name of first) { // a Set iterates what is added while iterating
  if (!name.endsWith(".js")) continue;
  const text = await readFile(path.join(dist, "assets", name), "utf8");
  for (const m of text.matchAll(/(?:from|import)\s*["']\.\/([\w.-]+\.js)["']/g)) first.add(m[1]);
}
const sum = (names: Iterable<string>) => [...names].reduce((n, f) => n + (gz.get(f) ?? 0), 0);
const data = [...gz.keys()].filter((f) => /_builtin_skills|o200k/.test(f));
console.log(`playground bundle (min+gzip): first load ${kib(sum(first))} (${first.size} files)`);
console.log(
  `  total ${kib(sum(gz.keys()))} (${gz.size} files), ` +
    `without data chunks ${kib(sum([...gz.keys()].filter((f) => !data.includes(f))))}`,
);

const start = spawn("node", ["--import", "tsx", "scripts/start.ts"], {
  env: { ...process.env, PORT: "0", SKILLS_PORT: "0", SKIP_BUILD: "1" },
  stdio: ["ignore", "pipe", "inherit"],
});
try {
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(
      () => reject(new Error(`no URL from scripts/start.ts: ${out}`)),
      30_000,
    );
    start.stdout!.on("data", (chunk) => {
      out += chunk;
      const m = /skillmux playground: (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const skill: number[] = [];
  const dcl: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const context = await browser.newContext(); // fresh IndexedDB: a first visit every time
    const page = await context.newPage();
    const t0 = Date.now();
    await page.goto(url, { waitUntil: "domcontentloaded" });
    const t1 = Date.now();
    await page.locator('[data-testid="skill-list"] li').first().waitFor({ timeout: 30_000 });
    const t2 = Date.now();
    if (i > 0) { // the first run warms the server and the OS caches
      dcl.push(t1 - t0);
      skill.push(t2 - t0);
    }
    await context.close();
  }
  await browser.close();
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const [s, d] = [median(skill), median(dcl)];
  console.log(
    `navigation → first listed skill: median ${s} ms over ${runs} fresh visits ` +
      `(DOMContentLoaded ${d} ms; ratio ${(s / Math.max(d, 1)).toFixed(1)}x)`,
  );
} finally {
  start.kill("SIGTERM");
}
