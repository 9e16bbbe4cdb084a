// The accessibility scan of the end-to-end tests (Node): axe-core run in the page as it is now,
// WCAG 2.2 AA's target size and colour contrast included, its serious and critical findings one
// line each.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Serious and critical axe findings on the page as it is now, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugging protocol, so the page's CSP does not have to allow it.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(options: unknown): Promise<{ violations: unknown[] }> } }
    ).axe;
    // WCAG 2.2's target size (2.5.8) is off in axe unless asked for; colour contrast is on by
    // default and named here so the dark-mode scans keep it.
    return (
      await axe.run({
        rules: { 'target-size': { enabled: true }, 'color-contrast': { enabled: true } },
      })
    ).violations;
  });
  return (violations as AxeViolation[])
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(
            ', ',
          )}${violation.nodes.length > 3 ? ` and ${violation.nodes.length - 3} more` : ''}`,
    );
}
