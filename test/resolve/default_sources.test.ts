// The zero-config resolver on Deno/Node: real folders, real built-ins.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  createDefaultSources,
  defaultSkillFolders,
  listSkills,
  resolveSkill,
} from "../../lib/resolve/default_sources.ts";
import { skillDoc } from "./_helpers.ts";
import { startSdkServer } from "../mcp/_servers.ts";

let home: string;
let userDir: string;
let communityDir: string;

before(async () => {
  home = await mkdtemp(join(tmpdir(), "skillmux-default-"));
  userDir = join(home, "user");
  communityDir = join(home, "community");
  await mkdir(join(userDir, "fastp"), { recursive: true });
  await mkdir(communityDir, { recursive: true });
  await writeFile(
    join(userDir, "samtools.md"),
    skillDoc("samtools", "User samtools. Use when sorting."),
  );
  await writeFile(
    join(userDir, "fastp", "SKILL.md"),
    skillDoc("fastp", "User fastp. Use when trimming."),
  );
  await writeFile(join(communityDir, "samtools.md"), skillDoc("samtools"));
  await writeFile(
    join(communityDir, "bcftools.md"),
    skillDoc("bcftools", "Community bcftools. Use when calling."),
  );
  await writeFile(
    join(communityDir, "legacy.toml"),
    '[meta]\nname = "legacy"\ndescription = "A TOML skill. Use when testing legacy."\n',
  );
});
after(() => rm(home, { recursive: true, force: true }));

describe("defaultSkillFolders()", () => {
  test("XDG defaults under HOME", async () => {
    assert.deepEqual(await defaultSkillFolders({ env: { HOME: "/home/ada" } }), {
      user: "/home/ada/.config/skillmux/skills",
      community: "/home/ada/.local/share/skillmux/skills",
      config: "/home/ada/.config/skillmux",
    });
  });
  test("XDG_CONFIG_HOME and XDG_DATA_HOME move them", async () => {
    const env = { HOME: "/h", XDG_CONFIG_HOME: "/cfg", XDG_DATA_HOME: "/data" };
    assert.deepEqual(await defaultSkillFolders({ env }), {
      user: "/cfg/skillmux/skills",
      community: "/data/skillmux/skills",
      config: "/cfg/skillmux",
    });
  });
  test("SKILLMUX_HOME, then the per-folder variables, then options win", async () => {
    assert.deepEqual(await defaultSkillFolders({ env: { SKILLMUX_HOME: "/sm" } }), {
      user: "/sm/skills",
      community: "/sm/community",
      config: "/sm",
    });
    const env = {
      SKILLMUX_HOME: "/sm",
      SKILLMUX_USER_SKILLS: "/u",
      SKILLMUX_COMMUNITY_SKILLS: "/c",
    };
    assert.deepEqual(await defaultSkillFolders({ env }), {
      user: "/u",
      community: "/c",
      config: "/sm",
    });
    assert.deepEqual(await defaultSkillFolders({ env, userDir: "/x", configDir: "/k" }), {
      user: "/x",
      community: "/c",
      config: "/k",
    });
    assert.equal(
      (await defaultSkillFolders({ env: { SKILLMUX_HOME: "/sm", SKILLMUX_CONFIG_DIR: "/cd" } }))
        ?.config,
      "/cd",
    );
  });
  test("without HOME, the account's home directory", async () => {
    assert.deepEqual(await defaultSkillFolders({ env: {} }), {
      user: join(homedir(), ".config", "skillmux", "skills"),
      community: join(homedir(), ".local", "share", "skillmux", "skills"),
      config: join(homedir(), ".config", "skillmux"),
    });
  });
});

describe("resolveSkill() with zero configuration", () => {
  test("the sources are user, community, builtin on this runtime", async () => {
    const sources = await createDefaultSources({ userDir, communityDir, configDir: home });
    assert.deepEqual(
      sources.map((s) => Array.isArray(s) ? "group" : (s as { label: string }).label),
      [
        "user",
        "community",
        "builtin",
      ],
    );
  });

  test("user beats community beats builtin, each answer says where it came from", async () => {
    const options = { userDir, communityDir, configDir: home };
    const samtools = await resolveSkill("samtools", options);
    assert.equal(samtools.source, "user");
    assert.equal(samtools.skill.description, "User samtools. Use when sorting.");
    const fastp = await resolveSkill("fastp", options);
    assert.deepEqual([fastp.source, fastp.location], ["user", "fastp/SKILL.md"]);
    const bcftools = await resolveSkill("bcftools", options);
    assert.equal(bcftools.source, "community");
    const legacy = await resolveSkill("legacy", options);
    assert.deepEqual([legacy.source, legacy.skill.format], ["community", "toml"]);
    const bwa = await resolveSkill("bwa", options);
    assert.equal(bwa.source, "builtin");
    assert.ok(bwa.skill.examples.length >= 5);
  });

  test("environment variables choose the folders", async () => {
    const env = {
      SKILLMUX_USER_SKILLS: userDir,
      SKILLMUX_COMMUNITY_SKILLS: communityDir,
      SKILLMUX_CONFIG_DIR: home,
    };
    assert.equal((await resolveSkill("bcftools", { env })).source, "community");
  });

  test("folders that do not exist are not created and fall through to the built-ins", async () => {
    const missing = join(home, "nowhere");
    const hit = await resolveSkill("samtools", {
      userDir: join(missing, "u"),
      communityDir: join(missing, "c"),
      configDir: join(missing, "k"),
    });
    assert.equal(hit.source, "builtin");
    assert.deepEqual((await readdir(home)).sort(), ["community", "user"]);
  });

  test("listSkills() shows each skill once with what it shadows", async () => {
    const { skills } = await listSkills({ userDir, communityDir, configDir: home });
    const row = (name: string) => skills.find((s) => s.name === name);
    assert.deepEqual(row("samtools")?.shadows, ["community", "builtin"]);
    assert.equal(row("legacy")?.source, "community");
    assert.equal(row("star")?.source, "builtin");
    assert.equal(new Set(skills.map((s) => s.name)).size, skills.length);
  });
});

