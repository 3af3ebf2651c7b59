/**
 * Each symbol's price moves of the day as one-minute bars (open, high, low, close), from the starting price, the
 * control surface's moves and the walk, answered as the family's `TPSeries` (NorenRestApiPy
 * `get_time_price_series(exchange, token, starttime, endtime, interval)`): bars of `intrv` minutes, newest first.
 */
import { requestTime } from './formats.js';

/** One minute of a symbol's prices. `minute`: the minute's start, epoch milliseconds. */
export interface MinuteBar {
  minute: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** How many prices the minute saw (the bar's `intv`, the emulator having no traded volume). */
  moves: number;
}

/** A day's minutes and then some: older bars are dropped. */
export const MAX_BARS_PER_SYMBOL = 1_500;
/** The intervals the family answers, in minutes. */
export const SERIES_INTERVALS = [1, 3, 5, 10, 15, 30, 60, 120, 240] as const;

export class DaySeries {
  private readonly bars = new Map<string, MinuteBar[]>();

  /** A price of `key` (`exch|tsym`) at `at`. */
  record(key: string, at: Date, price: number): void {
    const minute = Math.floor(at.getTime() / 60_000) * 60_000;
    let list = this.bars.get(key);
    if (!list) this.bars.set(key, (list = []));
    const last = list.at(-1);
    if (last && last.minute === minute) {
      last.high = Math.max(last.high, price);
      last.low = Math.min(last.low, price);
      last.close = price;
      last.moves += 1;
      return;
    }
    list.push({ minute, open: price, high: price, low: price, close: price, moves: 1 });
    if (list.length > MAX_BARS_PER_SYMBOL) list.shift();
  }

  /** The open, high and low of `key`'s bars since `since` (epoch ms: the day's start), or undefined with none. */
  day(key: string, since: number): { open: number; high: number; low: number } | undefined {
    const bars = (this.bars.get(key) ?? []).filter((bar) => bar.minute >= since);
    if (bars.length === 0) return undefined;
    return {
      open: bars[0]!.open,
      high: Math.max(...bars.map((bar) => bar.high)),
      low: Math.min(...bars.map((bar) => bar.low)),
    };
  }

  forget(key: string): void {
    this.bars.delete(key);
  }

  clear(): void {
    this.bars.clear();
  }

  /**
   * Bars of `minutes` minutes (each starting on a multiple of them since the epoch) whose start lies in
   * `[from, to]` (epoch seconds), newest first; the family's record shape.
   */
  series(key: string, from: number, to: number, minutes: number): Record<string, string>[] {
    const width = minutes * 60_000;
    const merged: MinuteBar[] = [];
    for (const bar of this.bars.get(key) ?? []) {
      const start = Math.floor(bar.minute / width) * width;
      if (start < from * 1_000 || start > to * 1_000) continue;
      const last = merged.at(-1);
      if (last && last.minute === start) {
        last.high = Math.max(last.high, bar.high);
        last.low = Math.min(last.low, bar.low);
        last.close = bar.close;
        last.moves += bar.moves;
      } else merged.push({ ...bar, minute: start });
    }
    return merged.reverse().map((bar) => ({
      stat: 'Ok',
      // `dd-mm-yyyy HH:MM:SS`, India time, as the family writes it.
      time: requestTime(new Date(bar.minute)).replace(/^(\S+) (\S+)$/, '$2 $1'),
      ssboe: String(bar.minute / 1_000),
      into: bar.open.toFixed(2),
      inth: bar.high.toFixed(2),
      intl: bar.low.toFixed(2),
      intc: bar.close.toFixed(2),
      intvwap: ((bar.high + bar.low + bar.close) / 3).toFixed(2),
      intv: String(bar.moves),
      intoi: '0',
      v: String(bar.moves),
      oi: '0',
    }));
  }
}
