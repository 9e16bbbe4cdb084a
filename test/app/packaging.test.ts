// The installers' configuration: electron-builder.yml is valid against the schema electron-builder
// ships, builds the targets the app promises, and packages what the shell's build produces.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { ICON_FILES } from '../../main/app/icons';

interface Target {
  target: string;
  arch: string[];
}

interface BuilderConfig {
  appId: string;
  productName: string;
  directories: { buildResources: string; output: string };
  files: string[];
  extraMetadata: { main: string };
  asarUnpack: string[];
  npmRebuild: boolean;
  publish: unknown;
  electronFuses: Record<string, boolean>;
  win: { icon: string; target: Target[]; signtoolOptions: Record<string, unknown> };
  nsis: Record<string, unknown>;
  mac: {
    icon: string;
    target: Target[];
    hardenedRuntime: boolean;
    entitlements: string;
    notarize: boolean;
  };
  linux: { target: string[] };
}

const config = load(readFileSync('electron-builder.yml', 'utf8')) as BuilderConfig;
const WINDOWS_SIGNING = ['WIN_CSC_LINK', 'WIN_CSC_KEY_PASSWORD', 'WIN_PUBLISHER_NAME'];
const MAC_SIGNING = [
  'MAC_CSC_LINK',
  'MAC_CSC_KEY_PASSWORD',
  'APPLE_API_KEY_BASE64',
  'APPLE_API_KEY_ID',
  'APPLE_API_ISSUER',
];

describe('electron-builder.yml', () => {
  it('is valid against app-builder-lib/scheme.json', () => {
    const schema = JSON.parse(
      readFileSync('node_modules/app-builder-lib/scheme.json', 'utf8'),
    ) as object;
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    const valid = validate(config);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    // The schema is strict: a misspelt key is caught.
    expect(validate({ ...config, nsiss: {} })).toBe(false);
  });

  it('names the app and packages the built shell, with better-sqlite3 outside the asar', () => {
    expect(config).toMatchObject({ appId: 'app.pressroom.desktop', productName: 'Pressroom' });
    expect(config.files).toContain('out/**');
    expect(config.files).toContain('!out/node/**');
    expect(config.extraMetadata.main).toBe('out/main/index.js');
    expect(config.asarUnpack).toEqual(['**/node_modules/better-sqlite3/**']);
    expect(config.npmRebuild).toBe(true);
    expect(config.electronFuses).toMatchObject({ runAsNode: false, onlyLoadAppFromAsar: true });
    // electron-updater has nothing to check until a publish target is named.
    expect(config.publish).toBeNull();
  });

  it('builds per-user NSIS installers for Windows on x64 and arm64', () => {
    expect(config.win.target).toEqual([{ target: 'nsis', arch: ['x64', 'arm64'] }]);
    expect(config.nsis).toMatchObject({
      oneClick: false,
      perMachine: false,
      allowElevation: false,
      createDesktopShortcut: true,
    });
  });

  it('builds hardened, notarisable DMGs for macOS on x64 and arm64, and an AppImage', () => {
    expect(config.mac.target).toEqual([{ target: 'dmg', arch: ['x64', 'arm64'] }]);
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(config.mac.notarize).toBe(true);
    const entitlements = readFileSync(config.mac.entitlements, 'utf8');
    expect(entitlements).toContain('com.apple.security.cs.allow-jit');
    // Library validation stays on: electron-builder signs better-sqlite3's .node with our team id.
    expect(entitlements).not.toContain('disable-library-validation');
    expect(config.linux.target).toEqual(['AppImage']);
  });

  it('takes its icons from build/, drawn by main/app/icons.ts', () => {
    expect(config.directories.buildResources).toBe('build');
    for (const icon of [config.win.icon, config.mac.icon]) expect(existsSync(icon)).toBe(true);
    for (const [name, draw] of Object.entries(ICON_FILES))
      expect(readFileSync(`build/${name}`).equals(draw()), name).toBe(true);
    const png = readFileSync('build/icon.png');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024]);
  });
});

