// The API reference as HTML: `deno doc --html` over every entry of deno.json "exports", written to
// docs/api/ (ignored by git). `npm run docs:api`, then open docs/api/index.html.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync("deno.json", "utf8")) as {
  name: string;
  version: string;
  exports: Record<string, string>;
};
execFileSync("node_modules/.bin/deno", [
  "doc",
  "--html",
  `--name=${manifest.name}`,
  "--output=docs/api",
  ...Object.values(manifest.exports),
], { stdio: "inherit" });
console.log("wrote docs/api/index.html");
