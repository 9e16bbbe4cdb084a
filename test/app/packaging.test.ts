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
  interface Step {
    name?: string;
    run?: string;
    uses?: string;
    if?: string;
    env?: Record<string, string>;
    with?: { path?: string };
  }
  interface Job {
    uses?: string;
    needs?: string;
    strategy?: { matrix: { os: string[] } };
    env?: Record<string, string>;
    steps: Step[];
  }
  interface Workflow {
    on: Record<string, unknown> & { push: { tags?: string[] } };
    jobs: Record<string, Job>;
  }
  const RELEASE = '.github/workflows/release.yml';
  const TESTS = '.github/workflows/test.yml';
  const read = (file: string) => load(readFileSync(file, 'utf8')) as Workflow;
  const workflow = read(RELEASE);
  const installers = workflow.jobs.installers!;
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
    scripts: Record<string, string>;
    devDependencies: Record<string, string>;
    allowScripts: Record<string, boolean>;
    testOnly: string[];
  };
  const step = (name: string) => installers.steps.find((entry) => entry.name === name);
  const SIGNING = 'Sign the installers';
  const INSTALL = "Install what the build needs, running no dependency's install script";

  it('runs `npm test` on Windows and macOS, and builds installers only once it passed', () => {
    expect(workflow.jobs.test?.uses).toBe(`./${TESTS}`);
    expect(installers.needs).toBe('test');
    const tests = read(TESTS);
    expect(tests.on).toHaveProperty('workflow_call');
    const job = tests.jobs.test!;
    expect(job.strategy?.matrix.os).toEqual(['windows-latest', 'macos-latest']);
    expect(job.steps.at(-1)?.run).toBe('npm test');
  });

  it('builds on Windows and macOS runners and packages with electron-builder, as `npm run dist` does', () => {
    expect(workflow.on.push.tags).toEqual(['v*']);
    expect(installers.strategy?.matrix.os).toEqual(['windows-latest', 'macos-latest']);
    expect(step('Build the app')?.run).toBe('npm run -s build && npx tsx main/app/build.ts');
    expect(step(SIGNING)?.run).toContain('npx electron-builder --publish never "${signing[@]}"');
    expect(pkg.scripts.dist).toBe(
      'npm run -s build && tsx main/app/build.ts && electron-builder --publish never',
    );
  });

  it('pins every action by its commit, naming the release in a comment', () => {
    for (const file of [RELEASE, TESTS]) {
      const uses = [...readFileSync(file, 'utf8').matchAll(/uses: (\S+)(.*)$/gm)];
      expect(uses.length).toBeGreaterThan(0);
      for (const [, action, comment] of uses) {
        if (action!.startsWith('./')) continue;
        expect(action, file).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{40}$/);
        expect(comment, action).toMatch(/^ # v\d+\.\d+\.\d+$/);
      }
    }
  });

  it('holds the signing secrets in the signing step alone; others learn only whether one is set', () => {
    for (const [name, job] of Object.entries(workflow.jobs)) {
      expect(job.env, name).toBeUndefined();
      for (const each of job.steps ?? []) {
        if (each.name === SIGNING) continue;
        for (const [key, value] of Object.entries(each.env ?? {}))
          if (value.includes('secrets.'))
            expect(value, `${each.name ?? each.uses}: ${key}`).toMatch(
              /^\$\{\{ secrets\.\w+ != '' \}\}$/,
            );
        expect(JSON.stringify({ ...each, env: undefined })).not.toContain('secrets.');
      }
    }
    const signing = step(SIGNING)!;
    expect(Object.values(signing.env ?? {}).join(' ')).toContain('secrets.MAC_CSC_LINK');
    // The signing step runs electron-builder and nothing installed after it.
    expect(installers.steps.indexOf(signing)).toBe(
      installers.steps.findIndex((each) => each.uses?.startsWith('actions/upload-artifact@')) - 1,
    );
  });

  it('installs without any dependency’s install script, rebuilding only those package.json allows', () => {
    const allowed = Object.entries(pkg.allowScripts)
      .filter(([, allow]) => allow)
      .map(([name]) => name);
    const rebuild = `npm rebuild ${allowed.join(' ')}`;
    const install = step(INSTALL);
    expect(install?.run).toContain('npm install --ignore-scripts --no-audit --no-fund');
    expect(install?.run).toContain(rebuild);
    const runs = read(TESTS).jobs.test!.steps.map((each) => each.run);
    expect(runs).toContain('npm ci --ignore-scripts --no-audit --no-fund');
    expect(runs).toContain(rebuild);
  });

  it('leaves the test-only tools out of the release install', () => {
    const install = step(INSTALL);
    expect(install?.run).toMatch(/for \(const name of pkg\.testOnly\) delete pkg\.devDependencies/);
    // es5-ext, with its protest install script, comes in through Electronegativity alone.
    expect(pkg.testOnly).toContain('@doyensec/electronegativity');
    for (const name of pkg.testOnly) expect(pkg.devDependencies, name).toHaveProperty([name]);
    // Nothing the app or its build imports is among them.
    const built = spawnSync(
      'git',
      ['grep', '-lE', `from '(${pkg.testOnly.join('|')})['/]`, '--', 'main', 'renderer', 'shared'],
      { encoding: 'utf8' },
    );
    expect(built.stdout).toBe('');
  });

  /** Runs the workflow's step `name` in bash as the runner would, with `env` added to its own. */
  function runStep(name: string, env: Record<string, string>) {
    const result = spawnSync('bash', ['-e', '-c', step(name)?.run ?? 'exit 99'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      encoding: 'utf8',
    });
    return { code: result.status, out: result.stdout };
  }

  it('refuses to build an unsigned release, before anything else, naming what is missing', () => {
    const refusal = 'Refuse to build an unsigned release';
    expect(installers.steps[0]?.name).toBe(refusal);
    // Every secret and variable the check reads reaches it as whether it is set.
    expect(Object.keys(installers.steps[0]?.env ?? {}).sort()).toEqual(
      [...WINDOWS_SIGNING, ...MAC_SIGNING].sort(),
    );
    const set = (names: string[]) => Object.fromEntries(names.map((name) => [name, 'true']));
    const windows = runStep(refusal, {
      RUNNER_OS: 'Windows',
      WIN_CSC_LINK: 'true',
      WIN_CSC_KEY_PASSWORD: 'false',
    });
    expect(windows.code).toBe(1);
    expect(windows.out).toContain(
      '::error::No unsigned release: set WIN_CSC_KEY_PASSWORD WIN_PUBLISHER_NAME',
    );
    const mac = runStep(refusal, { RUNNER_OS: 'macOS', MAC_CSC_LINK: 'true' });
    expect(mac.code).toBe(1);
    expect(mac.out).toContain(
      'set MAC_CSC_KEY_PASSWORD APPLE_API_KEY_BASE64 APPLE_API_KEY_ID APPLE_API_ISSUER',
    );
    expect(runStep(refusal, { RUNNER_OS: 'Windows', ...set(WINDOWS_SIGNING) }).code).toBe(0);
    expect(runStep(refusal, { RUNNER_OS: 'macOS', ...set(MAC_SIGNING) }).code).toBe(0);
  });

  it('makes electron-builder fail a build that was not signed, and names the Windows publisher', () => {
    const signing = step(SIGNING)?.run ?? '';
    expect(signing).toContain('signing=(-c.forceCodeSigning=true)');
    expect(signing).toContain('-c.win.signtoolOptions.publisherName=$WIN_PUBLISHER_NAME');
    expect(config.win.signtoolOptions).toEqual({ signingHashAlgorithms: ['sha256'] });
    // The Apple key is written for every macOS build, inside the step that needs it.
    expect(signing).toMatch(/else\n.*\n\s+printf '%s' "\$APPLE_API_KEY_BASE64" \| base64 --decode/);
    expect(signing).toContain('export APPLE_API_KEY="$RUNNER_TEMP/apple-api-key.p8"');
  });

  it('attaches the installers to the tag’s release', () => {
    const upload = installers.steps.find((each) =>
      each.uses?.startsWith('actions/upload-artifact@'),
    );
    expect(upload?.with?.path).toMatch(/release\/\*\.exe[\s\S]*release\/\*\.dmg/);
    expect(workflow.jobs.release?.needs).toBe('installers');
    expect(workflow.jobs.release?.steps.at(-1)?.run).toMatch(
      /gh release (upload|create) "\$TAG" installers\/\*/,
    );
  });
});
