// npm run bench:ui — the renderer in Chromium (test/support/browser.ts, never a download) against
// `serve`, for this tree and, in the same run, the baseline tree (./baseline.ts, 1880bb5):
//  1. web-host cold start: from spawning `serve`, with the browser's tab open, to an interactive page;
//  2. calendar month view with 5,000 posts: from the posts' arrival to the frame that shows them,
//     on a fresh page and again;
//  3. catalog with 100,000 products: from the click on Catalog to the first rows, and frames per
//     second while scrolling;
//  4. catalog with 1,000,000 products: first rows, and the last row Ctrl+End and the bottom of the
//     scrollbar show;
//  5. Lighthouse (desktop preset, then with the CPU slowed 4×) on the first screen: performance
//     score, cumulative layout shift, total blocking time, and JavaScript loaded but not run.
// Every figure is the median of ROUNDS runs (BENCH_ROUNDS, 3 unless set), printed with its runs
// and its target, this tree beside the baseline. BENCH_BASELINE=off measures this tree alone;
// BENCH_ONLY (a comma list of start, lighthouse, calendar, catalog) measures only those rows.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openApp, serve } from '../e2e/harness';
import { findBrowser } from '../support/browser';
import { MANY_PRODUCTS_SQL } from '../support/many-products';
import { BASELINE_COMMIT, baselineTree, treeModules } from './baseline';
import { benchFolder } from './folders';

const folder = benchFolder('pressroom-bench-ui-');
const POSTS = 5_000;
const PRODUCTS = 100_000;
const MILLION = 1_000_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECTIONS = ['start', 'lighthouse', 'calendar', 'catalog'] as const;
const ONLY = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const unknownSection = ONLY?.find((name) => !(SECTIONS as readonly string[]).includes(name));
if (unknownSection !== undefined)
  throw new Error(`BENCH_ONLY names ${unknownSection}; the sections are ${SECTIONS.join(', ')}`);
/** Whether this run measures a section's rows (BENCH_ONLY, else all). */
const measures = (section: (typeof SECTIONS)[number]): boolean => !ONLY || ONLY.includes(section);

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
}

const now = new Date();
const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
const monthDays = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate();

const postsCsv = join(folder, 'posts.csv');
const productsCsv = join(folder, 'products.csv');

/** A month of posts in the current month (UTC) and a catalog, as files to import. */
function writeSeedFiles(): void {
  const posts = ['text,scheduled_at'];
  for (let i = 0; i < POSTS; i++) {
    const at = monthStart + (i % monthDays) * 86_400_000 + ((i * 7) % 1440) * 60_000;
    posts.push(`Post number ${i} about bread,${new Date(at).toISOString()}`);
  }
  const products = ['sku,name,price,stock'];
  for (let i = 0; i < PRODUCTS; i++)
    products.push(`SKU-${String(i).padStart(6, '0')},Product ${i},${(i % 500) + 1}.50,${i % 90}`);
  writeFileSync(postsCsv, posts.join('\n'));
  writeFileSync(productsCsv, products.join('\n'));
}

/**
 * The posts and catalog imported into `dbFile`, and a million products written into
 * `millionFile` when the catalog is measured, by the code of the tree at `root`: a tree refuses a
 * workspace a newer schema wrote, so each tree makes its own.
 */
function seedWith(root: string, dbFile: string, millionFile: string): void {
  const tree = treeModules(root);
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `
    ${tree.importWorkspace}
    const { openWorkspaceDb } = await import(${tree.db});
    const p = new Workspace({ dbFile: ${JSON.stringify(dbFile)} });
    // Input as the contract checks it, for the baseline's tree and this one alike.
    await p.imports.importFile({ kind: 'posts', path: ${JSON.stringify(postsCsv)}, past: 'publish-now', dryRun: false, onError: 'abort', queue: false, fillSlots: false, allowDuplicates: false });
    await p.imports.importFile({ kind: 'products', path: ${JSON.stringify(productsCsv)}, past: 'error', dryRun: false, onError: 'abort', queue: false, fillSlots: false, allowDuplicates: false });
    p.close();
    if (${measures('catalog')}) {
      const db = openWorkspaceDb(${JSON.stringify(millionFile)});
      const now = Date.now();
      db.prepare(${JSON.stringify(MANY_PRODUCTS_SQL)}).run(${MILLION}, now, now);
      db.close();
    }
  `,
    ],
    { cwd: root, stdio: 'inherit' },
  );
}

/** One measured figure: its runs (the median is printed), its unit and its target. */
interface Figure {
  label: string;
  unit: string;
  target: string;
  digits?: number;
  runs: number[];
  /** Said instead of the number (the last row a catalog shows). */
  text?: string;
}
type Figures = Map<string, Figure>;

