// `skillmux mcp …` end to end against a real MCP server, in a temporary home.
import assert from "node:assert/strict";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { resolveSkill } from "../../lib/resolve/default_sources.ts";
import { builtinSkillNames } from "../../lib/resolve/builtin_source.ts";
import { type SdkServer, startSdkServer } from "../mcp/_servers.ts";
import { fixture } from "../mcp/_stdio_helpers.ts";
import { cli, DEAD, sub, tempHome } from "./_helpers.ts";

const SKILL = (name: string) =>
  `---\nname: ${name}\ndescription: ${name} over MCP. Use when testing.\n---\n`;

let home: Awaited<ReturnType<typeof tempHome>>;
let env: Record<string, string>;
let up: SdkServer;
let config: string;
const bytes = () => readFile(config).catch(() => undefined);

before(async () => {
  home = await tempHome();
  env = home.env;
  config = join(env.XDG_CONFIG_HOME, "skillmux", "config.toml");
  up = await startSdkServer({
    json: true,
    skills: { "variant-qc": SKILL("variant-qc"), bwa: SKILL("bwa") },
  });
});
after(async () => {
  await up.close();
  await home.close();
});

describe("mcp", () => {
  test("list with nothing registered hints at mcp add", async () => {
    const out = await cli(["mcp", "list"], env);
    assert.equal(out.code, 0);
    assert.match(out.stdout, /No MCP servers registered.*mcp add/);
    assert.deepEqual(JSON.parse((await cli(["mcp", "list", "--json"], env)).stdout), {
      servers: [],
    });
  });

  test("add connects, discovers and saves config.toml 0600 in a 0700 folder", async () => {
    const out = await cli([
      "mcp",
      "add",
      up.url,
      "--name",
      "team",
      "--api-key",
      "sk-secret-1",
      "--header",
      "X-Team: genomics",
    ], env);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /Added "team" .* 2 skills, \d+ tools/);
    assert.equal((await stat(config)).mode & 0o777, 0o600);
    assert.equal((await stat(join(env.XDG_CONFIG_HOME, "skillmux"))).mode & 0o777, 0o700);
    const status = await cli(["mcp", "list"], env);
    assert.match(status.stdout, /^team .* ok \(add \d{4}-\d\d-\d\d /m, 'not "never checked"');
    const text = await readFile(config, "utf8");
    assert.match(text, /\[\[mcp\.servers\]\]/);
    assert.match(text, /name = "team"/);
    const hit = await resolveSkill("variant-qc", { env });
    assert.equal(hit.source, "mcp:team");
    const listed = await cli(["skill", "list"], env);
    assert.match(listed.stdout, /variant-qc\s+mcp:team \(MCP\)/);
    // variant-qc is new; the server's samtools shadows the built-in one.
    const builtins = (await builtinSkillNames()).length;
    const summary = `${builtins + 1} skills available \\(2 from MCP servers, ${
      builtins - 1
    } builtin\\)`;
    assert.match(listed.stdout, new RegExp(summary));
  });

  test("bad input is refused with one line and config.toml is untouched", async () => {
    const before = await bytes();
    const cases: Array<[string[], RegExp]> = [
      [["mcp", "add", "ftp://example.org/mcp", "--name", "x"], /./],
      [["mcp", "add", "not a url", "--name", "x"], /./],
      [["mcp", "add", up.url, "--name", "x", "--header", "Cookie: a=b"], /Cookie/i],
      [["mcp", "add", up.url, "--name", "x", "--header", "nocolon"], /Invalid --header/],
      // No colon: the name is said, the value (a secret, often) is not.
      [["mcp", "add", up.url, "--name", "x", "--header", "X-Api-Key sk-secret"], /"X-Api-Key …"/],
      [["mcp", "add", up.url, "--name", "x", "--header", "sk-secret"], /one word, not shown/],
      [["mcp", "add", up.url, "--name", "x", "--header", ": sk-secret"], /no name before/],
      [["mcp", "update", "team", "--header", "X-Team sk-secret"], /"X-Team …"/],
      [["mcp", "add", DEAD, "--name", "dead"], /./],
      [["mcp", "add", up.url, "--name", "team"], /already registered/],
      [["mcp", "remove", "nobody"], /No server matches "nobody"/],
      [["mcp", "import", join(home.dir, "missing.json")], /Cannot read/],
      [["mcp", "ping", "nobody"], /No server named "nobody" is registered$/m],
      [["mcp", "ping", "tean"], /No server named "tean" is registered; did you mean "team"\?/],
      [["mcp", "remove", "teams"], /No server matches "teams" .*; did you mean "team"\?/],
      [["mcp", "update", "Tea", "--description", "x"], /did you mean "team"\?/],
      [["mcp", "logout", "taem"], /did you mean "team"\?/],
      [["mcp", "update", "nobody", "--description", "x"], /No server matches "nobody"/],
      [["mcp", "update", "team", "--header", "Cookie: a=b"], /Cookie/i],
      [["mcp", "update", "team", "--url", DEAD], /./],
    ];
    for (const [argv, message] of cases) {
      const out = await cli(argv, env);
      assert.equal(out.code, 1, argv.join(" "));
      assert.match(out.stderr, message);
      assert.equal(out.stderr.trim().split("\n").length, 1, out.stderr);
      assert.doesNotMatch(out.stderr, /sk-secret/);
    }
    assert.equal((await cli(["mcp", "add", "--name", "x"], env)).code, 2);
    const usage: Array<[string[], RegExp]> = [
      [["mcp", "add", "a", "b"], /give a name and a URL.*\(got no URL\)/],
      [["mcp", "add", up.url, up.url], /got two URLs/],
      [["mcp", "add", "x", up.url, "--name", "y"], /two names given \("x" and --name "y"\)/],
    ];
    for (const [argv, message] of usage) {
      const out = await cli(argv, env);
      assert.equal(out.code, 2, argv.join(" "));
      assert.match(out.stderr, message);
    }
    assert.deepEqual(await bytes(), before);
  });

  test("add takes the name before or after the URL, as other MCP CLIs do", async () => {
    const cases: Array<[string[], string]> = [[["docs", DEAD], "docs"], [[DEAD, "docs2"], "docs2"]];
    for (const [argv, name] of cases) {
      const out = await cli(["mcp", "add", ...argv, "--no-verify"], env);
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, new RegExp(`Added "${name}" ${DEAD}`));
      assert.equal((await cli(["mcp", "remove", name], env)).code, 0);
    }
  });

  test("add --no-verify saves a dead server; ping shows ✓ and ✗ and exits 1", async () => {
    assert.equal((await cli(["mcp", "add", DEAD, "--name", "dead", "--no-verify"], env)).code, 0);
    const out = await cli(["mcp", "ping"], env);
    assert.equal(out.code, 1);
    assert.match(out.stderr, /Pinging 2 servers/);
    assert.match(
      out.stdout,
      /✓\s+team\s+\S+ v\S+\s+\d{4}-\d\d-\d\d\s+\d+ ms\s+2 skills\s+\d+ tools/,
    );
    assert.match(out.stdout, /✗\s+dead\s+\S/);
    const json = JSON.parse((await cli(["mcp", "ping", "--json"], env)).stdout);
    assert.deepEqual(json.results.map((r: { name: string; ok: boolean }) => [r.name, r.ok]), [[
      "team",
      true,
    ], ["dead", false]]);
    const one = await cli(["mcp", "ping", "team"], env);
    assert.equal(one.code, 0);
  });

  test("refresh, list, remove by URL, import", async () => {
    const refreshed = await cli(["mcp", "refresh", "team"], env);
    assert.equal(refreshed.code, 0);
    assert.match(refreshed.stdout, /✓\s+team\s+2 skills/);
    assert.equal((await cli(["mcp", "refresh"], env)).code, 1);
    const listed = await cli(["mcp", "list"], env);
    assert.match(listed.stdout, /team\s+http:\/\/127\.0\.0\.1:\d+\/mcp\s+api key; headers: X-Team/);
    assert.match(listed.stdout, /2 servers registered/);
    assert.doesNotMatch(listed.stdout, /sk-secret|genomics/);
    assert.match(listed.stdout, /team .* ok \(refresh \d{4}-\d\d-\d\d /);
    assert.match(listed.stdout, /dead .* down: .*\(refresh /);
    const json = JSON.parse((await cli(["mcp", "list", "--json"], env)).stdout);
    const { status, ...team } = json.servers[0];
    assert.deepEqual([status.ok, status.via], [true, "refresh"]);
    assert.deepEqual(team, {
      id: "team",
      name: "team",
      url: up.url,
      transport: "auto",
      apiKey: true,
      headers: ["X-Team"],
      enabled: true,
    });
    assert.equal((await cli(["mcp", "remove", DEAD], env)).code, 0);
    const file = join(home.dir, "mcp.json");
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          fs: { command: "npx", args: ["-y", "server-fs"] },
          docs: { url: "https://docs.example.org/mcp" },
        },
      }),
    );
    // Without a terminal to ask on, nothing is saved unless --yes; what would run is shown.
    const unasked = await bytes();
    const refused = await cli(["mcp", "import", file], env);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /fs will run on this machine \(no shell\):\n\s+npx -y server-fs\n/,
    );
    assert.match(refused.stderr, /docs will connect to https:\/\/docs\.example\.org\/mcp/);
    assert.match(refused.stderr, /Not saved: these 2 servers .* give --yes/);
    assert.deepEqual(await bytes(), unasked);
    const imported = await cli(["mcp", "import", file, "--yes"], env);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /Imported 2 servers: fs, docs/);
    assert.match(imported.stderr, /npx -y server-fs/);
    const before = await bytes();
    await writeFile(file, "{ not json");
    assert.equal((await cli(["mcp", "import", file, "--yes"], env)).code, 1);
    assert.deepEqual(await bytes(), before);
    const names = JSON.parse((await cli(["mcp", "list", "--json"], env)).stdout).servers.map((
      s: { name: string },
    ) => s.name);
    assert.deepEqual(names, ["team", "fs", "docs"]);
  });

  test("as subprocesses: add a stdio command, list, remove, ping exit code", async () => {
    const added = await sub([
      "mcp",
      "add",
      "--command",
      "node 'my server.js' --flag",
      "--name",
      "local",
      "--no-verify",
    ], env);
    assert.equal(added.code, 0, added.stderr);
    const listed = JSON.parse((await sub(["mcp", "list", "--json"], env)).stdout);
    assert.deepEqual(listed.servers.at(-1), {
      id: "local",
      name: "local",
      command: "node",
      args: ["my server.js", "--flag"],
      transport: "stdio",
      apiKey: false,
      headers: [],
      enabled: true,
    });
    const renamed = await sub([
      "mcp",
      "update",
      "local",
      "--name",
      "local2",
      "--description",
      "A local stdio server",
      "--disable",
    ], env);
    assert.equal(renamed.code, 0, renamed.stderr);
    assert.match(renamed.stdout, /Updated "local2" \(local\)/);
    const text = await readFile(config, "utf8");
    assert.match(
      text,
      /name = "local2"\n(?:.*\n)*?description = "A local stdio server"\nid = "local"/,
    );
    const after = await sub(["mcp", "list"], env);
    assert.match(
      after.stdout,
      /local2\s+node my server\.js --flag\s+A local stdio server\s+disabled/,
    );
    assert.equal((await sub(["mcp", "update", "local2", "--enable"], env)).code, 0);
    assert.equal((await sub(["mcp", "update", "local2"], env)).code, 2);
    for (const name of ["local2", "fs", "docs"]) {
      assert.equal((await sub(["mcp", "remove", name], env)).code, 0);
    }
    const ping = await sub(["mcp", "ping"], env);
    assert.equal(ping.code, 0, ping.stderr);
    assert.match(ping.stdout, /✓\s+team/);
    assert.equal((await sub(["mcp", "add", DEAD, "--name", "dead"], env)).code, 1);
    assert.equal((await stat(config)).mode & 0o777, 0o600);
  });
});

