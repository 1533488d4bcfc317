// Which windows of the answers the indexer's stored history covers (Token.completeness): a figure
// whose window is not covered is answered null, never computed from part of the window.
import type { DataCoverage } from '../db/index.ts';
import type { Token } from './types.ts';

export type HistoryView = Omit<Token['completeness'], 'contractChecks'>;

const HOUR_MS = 3_600_000;
const WINDOWS = { h1: HOUR_MS, h6: 6 * HOUR_MS, h24: 24 * HOUR_MS, d7: 7 * 24 * HOUR_MS } as const;

/** Complete history (a forward index, or a filled head-first one): every window. */
export const COMPLETE_HISTORY: HistoryView = { windows: { h1: true, h6: true, h24: true, d7: true }, historyFrom: null };

/** A window ending at the last indexed block is covered when history starts at or before its start. */
export function historyView(coverage: DataCoverage): HistoryView {
  const { historyFrom, indexedTime } = coverage;
  if (historyFrom === null) return COMPLETE_HISTORY;
  const covered = (ms: number) => indexedTime !== null && historyFrom.getTime() <= indexedTime.getTime() - ms;
  return {
    windows: { h1: covered(WINDOWS.h1), h6: covered(WINDOWS.h6), h24: covered(WINDOWS.h24), d7: covered(WINDOWS.d7) },
    historyFrom: historyFrom.toISOString(),
  };
}

/** Views whose windows are alike give the same figures (historyFrom aside). */
export const windowsKey = (view: HistoryView): string => JSON.stringify(view.windows);
