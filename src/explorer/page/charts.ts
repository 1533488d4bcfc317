// Charts with TradingView Lightweight Charts (Apache-2.0, canvas, made for financial series;
// docs/explorer.md says why): candles with their volume below, and the 24 h hourly line. The
// containers have a fixed height in the style sheet, so drawing moves nothing. Colours follow
// the system's light or dark scheme, also when it changes. The attribution the library's
// licence asks for is the footer's link (its logo would inject an inline style, which the CSP
// forbids).
import { CandlestickSeries, ColorType, createChart, HistogramSeries, LineSeries, type IChartApi, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts';
import type { CandleSeries, PriceHistory } from '../../client/index.ts';

const dark = matchMedia('(prefers-color-scheme: dark)');

/** The browser's language when Intl accepts it (a POSIX-style "en-US@posix" is not a tag), else en-US. */
function locale(): string {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([navigator.language]).length ? navigator.language : 'en-US';
  } catch {
    return 'en-US';
  }
}

function colours() {
  return dark.matches
    ? { background: '#111418', text: '#c9d1d9', grid: '#22272e', up: '#3fb950', down: '#f85149', volume: 'rgba(139, 148, 158, 0.45)', line: '#58a6ff' }
    : { background: '#ffffff', text: '#24292f', grid: '#eaeef2', up: '#1a7f37', down: '#cf222e', volume: 'rgba(87, 96, 106, 0.35)', line: '#0969da' };
}

function chartIn(container: HTMLElement): IChartApi {
  const c = colours();
  const chart = createChart(container, {
    autoSize: true,
    layout: { background: { type: ColorType.Solid, color: c.background }, textColor: c.text, attributionLogo: false },
    grid: { vertLines: { color: c.grid }, horzLines: { color: c.grid } },
    timeScale: { timeVisible: true, secondsVisible: false },
    localization: { locale: locale(), priceFormatter: (p: number) => (p >= 1000 ? p.toFixed(2) : p.toPrecision(5)) },
  });
  const follow = () => {
    const n = colours();
    chart.applyOptions({ layout: { background: { type: ColorType.Solid, color: n.background }, textColor: n.text }, grid: { vertLines: { color: n.grid }, horzLines: { color: n.grid } } });
  };
  dark.addEventListener('change', follow);
  const remove = chart.remove.bind(chart);
  chart.remove = () => {
    dark.removeEventListener('change', follow);
    remove();
  };
  return chart;
}

/** Price steps fine enough for the series' size: 5 significant digits (a 0.00008 USD token is not flat). */
function priceFormat(values: number[]) {
  const top = Math.max(...values.filter((v) => v > 0), 1e-12);
  const precision = Math.min(12, Math.max(2, 4 - Math.floor(Math.log10(top))));
  return { type: 'price' as const, precision, minMove: 10 ** -precision };
}

const seconds = (iso: string) => (Date.parse(iso) / 1000) as UTCTimestamp;

export type CandleChart = {
  /** Replaces the candles; returns how many the chart holds and the last one's close. */
  show(series: CandleSeries): { drawn: number; lastClose: number | null };
  remove(): void;
};

/** Candles on the right price scale, volume (USD) as bars in the bottom fifth. */
export function candleChart(container: HTMLElement): CandleChart {
  const chart = chartIn(container);
  const c = colours();
  const candles: ISeriesApi<'Candlestick'> = chart.addSeries(CandlestickSeries, { upColor: c.up, downColor: c.down, borderVisible: false, wickUpColor: c.up, wickDownColor: c.down });
  const volume: ISeriesApi<'Histogram'> = chart.addSeries(HistogramSeries, { priceScaleId: 'volume', color: c.volume, priceFormat: { type: 'volume' }, lastValueVisible: false, priceLineVisible: false });
  chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
  candles.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.25 } });
  return {
    show(series) {
      const k = series.candles;
      candles.applyOptions({ priceFormat: priceFormat(k.high) });
      candles.setData(k.timestamp.map((t, i) => ({ time: seconds(t), open: k.open[i]!, high: k.high[i]!, low: k.low[i]!, close: k.close[i]! })));
      volume.setData(k.timestamp.map((t, i) => ({ time: seconds(t), value: k.volume[i]!, color: k.close[i]! >= k.open[i]! ? c.up : c.down })));
      chart.timeScale().fitContent();
      // What the chart holds, read back from it: the page shows these and the browser test checks them.
      const drawn = candles.data() as readonly { close?: number }[];
      return { drawn: drawn.length, lastClose: drawn.at(-1)?.close ?? null };
    },
    remove: () => chart.remove(),
  };
}

/** The 24 hourly prices as a line. */
export function historyChart(container: HTMLElement, history: PriceHistory): { points: number; remove(): void } {
  const chart = chartIn(container);
  const line = chart.addSeries(LineSeries, { color: colours().line, lineWidth: 2, priceFormat: priceFormat(history.map((p) => p.price)) });
  line.setData(history.map((p) => ({ time: seconds(p.timestamp), value: p.price })));
  chart.timeScale().fitContent();
  return { points: line.data().length, remove: () => chart.remove() };
}
