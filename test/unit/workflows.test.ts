// The GitHub workflows cannot run here, so they may only call what does: .ci/run, npm scripts and
// our scripts (each of which runs in .ci/run or a test), plus the few steps that need GitHub or a
// Mac (installing packages, the release itself). This holds every step to that, and every script a
// step names to existing: a renamed script must not first fail on a release day.

import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const WORKFLOWS = join(ROOT, ".github/workflows");
const SCRIPTS = Object.keys((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts);

type Step = { run?: string; uses?: string };
type Workflow = { on: unknown; jobs: Record<string, { steps: Step[]; "timeout-minutes"?: number }> };

/** Commands a step may run that are not ours, and why. */
const OUTSIDE: [RegExp, string][] = [
  [/^apt-get (update|install) /, "a fresh Debian container has no git"],
  // A value for later steps: a commit's time, a file a script of ours wrote, or a name from GitHub's own variables.
  [/^echo "[A-Z_]+=(\$\(git log -1 --format=%ct\)|\$\(cat dist\/[\w.-]+\)|[\w.\/:-]*\$\{GITHUB_[A-Z_]+(,,)?\})" >> "\$GITHUB_ENV"$/, "passing a value to later steps"],
  [/^gh release (create|edit) /, "the release itself exists only on GitHub"],
];

function problemsOf(command: string): string[] {
  const line = command.trim();
  if (line === ".ci/run") return [];
  if (/^npm ci( |$)/.test(line)) return [];
  const tests = /^node_modules\/\.bin\/bun test (.+)$/.exec(line);
  if (tests) return tests[1]!.split(" ").filter((file) => !existsSync(join(ROOT, file))).map((file) => `${file}: no such test file`);
  let m = /^npm run ([\w:-]+)/.exec(line);
  if (m) return SCRIPTS.includes(m[1]!) ? [] : [`npm run ${m[1]}: no such script in package.json`];
  m = /^(?:node_modules\/\.bin\/bun )?(scripts\/[\w./-]+)/.exec(line);
  if (m) {
    const file = join(ROOT, m[1]!);
    if (!existsSync(file)) return [`${m[1]}: no such file`];
    if (!line.startsWith("node_modules") && (statSync(file).mode & 0o111) === 0) return [`${m[1]}: not executable`];
    return [];
  }
  if (OUTSIDE.some(([pattern]) => pattern.test(line))) return [];
  return [`not a script of ours: ${line}`];
}

const files = existsSync(WORKFLOWS) ? readdirSync(WORKFLOWS).filter((f) => f.endsWith(".yml")) : [];

describe("GitHub workflows call only our scripts", () => {
  test("there is a CI workflow running .ci/run and a release workflow on version tags", () => {
    expect(files.sort()).toEqual(["ci.yml", "release.yml"]);
    const ci = Bun.YAML.parse(readFileSync(join(WORKFLOWS, "ci.yml"), "utf8")) as Workflow;
    expect(Object.values(ci.jobs).flatMap((j) => j.steps.map((s) => s.run))).toContain(".ci/run");
    const release = Bun.YAML.parse(readFileSync(join(WORKFLOWS, "release.yml"), "utf8")) as Workflow;
    expect(release.on).toEqual({ push: { tags: ["v*"] } });
  });

  for (const file of files) {
    test(`${file}: every step is a script of ours, an npm script, or one of the few GitHub-only steps; every action pinned to a major version; every job has a timeout`, () => {
      const workflow = Bun.YAML.parse(readFileSync(join(WORKFLOWS, file), "utf8")) as Workflow;
      const problems: string[] = [];
      for (const [name, job] of Object.entries(workflow.jobs)) {
        if (typeof job["timeout-minutes"] !== "number") problems.push(`${name}: no timeout-minutes`);
        for (const step of job.steps) {
          if (step.uses !== undefined && !/^[\w-]+\/[\w-]+@v\d+$/.test(step.uses)) problems.push(`${name}: ${step.uses} is not pinned to a major version`);
          if (step.run !== undefined) for (const line of step.run.split("\n").filter((l) => l.trim() !== "")) problems.push(...problemsOf(line).map((p) => `${name}: ${p}`));
        }
      }
      expect(problems).toEqual([]);
    });
  }

  test("the checker itself refuses what it should", () => {
    expect(problemsOf("curl -sSL https://example.com/install.sh | sh")).toHaveLength(1);
    expect(problemsOf("npm run no-such-script")).toEqual(["npm run no-such-script: no such script in package.json"]);
    expect(problemsOf("node_modules/.bin/bun scripts/no-such.ts")).toEqual(["scripts/no-such.ts: no such file"]);
    expect(problemsOf("npm run release")).toEqual([]);
    expect(problemsOf("node_modules/.bin/bun test test/release/no-such.test.ts")).toEqual(["test/release/no-such.test.ts: no such test file"]);
    expect(problemsOf('echo "X=$(curl -s https://example.com/x | sh)" >> "$GITHUB_ENV"')).toHaveLength(1);
  });
});