describe("the built-ins can be turned off", () => {
  const labels = (sources: unknown[]) =>
    sources.map((s) => Array.isArray(s) ? "group" : (s as { label: string }).label);

  test("builtin: false, SKILLMUX_NO_BUILTIN or [skills] builtin = false leave them out", async () => {
    const base = { userDir, communityDir, configDir: home, env: {} };
    assert.deepEqual(labels(await createDefaultSources(base)), ["user", "community", "builtin"]);
    assert.deepEqual(labels(await createDefaultSources({ ...base, builtin: false })), [
      "user",
      "community",
    ]);
    for (const value of ["1", "true", "YES"]) {
      const env = { SKILLMUX_NO_BUILTIN: value };
      assert.deepEqual(labels(await createDefaultSources({ ...base, env })), ["user", "community"]);
    }
    const on = { SKILLMUX_NO_BUILTIN: "0" };
    assert.ok(labels(await createDefaultSources({ ...base, env: on })).includes("builtin"));
    const config = await mkdtemp(join(tmpdir(), "skillmux-nobuiltin-"));
    await writeFile(join(config, "config.toml"), "[skills]\nbuiltin = false\n");
    const fromConfig = { ...base, configDir: config };
    assert.deepEqual(labels(await createDefaultSources(fromConfig)), ["user", "community"]);
    // The option wins over the config file and the variable.
    assert.ok(
      labels(await createDefaultSources({ ...fromConfig, builtin: true })).includes("builtin"),
    );
    const off = await resolveSkill("bwa", { ...fromConfig }).catch((e: Error) => e);
    assert.match(String(off), /Cannot find skill "bwa": asked user, community/);
  });
});

/** An environment as Deno shows it with `--allow-env=HOME` only: any other variable is denied. */
function onlyHome(homeDir: string): Record<string, string | undefined> {
  return new Proxy({}, {
    get(target, name, receiver) {
      if (name === "HOME") return homeDir;
      if (typeof name !== "string" || !/^[A-Z_]+$/.test(name)) {
        return Reflect.get(target, name, receiver);
      }
      const error = new Error(
        `Requires env access to "${name}", run again with the --allow-env flag`,
      );
      error.name = "NotCapable";
      throw error;
    },
    ownKeys: () => [],
  });
}

