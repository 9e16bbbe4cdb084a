import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AiUsageDay } from '../../shared/domain';
import AiUsageScreen from '../../renderer/src/screens/AiUsageScreen.svelte';
import { shellContext } from '../../renderer/src/lib/context';
import { AiUsageState, usageTable } from '../../renderer/src/state/ai-usage.svelte';
import { Shell } from '../../renderer/src/state/shell.svelte';
import { chartConfig } from '../../renderer/src/components/ai-usage/usage-view';
import { FakeTransport, ok } from './fake-transport';

// jsdom has no canvas: a stand-in Chart records what the component asks of chart.js.
const charts = vi.hoisted(() => ({
  made: [] as { config: { data: { datasets: unknown[] } }; destroyed: boolean }[],
  registered: [] as unknown[],
}));
vi.mock('chart.js', () => {
  class Chart {
    destroyed = false;
    static register(...pieces: unknown[]): void {
      charts.registered.push(...pieces);
    }
    constructor(
      _canvas: HTMLCanvasElement,
      readonly config: (typeof charts.made)[number]['config'],
    ) {
      charts.made.push(this);
    }
    destroy(): void {
      this.destroyed = true;
    }
  }
  const piece = (name: string) => ({ id: name });
  return {
    Chart,
    BarController: piece('bar'),
    BarElement: piece('barElement'),
    CategoryScale: piece('category'),
    LinearScale: piece('linear'),
    Legend: piece('legend'),
    Tooltip: piece('tooltip'),
  };
});

const day = (date: string, providers: [string, number, number][]): AiUsageDay => ({
  date,
  totalTokens: providers.reduce((sum, [, tokens]) => sum + tokens, 0),
  providers: providers.map(([provider, totalTokens, requests]) => ({
    provider,
    totalTokens,
    requests,
  })),
});

const usage = [
  day('2026-11-21', [['openai', 1200, 3]]),
  day('2026-11-23', [
    ['mistral', 300, 1],
    ['openai', 2000, 4],
  ]),
  day('2026-11-22', []),
];

beforeEach(() => {
  charts.made.length = 0;
});

afterEach(() => {
  cleanup();
  delete document.documentElement.dataset.theme;
  document.documentElement.removeAttribute('style');
});

function setup(answer: (input: unknown) => AiUsageDay[] = () => usage) {
  const transport = new FakeTransport({ aiUsage: (input) => ok(answer(input)) });
  const shell = new Shell(transport);
  return { transport, shell };
}

describe('ai usage state', () => {
  it('aligns every provider on the reported days, busiest first, zero where unused', () => {
    const table = usageTable(usage);
    expect(table.dates).toEqual(['2026-11-21', '2026-11-22', '2026-11-23']);
    expect(table.series).toEqual([
      { provider: 'openai', tokens: [1200, 0, 2000], total: 3200, requests: 7 },
      { provider: 'mistral', tokens: [0, 0, 300], total: 300, requests: 1 },
    ]);
    expect(table.dayTotals).toEqual([1200, 0, 2300]);
    expect(table.total).toBe(3500);
  });

  it('shows only the latest range asked for, ignoring an older answer that arrives late', async () => {
    const { transport, shell } = setup();
    let release: () => void = () => undefined;
    transport.answer(
      'aiUsage',
      (input) =>
        new Promise((resolve) => {
          const days = (input as { days: number }).days;
          const answer = ok(days === 7 ? [usage[0]!] : usage);
          if (days === 30) release = () => resolve(answer);
          else resolve(answer);
        }),
    );
    const state = new AiUsageState(shell);
    const first = state.load();
    const second = state.setRange(7);
    release();
    await Promise.all([first, second]);
    expect(transport.callsOf('aiUsage')).toEqual([{ days: 30 }, { days: 7 }]);
    expect(state.shownRange).toBe(7);
    expect(state.table.dates).toEqual(['2026-11-21']);
  });

  it('gives chart.js one stacked dataset per provider in the palette’s colours', () => {
    const config = chartConfig(usageTable(usage), {
      text: 'grey',
      grid: 'silver',
      series: ['blue', 'orange'],
    });
    expect(config.type).toBe('bar');
    expect(config.data.datasets).toMatchObject([
      { label: 'openai', data: [1200, 0, 2000], backgroundColor: 'blue' },
      { label: 'mistral', data: [0, 0, 300], backgroundColor: 'orange' },
    ]);
    expect(config.data.labels).toHaveLength(3);
    expect(config.options?.scales?.y).toMatchObject({ stacked: true, ticks: { color: 'grey' } });
  });
});

