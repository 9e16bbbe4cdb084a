import { launchChromium, openApp, serve } from './e2e/harness';
const served = await serve();
const browser = await launchChromium();
for (const viewport of [{ width: 1280, height: 800 }, { width: 1024, height: 700 }, { width: 800, height: 600 }]) {
  const { page } = await openApp(browser, served.url, { viewport, beforeLoad: (p) => p.addInitScript(() => {
    const seen: string[] = [];
    (window as any).seen = seen;
    const tick = () => { const b = document.querySelector('.banner'); if (b) seen.push(String(b.getBoundingClientRect().height)); requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  }) });
  await page.locator('.pill.ok').waitFor();
  await page.waitForTimeout(500);
  const seen = await page.evaluate(() => [...new Set((window as any).seen)]);
  const inner = await page.evaluate(() => [...document.querySelectorAll('.banner > *')].map((e) => e.tagName + ' ' + e.getBoundingClientRect().height));
  console.log(viewport.width, seen, inner, await page.evaluate(() => getComputedStyle(document.documentElement).fontSize));
  await page.close();
}
await browser.close(); await served.stop();
