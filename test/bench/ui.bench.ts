// npm run bench:ui — the renderer in Debian's Chromium against `serve`:
//  1. web-host cold start: from spawning `serve` to an interactive page (target < 1.5 s);
//  2. calendar month view with 5,000 posts: from the posts' arrival to the frame that shows
//     them (target < 100 ms);
//  3. catalog with 100,000 products: from opening the screen to the first rows (target
//     < 300 ms), and frames per second while scrolling (target ≥ 55 fps).
// A start and a first draw on a fresh page are each taken ROUNDS times, and the median printed
// with every run: one run moves by tens of percent with whatever else the machine does.
import { writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { buildCommands } from '../../main/app/build';
import { ensureInterface } from '../../main/app/builds.mjs';
import { Pressroom } from '../../main/core/pressroom';
import { launchChromium, openApp, serve } from '../e2e/harness';

const folder = mkdtempSync(join(tmpdir(), 'pressroom-bench-ui-'));
const dbFile = join(folder, 'workspace.sqlite');
const POSTS = 5_000;
const PRODUCTS = 100_000;
const ROUNDS = 3;

function report(label: string, value: number, unit: string, target: string, runs?: number[]): void {
  const digits = unit === 'fps' ? 1 : 0;
  const each = runs ? `; median of ${runs.map((run) => run.toFixed(digits)).join(', ')}` : '';
  console.log(`${label}: ${value.toFixed(digits)} ${unit} (target ${target}${each})`);
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
}

const now = new Date();
const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
const monthDays = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate();

/** A month of posts in the current month (UTC) and a catalog, written straight to the database. */
async function seed(): Promise<void> {
  const posts = ['text,scheduled_at'];
  for (let i = 0; i < POSTS; i++) {
    const at = monthStart + (i % monthDays) * 86_400_000 + ((i * 7) % 1440) * 60_000;
    posts.push(`Post number ${i} about bread,${new Date(at).toISOString()}`);
  }
  const products = ['sku,name,price,stock'];
  for (let i = 0; i < PRODUCTS; i++)
    products.push(`SKU-${String(i).padStart(6, '0')},Product ${i},${(i % 500) + 1}.50,${i % 90}`);
  writeFileSync(join(folder, 'posts.csv'), posts.join('\n'));
  writeFileSync(join(folder, 'products.csv'), products.join('\n'));
  const pressroom = new Pressroom({ dbFile });
  await pressroom.imports.importFile({
    kind: 'posts',
    path: join(folder, 'posts.csv'),
    past: 'publish-now',
  });
  await pressroom.imports.importFile({ kind: 'products', path: join(folder, 'products.csv') });
  pressroom.close();
}

await ensureInterface(process.cwd());
await seed();
const browser = await launchChromium();

// 1. Cold start on a fresh demo workspace. `serve` runs from its bundle (main/app/launch.mjs),
// built here first, as the renderer is above, so the clock times a start, not a build.
{
  await buildCommands();
  const starts: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    const served = await serve();
    const { page } = await openApp(browser, served.url);
    starts.push(performance.now() - started);
    await page.close();
    await served.stop();
  }
  report('web-host cold start to an interactive page', median(starts), 'ms', '< 1500 ms', starts);
}

const served = await serve({ args: ['--db', dbFile] });

// 2. Calendar month view: from the moment the calendar's data arrives (getCalendar: the range's
// posts, drafts, free slots and bots in one answer) to the first frame after it drew its posts.
// First on a fresh page (the browser compiles the calendar's code on the way), ROUNDS pages; then
// the median of five more draws of the same month on the last page, coming back to it.
interface BenchMarks {
  /** When the last getCalendar answer arrived. */
  postsArrived: number;
  /** When the first frame after it that shows every post the month draws began; 0 until then. */
  drawn: number;
}
const calendarPage = () =>
  openApp(browser, served.url, {
    // Before the app's own scripts, so the calendar's first read is seen, and watching every
    // frame from the start: a watch begun from here once the page is open could begin after the
    // posts were drawn, and time this script's round trip instead of the page.
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
{
  const firsts: number[] = [];
  let page: Page | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    await page?.close();
    page = (await calendarPage()).page;
    firsts.push(await drawnOn(page));
  }
  if (!page) throw new Error('ROUNDS must be at least 1');
  const again: number[] = [];
  for (let round = 0; round < 5; round++) {
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
    again.push(await drawnOn(page));
  }
  const label = `calendar month view, ${POSTS} posts, data to drawn`;
  report(`${label}, first on a fresh page`, median(firsts), 'ms', '< 100 ms', firsts);
  report(`${label}, again`, median(again), 'ms', '< 100 ms', again);
  await page.close();
}

// 3. Catalog: first rows, then scrolling frame rate.
{
  const { page } = await openApp(browser, served.url);
  const started = await page.evaluate(() => performance.now());
  await page.getByRole('link', { name: 'Catalog' }).click();
  // The first product's cell, not the grid's second row: that row was the paste target below
  // the last row, drawn before any product arrived, so the clock stopped early and the scroller
  // had nothing to scroll (0.0 fps on 1880bb5 whenever the first page came after the check).
  await page
    .getByRole('gridcell', { name: /^SKU: / })
    .first()
    .waitFor();
  const firstRows = (await page.evaluate(() => performance.now())) - started;
  report(`catalog, ${PRODUCTS} products, to first rows`, firstRows, 'ms', '< 300 ms');
  const fps = await page.evaluate(
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
  report('catalog scrolling', fps, 'fps', '≥ 55 fps');
  await page.close();
}

await browser.close();
await served.stop();