describe('the ai usage screen', () => {
  it('draws the chart and lists the same numbers in a table, newest day first', async () => {
    const { shell } = setup();
    render(AiUsageScreen, { context: shellContext(shell) });
    const table = await screen.findByRole('table', { name: /Tokens per day and provider/ });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent?.trim());
    expect(headers).toEqual(['Day', 'openai', 'mistral', 'Total']);
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(5);
    expect(rows[1]?.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-23');
    expect([...rows[1]!.querySelectorAll('td')].map((cell) => cell.textContent)).toEqual([
      (2000).toLocaleString(),
      '300',
      (2300).toLocaleString(),
    ]);
    expect(rows[4]?.textContent).toContain('7 requests');
    expect(screen.getByText(/tokens in the last 30 days/).textContent).toContain('2 providers');

    expect(charts.made).toHaveLength(1);
    expect(charts.registered.length).toBeGreaterThan(0);
    expect(charts.made[0]?.config.data.datasets).toHaveLength(2);
    expect(screen.getByRole('img', { name: /Bar chart of tokens per day/ })).toBeTruthy();
  });

  it('asks for the chosen period and marks it pressed', async () => {
    const { transport, shell } = setup();
    render(AiUsageScreen, { context: shellContext(shell) });
    await screen.findByRole('table');
    const week = screen.getByRole('button', { name: 'Last 7 days' });
    await fireEvent.click(week);
    await vi.waitFor(() => expect(week.getAttribute('aria-pressed')).toBe('true'));
    expect(transport.callsOf('aiUsage')).toEqual([{ days: 30 }, { days: 7 }]);
    expect(screen.getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
  });

  it('rebuilds the chart when the theme changes and destroys it when the screen closes', async () => {
    const { shell } = setup();
    const view = render(AiUsageScreen, { context: shellContext(shell) });
    await screen.findByRole('table');
    expect(charts.made).toHaveLength(1);
    // What the dark theme's stylesheet would do to the colours the chart reads.
    document.documentElement.style.setProperty('--muted', 'rgb(1, 2, 3)');
    document.documentElement.style.setProperty('--series-1', 'rgb(4, 5, 6)');
    document.documentElement.dataset.theme = 'dark';
    await vi.waitFor(() => expect(charts.made).toHaveLength(2));
    expect(charts.made[0]?.destroyed).toBe(true);
    expect(charts.made[1]?.config).toMatchObject({
      data: { datasets: [{ label: 'openai', backgroundColor: 'rgb(4, 5, 6)' }, {}] },
      options: { plugins: { legend: { labels: { color: 'rgb(1, 2, 3)' } } } },
    });
    document.documentElement.dataset.theme = 'light';
    await vi.waitFor(() => expect(charts.made).toHaveLength(3));
    view.unmount();
    expect(charts.made.every((chart) => chart.destroyed)).toBe(true);
    // Closed, the chart no longer follows the theme.
    document.documentElement.dataset.theme = 'dark';
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(charts.made).toHaveLength(3);
  });

  it('says how to spend tokens when there are none, without a chart', async () => {
    const { shell } = setup(() => [day('2026-11-23', [])]);
    render(AiUsageScreen, { context: shellContext(shell) });
    const empty = await screen.findByText(/No AI tokens were used in the last 30 days/);
    expect(empty.textContent?.replace(/\s+/g, ' ')).toContain('use AI assist to draft');
    expect(screen.queryByRole('table')).toBeNull();
    expect(charts.made).toHaveLength(0);
  });

  it('shows the core’s message and leads to Settings when no account is connected', async () => {
    const { transport, shell } = setup();
    transport.answer('aiUsage', () => ({
      ok: false,
      error: { kind: 'not_connected', message: 'No platform account is set' },
    }));
    render(AiUsageScreen, { context: shellContext(shell) });
    expect((await screen.findByRole('alert')).textContent).toContain('No platform account is set');
    await fireEvent.click(screen.getByRole('button', { name: 'Connect an account in Settings' }));
    expect(shell.screen).toBe('settings');
    transport.answer('aiUsage', () => ok(usage));
    await fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table')).toBeTruthy();
  });
});