function record(figures: Figures, figure: Omit<Figure, 'runs'>, run: number, text?: string) {
  const known = figures.get(figure.label) ?? { ...figure, runs: [] };
  known.runs.push(run);
  if (text !== undefined) known.text = text;
  figures.set(figure.label, known);
}

function shown(figure: Figure | undefined): string {
  if (!figure) return '—';
  if (figure.text !== undefined) return figure.text;
  const digits = figure.digits ?? 0;
  const runs =
    figure.runs.length > 1 ? ` (${figure.runs.map((r) => r.toFixed(digits)).join(', ')})` : '';
  return `${median(figure.runs).toFixed(digits)} ${figure.unit}${runs}`;
}

// --- The measures, each on one tree's served app. ---

interface BenchMarks {
  /** When the last getCalendar answer arrived. */
  postsArrived: number;
  /** When the first frame after it that shows every post the month draws began; 0 until then. */
  drawn: number;
}

/** A page on the calendar that marks when its data arrives and when its posts are drawn. */
const calendarPage = (browser: Browser, url: string) =>
  openApp(browser, url, {
    // Before the app's own scripts, so the calendar's first read is seen, and watching every
    // frame from the start: a watch begun once the page is open could begin after the posts
    // were drawn, and time this script's round trip instead of the page.
    beforeLoad: (page) =>
      page.addInitScript((days) => {
        const original = window.fetch.bind(window);
        const marks: BenchMarks = { postsArrived: 0, drawn: 0 };
        (window as unknown as { benchMarks: BenchMarks }).benchMarks = marks;
        // Only the latest read counts, as only its answer is drawn (the calendar drops older ones).
        let reads = 0;
        window.fetch = async (...args) => {
          const read = String(args[0]).endsWith('/getCalendar') ? ++reads : 0;
          const response = await original(...args);
          if (read > 0 && read === reads) {
            marks.postsArrived = performance.now();
            marks.drawn = 0;
          }
          return response;
        };
        // Every day of the month has more posts than fit: two a day are drawn, and a "+N more".
        const allDrawn = () =>
          document.querySelectorAll('.month-post').length >= 2 * days &&
          document.querySelectorAll('.more-in-day').length >= days;
        let marking = false;
        const watch = () => {
          if (marks.postsArrived > 0 && marks.drawn === 0 && !marking && allDrawn()) {
            // Drawn in this frame: the next one begins once it is shown (unless newer posts came).
            marking = true;
            const arrived = marks.postsArrived;
            requestAnimationFrame(() => {
              if (marks.postsArrived === arrived) marks.drawn = performance.now();
              marking = false;
            });
          }
          requestAnimationFrame(watch);
        };
        requestAnimationFrame(watch);
      }, monthDays),
  });

/** Time from the calendar's data arriving to the first frame after its posts are drawn. */
async function drawnOn(page: Page): Promise<number> {
  const marks = await page.waitForFunction(() => {
    const { postsArrived, drawn } = (window as unknown as { benchMarks: BenchMarks }).benchMarks;
    return postsArrived > 0 && drawn > 0 && { postsArrived, drawn };
  });
  const { postsArrived, drawn } = (await marks.jsonValue()) as BenchMarks;
  return drawn - postsArrived;
}

async function measureCalendar(browser: Browser, url: string, figures: Figures): Promise<void> {
  const label = `calendar month, ${POSTS.toLocaleString('en')} posts, data to drawn`;
  const { page } = await calendarPage(browser, url);
  record(figures, { label: `${label}, first`, unit: 'ms', target: '< 50 ms' }, await drawnOn(page));
  for (let draw = 0; draw < 2; draw++) {
    // Two months on nothing is drawn (the posts are all in this month); Today comes back.
    const next = page.getByRole('button', { name: 'Next', exact: true });
    await next.click();
    await next.click();
    await page.locator('.month-post').first().waitFor({ state: 'detached' });
    await page.evaluate(() => {
      const marks = (window as unknown as { benchMarks: BenchMarks }).benchMarks;
      marks.postsArrived = 0;
      marks.drawn = 0;
    });
    await page.getByRole('button', { name: 'Today', exact: true }).click();
    record(
      figures,
      { label: `${label}, again`, unit: 'ms', target: '< 50 ms' },
      await drawnOn(page),
    );
  }
  await page.close();
}