describe('release workflow', () => {
  interface Workflow {
    on: { push: { tags: string[] } };
    jobs: {
      installers: {
        strategy: { matrix: { os: string[] } };
        env: Record<string, string>;
        steps: { name?: string; run?: string; uses?: string; with?: { path?: string } }[];
      };
      release: { needs: string; steps: { run?: string }[] };
    };
  }
  const workflow = load(readFileSync('.github/workflows/release.yml', 'utf8')) as Workflow;
  const scripts = (
    JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }
  ).scripts;

  it('builds on Windows and macOS runners with `npm run dist`, which packages with electron-builder', () => {
    expect(workflow.on.push.tags).toEqual(['v*']);
    expect(workflow.jobs.installers.strategy.matrix.os).toEqual(['windows-latest', 'macos-latest']);
    const runs = workflow.jobs.installers.steps.map((step) => step.run ?? step.uses);
    expect(runs).toContain('npm ci --no-audit --no-fund');
    expect(runs.some((run) => run?.includes('npm run dist -- "${signing[@]}"'))).toBe(true);
    expect(scripts.dist).toMatch(/main\/app\/build\.ts && electron-builder --publish never$/);
  });

  /** Runs the workflow's step `name` in bash as the runner would, with only `env` set. */
  function runStep(name: string, env: Record<string, string>) {
    const step = workflow.jobs.installers.steps.find((entry) => entry.name === name);
    const result = spawnSync('bash', ['-e', '-c', step?.run ?? 'exit 99'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      encoding: 'utf8',
    });
    return { code: result.status, out: result.stdout };
  }

  it('refuses to build an unsigned release, before anything else, naming what is missing', () => {
    const refusal = 'Refuse to build an unsigned release';
    expect(workflow.jobs.installers.steps[0]?.name).toBe(refusal);
    // Every secret and variable the check reads reaches it through the job's environment.
    expect(Object.keys(workflow.jobs.installers.env).sort()).toEqual(
      [...WINDOWS_SIGNING, ...MAC_SIGNING].sort(),
    );
    const windows = runStep(refusal, { RUNNER_OS: 'Windows', WIN_CSC_LINK: 'cert' });
    expect(windows.code).toBe(1);
    expect(windows.out).toContain(
      '::error::No unsigned release: set WIN_CSC_KEY_PASSWORD WIN_PUBLISHER_NAME',
    );
    const mac = runStep(refusal, { RUNNER_OS: 'macOS', MAC_CSC_LINK: 'cert' });
    expect(mac.code).toBe(1);
    expect(mac.out).toContain(
      'set MAC_CSC_KEY_PASSWORD APPLE_API_KEY_BASE64 APPLE_API_KEY_ID APPLE_API_ISSUER',
    );
    const all = (names: string[]) => Object.fromEntries(names.map((name) => [name, 'set']));
    expect(runStep(refusal, { RUNNER_OS: 'Windows', ...all(WINDOWS_SIGNING) }).code).toBe(0);
    expect(runStep(refusal, { RUNNER_OS: 'macOS', ...all(MAC_SIGNING) }).code).toBe(0);
  });

  it('makes electron-builder fail a build that was not signed, and names the Windows publisher', () => {
    const build = workflow.jobs.installers.steps.find(
      (step) => step.name === 'Build signed installers',
    );
    expect(build?.run).toContain('signing=(-c.forceCodeSigning=true)');
    expect(build?.run).toContain('-c.win.signtoolOptions.publisherName=$WIN_PUBLISHER_NAME');
    expect(config.win.signtoolOptions).toEqual({ signingHashAlgorithms: ['sha256'] });
    // The Apple key is written for every macOS build, never skipped when its secret is empty.
    const appleKey = workflow.jobs.installers.steps.find(
      (step) => step.name === 'Apple API key for notarisation',
    ) as { if?: string } | undefined;
    expect(appleKey?.if).toBe("runner.os == 'macOS'");
  });

  it('attaches the installers to the tag’s release', () => {
    const upload = workflow.jobs.installers.steps.find(
      (step) => step.uses === 'actions/upload-artifact@v4',
    );
    expect(upload?.with?.path).toMatch(/release\/\*\.exe[\s\S]*release\/\*\.dmg/);
    expect(workflow.jobs.release.needs).toBe('installers');
    expect(workflow.jobs.release.steps.at(-1)?.run).toMatch(
      /gh release (upload|create) "\$TAG" installers\/\*/,
    );
  });
});
