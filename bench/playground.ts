// The playground's production build and its first paint of skills, in one run:
//  - bundle size, minified + gzip -9: the first load (index.html's script, its static imports and
//    CSS) and everything the build holds (lazy chunks too), with and without the data chunks
//    (built-in skill texts, tokenizer tables);
//  - time from navigation to the first listed skill in Chromium, against `npm start`'s skills
//    server, side by side with the time to DOMContentLoaded of the same page (the ratio says how
//    much of the wait is the library's own work: discovery, listing, parsing), median of `runs`
//    fresh browser profiles, with the requests and the waves of chunks of one visit;
//  - requests in IDLE_SECONDS (default 30) idle seconds on each view, with server-everything
//    added (target 0), and which views loaded the tokenizer tables (o200k chunk).
// Timings are printed, never asserted. Run: node --import tsx bench/playground.ts [runs=10]

import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import * as path from "node:path";
import process from "node:process";
import { gzipSync } from "node:zlib";
import { chromium, type Page } from "@playwright/test";
import { startEverything } from "../test/mcp/_servers.ts";

const dist = path.resolve("playground/dist");
const runs = Number(process.argv[2] ?? 10);
const idleMs = Number(process.env.IDLE_SECONDS ?? 30) * 1_000;
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
const data = [...gz.keys()].filter((f) => /_builtin_(skills|summaries)|o200k/.test(f));
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
  /** One visit's requests: [ms since navigation, url], to see chunk waves. */
  let visit: Array<[number, string]> = [];
  for (let i = 0; i <= runs; i++) {
    const context = await browser.newContext(); // fresh IndexedDB: a first visit every time
    const page = await context.newPage();
    const t0 = Date.now();
    const seen: Array<[number, string]> = [];
    page.on("request", (r) => void seen.push([Date.now() - t0, r.url()]));
    await page.goto(url, { waitUntil: "domcontentloaded" });
    const t1 = Date.now();
    await page.locator('[data-testid="skill-list"] li').first().waitFor({ timeout: 30_000 });
    const t2 = Date.now();
    if (i > 0) { // the first run warms the server and the OS caches
      dcl.push(t1 - t0);
      skill.push(t2 - t0);
      if (i === 1) visit = seen.filter(([ms]) => ms <= t2 - t0);
    }
    await context.close();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const [s, d] = [median(skill), median(dcl)];
  console.log(
    `navigation → first listed skill: median ${s} ms over ${runs} fresh visits ` +
      `(min ${Math.min(...skill)}, max ${Math.max(...skill)}; DOMContentLoaded ${d} ms; ` +
      `ratio ${(s / Math.max(d, 1)).toFixed(1)}x)`,
  );
  // What one fresh visit fetched of the site (index.html and assets) until the first skill showed:
  // the figure the first-load target (150 KiB gzip) is about.
  const fetched = [
    ...new Set(visit.map(([, u]) => /\/assets\/([\w.-]+)$/.exec(new URL(u).pathname)?.[1])),
  ]
    .filter((f): f is string => f !== undefined);
  const htmlGz = gzipSync(html, { level: 9 }).length;
  console.log(
    `first load to the first listed skill: ${kib(htmlGz + sum(fetched))} gzip ` +
      `(index.html + ${fetched.length} assets; largest ${
        fetched.sort((a, b) => gz.get(b)! - gz.get(a)!).slice(0, 3).map((f) =>
          `${f} ${kib(gz.get(f)!)}`
        )
          .join(", ")
      })`,
  );
  const chunks = visit.filter(([, u]) => /\/assets\//.test(u));
  const waves = new Set(chunks.map(([ms]) => Math.round(ms / 50))).size;
  console.log(
    `  one visit: ${visit.length} requests until the first skill, ${chunks.length} of them ` +
      `chunks in ${waves} waves (50 ms apart), the last requested at ${
        chunks.at(-1)?.[0] ?? 0
      } ms; ` +
      `tokenizer tables ` +
      `${visit.some(([, u]) => /o200k/.test(u)) ? "LOADED" : "not loaded"}`,
  );
  if (idleMs > 0) await idle(browser, url); // IDLE_SECONDS=0: the first load only
  await browser.close();
} finally {
  start.kill("SIGTERM");
}

/** Requests in `idleMs` on each view once it settled, with server-everything added. */
async function idle(browser: import("@playwright/test").Browser, url: string): Promise<void> {
  const everything = await startEverything("streamableHttp");
  const context = await browser.newContext();
  const page = await context.newPage();
  const sent: string[] = [];
  let view = "first load";
  const tokenizerIn = new Set<string>();
  page.on("request", (r) => {
    sent.push(`${r.method()} ${r.url()}`);
    if (/o200k/.test(r.url())) tokenizerIn.add(view);
  });
  try {
    await page.goto(url);
    await page.getByTestId("tab-servers").click();
    await page.getByLabel("Name", { exact: true }).fill("everything");
    await page.getByLabel("URL", { exact: true }).fill(everything.url);
    await page.getByTestId("server-add").click();
    await page.getByTestId("server-everything").waitFor();
    const views = [
      "servers",
      "skills",
      "tools",
      "resources",
      "prompts",
      "prompt",
      "approvals",
      "activity",
      "settings",
    ];
    const rows: string[] = [];
    for (view of views) {
      await page.getByTestId(`tab-${view}`).click();
      await settle(page, sent);
      const before = sent.length;
      await page.waitForTimeout(idleMs);
      const during = sent.slice(before);
      rows.push(
        `${view} ${during.length}${during.length ? ` (${during.slice(0, 3).join(", ")})` : ""}`,
      );
    }
    console.log(`requests in ${idleMs / 1000} idle s per view (target 0): ${rows.join(" · ")}`);
    console.log(
      `  tokenizer tables loaded on: ${[...tokenizerIn].join(", ") || "no view"}`,
    );
  } finally {
    await context.close();
    await everything.close();
  }
}

/** Wait until no request started for 2 s (the view finished loading), at most 30 s. */
async function settle(page: Page, sent: string[]): Promise<void> {
  const until = Date.now() + 30_000;
  let seen = -1;
  while (sent.length !== seen && Date.now() < until) {
    seen = sent.length;
    await page.waitForTimeout(2_000);
  }
}
