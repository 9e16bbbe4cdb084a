// How AI usage reads (browser): day labels, token counts, and the chart's configuration in the
// theme's colours. Pure, so the chart component only creates and destroys the chart.
import type { ChartConfiguration } from 'chart.js';
import type { UsageTable } from '../../state/ai-usage.svelte';

/** How many `--series-N` colours UsageChart defines; providers beyond them reuse the first. */
export const SERIES_COLOURS = 6;

export interface ChartPalette {
  text: string;
  grid: string;
  series: string[];
}

/** The theme's colours as the element sees them now (they change with the theme). */
export function readPalette(element: Element): ChartPalette {
  const style = getComputedStyle(element);
  const read = (name: string) => style.getPropertyValue(name).trim();
  return {
    text: read('--muted'),
    grid: read('--border'),
    series: Array.from({ length: SERIES_COLOURS }, (_, index) => read(`--series-${index + 1}`)),
  };
}

const shortDay = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});
const longDay = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const count = new Intl.NumberFormat();

/** "23 Nov" (short) or "Mon, 23 Nov 2026" of a UTC date as the platform counts days. */
export function dayLabel(date: string, long = false): string {
  const ms = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(ms)) return date;
  return (long ? longDay : shortDay).format(ms);
}

export function tokens(value: number): string {
  return count.format(value);
}

/** Stacked bars: one stack per day, one colour per provider. */
export function chartConfig(
  table: UsageTable,
  palette: ChartPalette,
): ChartConfiguration<'bar', number[], string> {
  const axis = {
    stacked: true,
    ticks: { color: palette.text },
    grid: { color: palette.grid },
    border: { color: palette.grid },
  };
  return {
    type: 'bar',
    data: {
      labels: table.dates.map((date) => dayLabel(date)),
      datasets: table.series.map((series, index) => {
        const colour = palette.series[index % palette.series.length] ?? palette.text;
        return {
          label: series.provider,
          data: series.tokens,
          backgroundColor: colour,
          borderColor: colour,
        };
      }),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      plugins: {
        legend: { labels: { color: palette.text } },
        tooltip: {
          callbacks: {
            label: (item) => `${item.dataset.label ?? ''}: ${tokens(item.parsed.y ?? 0)} tokens`,
          },
        },
      },
      scales: {
        // Day columns need no vertical lines; the token scale keeps its horizontal ones.
        x: { ...axis, grid: { display: false } },
        y: { ...axis, beginAtZero: true, ticks: { ...axis.ticks, precision: 0 } },
      },
    },
  };
}