/** Opens the catalog on a fresh page; the time from the click to the first product's cell. */
async function openCatalog(browser: Browser, url: string): Promise<{ page: Page; ms: number }> {
  const { page } = await openApp(browser, url);
  const started = await page.evaluate(() => performance.now());
  await page.getByRole('link', { name: 'Catalog' }).click();
  // The first product's cell, not the grid's second row: on 1880bb5 that row is the paste
  // target below the last row, drawn before any product arrives, so waiting for it stopped the
  // clock early and left nothing to scroll (the 0.0 fps of that tree).
  await page
    .getByRole('gridcell', { name: /^SKU: / })
    .first()
    .waitFor();
  return { page, ms: (await page.evaluate(() => performance.now())) - started };
}

/** Frames per second while the grid's body scrolls 120 px a frame for three seconds. */
function scrollingFps(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        // The grid's body, the rowgroup after the header; a body with nothing to scroll is a
        // broken measure, never a figure.
        const scroller = document.querySelector<HTMLElement>(
          '[role="grid"] > [role="rowgroup"]:nth-of-type(2)',
        );
        if (!scroller || scroller.scrollHeight <= scroller.clientHeight + 10)
          return reject(new Error('the catalog grid has nothing to scroll'));
        const duration = 3000;
        const start = performance.now();
        let frames = 0;
        const step = (now: number) => {
          frames++;
          scroller.scrollTop += 120;
          if (now - start < duration) requestAnimationFrame(step);
          else resolve((frames * 1000) / (now - start));
        };
        requestAnimationFrame(step);
      }),
  );
}

/**
 * The product (1-based) of the lowest row drawn whole in the grid's body once it has settled (its
 * page may take seconds to come on a loaded machine: up to a minute).
 */
async function lastShown(page: Page): Promise<number> {
  let last = 0;
  for (let tries = 0; tries < 300; tries++) {
    await page.waitForTimeout(200);
    const now = await page.evaluate(() => {
      const body = document.querySelector('[role="grid"] > [role="rowgroup"]:nth-of-type(2)');
      if (!body) return 0;
      const view = body.getBoundingClientRect();
      const rows = [...body.querySelectorAll<HTMLElement>('[role="row"][aria-rowindex]')].filter(
        (row) => {
          const box = row.getBoundingClientRect();
          const loaded = row.querySelector('[aria-label^="SKU: SKU"]') !== null;
          return loaded && box.top >= view.top - 1 && box.bottom <= view.bottom + 1;
        },
      );
      return Math.max(0, ...rows.map((row) => Number(row.getAttribute('aria-rowindex')) - 1));
    });
    if (now > 0 && now === last) return now;
    last = now;
  }
  return last;
}

async function measureCatalogs(
  browser: Browser,
  url: string,
  millionUrl: string,
  figures: Figures,
  lastRow: boolean,
): Promise<void> {
  {
    const { page, ms } = await openCatalog(browser, url);
    const label = `catalog, ${PRODUCTS.toLocaleString('en')} products`;
    record(figures, { label: `${label}, to first rows`, unit: 'ms', target: '< 300 ms' }, ms);
    const fps = await scrollingFps(page);
    record(
      figures,
      { label: `${label}, scrolling`, unit: 'fps', target: '≥ 55 fps', digits: 1 },
      fps,
    );
    await page.close();
  }
  const label = `catalog, ${MILLION.toLocaleString('en')} products`;
  {
    const { page, ms } = await openCatalog(browser, millionUrl);
    record(figures, { label: `${label}, to first rows`, unit: 'ms', target: '< 300 ms' }, ms);
    if (lastRow) {
      await page
        .getByRole('gridcell', { name: /^SKU: / })
        .first()
        .click();
      await page.keyboard.press('Control+End');
      const byKey = await lastShown(page);
      const target = `the ${MILLION.toLocaleString('en')}th`;
      record(
        figures,
        { label: `${label}, last row Ctrl+End shows`, unit: '', target },
        byKey,
        `the ${byKey.toLocaleString('en')}th`,
      );
      await page.evaluate(() => {
        const body = document.querySelector('[role="grid"] > [role="rowgroup"]:nth-of-type(2)');
        if (body) body.scrollTop = body.scrollHeight;
      });
      const byBar = await lastShown(page);
      record(
        figures,
        { label: `${label}, last row the scrollbar's bottom shows`, unit: '', target },
        byBar,
        `the ${byBar.toLocaleString('en')}th`,
      );
    }
    await page.close();
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Lighthouse's performance audit of the first screen, in its own Chromium. */
async function measureLighthouse(url: string, figures: Figures): Promise<void> {
  const { executablePath } = await findBrowser();
  const port = await freePort();
  const browser = await chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      `--remote-debugging-port=${port}`,
    ],
  });
  const slowCpu = {
    ...desktopConfig,
    settings: {
      ...desktopConfig.settings,
      throttling: { ...desktopConfig.settings?.throttling, cpuSlowdownMultiplier: 4 },
    },
  };
  try {
    for (const [name, config, target] of [
      ['desktop', desktopConfig, '≥ 98'],
      ['desktop, CPU 4× slower', slowCpu, '≥ 90'],
    ] as const) {
      const result = await lighthouse(
        url,
        { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
        config,
      );
      const audits = result?.lhr.audits;
      const score = (result?.lhr.categories.performance?.score ?? NaN) * 100;
      const label = `Lighthouse ${name}`;
      record(figures, { label: `${label}, performance`, unit: '', target }, score);
      record(
        figures,
        { label: `${label}, CLS`, unit: '', target: '< 0.02', digits: 3 },
        audits?.['cumulative-layout-shift']?.numericValue ?? NaN,
      );
      record(
        figures,
        { label: `${label}, total blocking time`, unit: 'ms', target: '< 150 ms' },
        audits?.['total-blocking-time']?.numericValue ?? NaN,
      );
      const unused = audits?.['unused-javascript']?.details as
        { overallSavingsBytes?: number } | undefined;
      record(
        figures,
        { label: `${label}, JavaScript loaded but not run`, unit: 'KiB', target: '< 30 KiB' },
        (unused?.overallSavingsBytes ?? 0) / 1024,
      );
    }
  } finally {
    await browser.close();
  }
}