describe("zero configuration without permission to read the environment", () => {
  test("the sources it cannot locate are skipped with a diagnostic; the built-ins answer", async () => {
    const hit = await resolveSkill("samtools", { env: onlyHome(home) });
    assert.equal(hit.source, "builtin");
    assert.deepEqual(hit.diagnostics.map((d) => [d.source, d.problem]), [
      ["user", "error"],
      ["community", "error"],
      ["mcp", "error"],
    ]);
    assert.deepEqual(hit.diagnostics.map((d) => d.message), [
      "Cannot locate the user skills folder: reading the environment variable SKILLMUX_USER_SKILLS was denied; run Deno with --allow-env (or pass the userDir option)",
      "Cannot locate the community skills folder: reading the environment variable SKILLMUX_COMMUNITY_SKILLS was denied; run Deno with --allow-env (or pass the communityDir option)",
      "Cannot locate the MCP server registry (config.toml): reading the environment variable SKILLMUX_CONFIG_DIR was denied; run Deno with --allow-env (or pass the configDir option)",
    ]);
    const { skills, diagnostics } = await listSkills({ env: onlyHome(home) });
    assert.ok(skills.some((s) => s.name === "samtools" && s.source === "builtin"));
    assert.deepEqual(diagnostics.map((d) => d.source), ["user", "community", "mcp"]);
  });

  test("a folder given as an option is still read; only the others are skipped", async () => {
    const hit = await resolveSkill("samtools", { env: onlyHome(home), userDir });
    assert.equal(hit.source, "user");
    const bcftools = await resolveSkill("bcftools", { env: onlyHome(home), userDir });
    assert.equal(bcftools.source, "builtin");
    assert.deepEqual(bcftools.diagnostics.map((d) => d.source), ["community", "mcp"]);
  });

  test("defaultSkillFolders() says which variable it could not read, the refusal as its cause", async () => {
    await assert.rejects(defaultSkillFolders({ env: onlyHome(home) }), (e: Error) => {
      assert.equal(e.name, "EnvDeniedError");
      assert.match(e.message, /SKILLMUX_USER_SKILLS was denied/);
      assert.equal((e.cause as Error).name, "NotCapable");
      return true;
    });
    await assert.rejects(
      defaultSkillFolders({ env: onlyHome(home), userDir: "/u", communityDir: "/c" }),
      /^EnvDeniedError: Cannot locate the MCP server registry \(config\.toml\): .*SKILLMUX_CONFIG_DIR/,
    );
  });

  test("an environment that fails for another reason is an error, not a skipped source", async () => {
    const broken = new Proxy({}, {
      get() {
        throw new TypeError("the environment object is broken");
      },
    });
    await assert.rejects(defaultSkillFolders({ env: broken }), /^TypeError: the environment/);
    await assert.rejects(resolveSkill("samtools", { env: broken }), /the environment object/);
  });
});

describe("zero configuration with registered MCP servers", () => {
  test("servers in config.toml sit between community and the built-ins", async () => {
    const server = await startSdkServer({
      json: true,
      skills: {
        bwa: skillDoc("bwa", "BWA from the team server. Use when aligning."),
        samtools: skillDoc("samtools"),
      },
    });
    const configDir = join(home, "config");
    try {
      await mkdir(configDir, { recursive: true });
      await writeFile(
        join(configDir, "config.toml"),
        `[[mcp.servers]]\nname = "team"\nurl = "${server.url}"\n`,
      );
      const options = { userDir, communityDir, configDir };
      const sources = await createDefaultSources(options);
      assert.deepEqual(sources.flat().map((s) => s.label), [
        "user",
        "community",
        "mcp:team",
        "builtin",
      ]);
      assert.equal((await resolveSkill("bwa", options)).source, "mcp:team");
      assert.equal((await resolveSkill("samtools", options)).source, "user");
      const { skills } = await listSkills(options);
      assert.deepEqual(skills.find((s) => s.name === "samtools")?.shadows, [
        "community",
        "mcp:team",
        "builtin",
      ]);
      for (const tier of sources.flat()) {
        await (tier as { dispose?: () => Promise<void> }).dispose?.();
      }
    } finally {
      await server.close();
      await rm(configDir, { recursive: true, force: true });
    }
  });
});

describe("zero configuration with a malformed MCP server registry", () => {
  /** A fresh HOME whose `~/.config/skillmux/config.toml` holds `text`; returns HOME. */
  async function homeWithConfig(text: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), "skillmux-bad-config-"));
    await mkdir(join(dir, ".config", "skillmux"), { recursive: true });
    await writeFile(join(dir, ".config", "skillmux", "config.toml"), text);
    return dir;
  }

  test("TOML that does not parse: the MCP servers are skipped with the file and line; the built-ins answer", async () => {
    const dir = await homeWithConfig(
      '[[mcp.servers]]\nname = "team"\napi_key = "sk-do-not-show"\nurl = \n',
    );
    try {
      const file = join(dir, ".config", "skillmux", "config.toml");
      const hit = await resolveSkill("samtools", { env: { HOME: dir } });
      assert.equal(hit.source, "builtin");
      assert.deepEqual(hit.diagnostics.map((d) => [d.source, d.problem, d.message]), [[
        "mcp",
        "error",
        `Skipped the MCP server registry ${file}: config TOML is not valid at line 4, column 7: invalid value`,
      ]]);
      const { skills, diagnostics } = await listSkills({ env: { HOME: dir } });
      assert.ok(skills.some((s) => s.name === "samtools" && s.source === "builtin"));
      assert.deepEqual(diagnostics.map((d) => d.source), ["mcp"]);
      assert.ok(!diagnostics[0].message.includes("sk-do-not-show"));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("a field of the wrong type: the diagnostic names the file, the field and what it must be", async () => {
    const dir = await homeWithConfig('[[mcp.servers]]\nname = "team"\nurl = 5\n');
    try {
      const hit = await resolveSkill("bwa", { env: { HOME: dir } });
      assert.equal(hit.source, "builtin");
      assert.deepEqual(hit.diagnostics.map((d) => d.message), [
        `Skipped the MCP server registry ${
          join(dir, ".config", "skillmux", "config.toml")
        }: mcp.servers[0].url must be a string`,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