describe("slow stdio servers", () => {
  let slow: Awaited<ReturnType<typeof tempHome>>;
  before(async () => (slow = await tempHome()));
  after(() => slow.close());
  const line = (...args: string[]) => {
    const { command, args: rest } = fixture("sdk_server.ts", ...args);
    return [command, ...rest].map((a) => JSON.stringify(a)).join(" ");
  };

  test("add waits for a slow start, shows the server's stderr meanwhile, prints the version once", async () => {
    const out = await cli([
      "mcp",
      "add",
      "fetching",
      "--command",
      line("--delay", "3000", "--version", "v0.4.0"),
    ], slow.env);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /Added "fetching" .* — sdk-fixture v0\.4\.0, 0 skills, 2 tools/);
    assert.doesNotMatch(out.stdout, /vv0/);
    assert.match(out.stderr, /Starting "fetching"…/);
    assert.match(out.stderr, /fetching │ fetching the server \(3000 ms\)…/);
    assert.match(out.stderr, /"fetching" started in [1-9]\.\d s/);
  });

  test("a server slower than its start-up allowance is slow, not down: add, ping, list, catalog --json", async () => {
    const command = line("--delay", "8000");
    // 6 s: enough for tsx to start the fixture and print its first line on a loaded machine.
    const refused = await cli(
      ["mcp", "add", "glacial", "--command", line("--delay", "20000"), "--startup-timeout", "6000"],
      slow.env,
    );
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /"glacial".*did not start.*6000 ms start-up allowance/);
    assert.match(refused.stderr, /fetching the server/, "the error quotes its stderr");
    const saved = await cli(
      ["mcp", "add", "glacial", "--command", command, "--startup-timeout", "2500", "--no-verify"],
      slow.env,
    );
    assert.equal(saved.code, 0, saved.stderr);
    const ping = await cli(["mcp", "ping", "glacial"], slow.env);
    assert.equal(ping.code, 1);
    assert.match(ping.stdout, /^…\s+glacial\s+slow: .*did not start/m);
    assert.doesNotMatch(ping.stdout, /✗|\bdown\b/);
    const list = await cli(["mcp", "list"], slow.env);
    assert.match(list.stdout, /glacial .*slow \(timed out\): /);
    const catalog = await cli(["catalog", "--json"], slow.env);
    assert.equal(catalog.code, 0, catalog.stderr);
    const problems = JSON.parse(catalog.stdout).diagnostics
      .filter((d: { source: string }) => d.source === "mcp:glacial")
      .map((d: { problem: string }) => d.problem);
    assert.deepEqual(problems, ["timeout"]);
  });
});