/**
 * One run of every figure for the tree at `root`, over its own copies of the seeded workspaces.
 * The trees take turns, a pass each, so a machine busier for a while weighs on both alike.
 */
async function measurePass(tree: Tree, pass: number): Promise<void> {
  const { root, name, figures } = tree;
  const ownDb = join(folder, `${name}-workspace.sqlite`);
  const ownMillion = join(folder, `${name}-million.sqlite`);
  if (pass === 0) {
    // Its own build first (interface and commands), so the clock times a start, not a build.
    execFileSync(process.execPath, ['main/app/launch.mjs', 'build'], { cwd: root });
    const warm = await serve({ root });
    await warm.stop();
    if (measures('calendar') || measures('catalog')) seedWith(root, ownDb, ownMillion);
  }
  const browser = await launchChromium();
  try {
    if (measures('start')) {
      // The tab is open before the host starts, as a user's browser is: the clock times the host
      // and the page, not Playwright making a browser context (50–80 ms here).
      const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const started = performance.now();
      const fresh = await serve({ root });
      await tab.goto(fresh.url);
      await tab.getByRole('navigation', { name: 'Screens' }).waitFor();
      record(
        figures,
        { label: 'web-host cold start to an interactive page', unit: 'ms', target: '< 500 ms' },
        performance.now() - started,
      );
      await tab.close();
      await fresh.stop();
    }
    if (measures('lighthouse')) {
      const lighthoused = await serve({ root });
      await measureLighthouse(lighthoused.url, figures);
      await lighthoused.stop();
    }
    if (measures('calendar')) {
      const served = await serve({ root, args: ['--db', ownDb] });
      await measureCalendar(browser, served.url, figures);
      await served.stop();
    }
    if (measures('catalog')) {
      const [served, million] = await Promise.all([
        serve({ root, args: ['--db', ownDb] }),
        serve({ root, args: ['--db', ownMillion] }),
      ]);
      // Its figure times a warm web host, not its first answers: a page is opened once before
      // (in a full run, the calendar's).
      await (await openApp(browser, served.url)).page.close();
      await measureCatalogs(browser, served.url, million.url, figures, pass === 0);
      await Promise.all([served.stop(), million.stop()]);
    }
  } finally {
    await browser.close();
  }
}

interface Tree {
  root: string;
  name: string;
  figures: Figures;
}

if (measures('calendar') || measures('catalog')) writeSeedFiles();
const baseline = baselineTree();
const ours: Tree = { root: process.cwd(), name: 'ours', figures: new Map() };
const theirs: Tree | null = baseline
  ? { root: baseline, name: 'baseline', figures: new Map() }
  : null;
for (let pass = 0; pass < ROUNDS; pass++)
  for (const tree of theirs ? [ours, theirs] : [ours]) await measurePass(tree, pass);

console.log(
  `\nmedian of ${ROUNDS} runs each (the runs in brackets); this tree${theirs ? ` | ${BASELINE_COMMIT}, measured in the same run` : ''} | target`,
);
for (const [label, figure] of ours.figures) {
  const before = theirs ? ` | ${shown(theirs.figures.get(label))}` : '';
  console.log(`${label}: ${shown(figure)}${before} | target ${figure.target}`);
}
