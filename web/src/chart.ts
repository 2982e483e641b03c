import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { ApiError } from './api.js';
import { describe, seriesOf, type Series } from './chart-data.js';
import type { PageContext } from './context.js';
import { noteBank } from './bank-names.js';
import { byId, codeOf, onSubmit, say } from './dom.js';
import { isRangeChoice, rangeStart } from './ranges.js';

/** The history of a pair over a chosen range, from the ranges endpoint, drawn with uPlot. */
export function setUpChart(context: PageContext): void {
  const form = byId('chart-form', HTMLFormElement);
  const base = byId('chart-base', HTMLInputElement);
  const symbol = byId('chart-symbol', HTMLInputElement);
  const range = byId('chart-range', HTMLSelectElement);
  const output = byId('chart-output', HTMLDivElement);
  const figure = byId('chart', HTMLElement);
  let plot: uPlot | undefined;

  // The chart follows its box's width: a phone's as well as a desktop's.
  new ResizeObserver(() => plot?.setSize(sizeOf(figure))).observe(figure);

  onSubmit(form, async () => {
    const from = codeOf(base);
    const to = codeOf(symbol);
    const choice = range.value;
    if (!isRangeChoice(choice)) return;
    say(output, 'Loading the history…', 'busy');
    try {
      let newest = context.newestDays.get(context.picked()?.id ?? '');
      if (choice !== 'all' && newest === undefined) {
        // The ranges end on the newest day with rates (the picked bank's), which only an answer tells.
        const latest = await context.rates.latest({ base: from, symbols: to });
        newest = latest.answer.date;
        context.newestDays.set(latest.source?.id ?? '', newest);
      }
      const start = rangeStart(choice, newest ?? '');
      const { answer, source } = await context.rates.since(start, { base: from, symbols: to });
      const series = seriesOf(answer, to);
      figure.hidden = false;
      plot?.destroy();
      plot = draw(figure, series, `${to} per 1 ${answer.base}`);
      figure.dataset.points = String(series.days.length);
      figure.dataset.first = series.days[0] ?? '';
      figure.dataset.last = series.days.at(-1) ?? '';
      say(output, describe(series, answer.base, to));
      noteBank(output, source);
    } catch (error) {
      plot?.destroy();
      plot = undefined;
      figure.hidden = true;
      delete figure.dataset.points;
      say(output, error instanceof ApiError ? error.message : String(error), 'error');
    }
  });
}

function sizeOf(figure: HTMLElement): { width: number; height: number } {
  const width = Math.max(260, Math.floor(figure.clientWidth));
  return { width, height: width < 500 ? 220 : 320 };
}

function draw(figure: HTMLElement, series: Series, label: string): uPlot {
  figure.replaceChildren();
  const options: uPlot.Options = {
    ...sizeOf(figure),
    title: label,
    scales: { x: { time: true } },
    series: [
      { label: 'Day', value: (_u, seconds) => (seconds === null ? '' : new Date(seconds * 1000).toISOString().slice(0, 10)) },
      { label, stroke: '#1f4e79', width: 2, fill: 'rgba(31, 78, 121, 0.08)', spanGaps: true, points: { show: false } },
    ],
    axes: [{}, { size: 70 }],
    cursor: { drag: { x: false, y: false } },
    // With the pointer away from the chart, the legend shows the last day rather than empty values.
    hooks: { setCursor: [(u) => { if (u.cursor.idx == null) showLastDay(u, series); }] },
  };
  const plot = new uPlot(options, [series.times, series.values], figure);
  plot.root.setAttribute('aria-hidden', 'true');
  showLastDay(plot, series);
  return plot;
}

function showLastDay(plot: uPlot, series: Series): void {
  if (series.times.length > 0) plot.setLegend({ idx: series.times.length - 1 }, false);
}
