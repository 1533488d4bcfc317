import { ValidationError } from '../errors/index.ts';

const UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/;

/**
 * ms since the epoch of an ISO 8601 UTC time as the spec's UtcTime allows it (the validators
 * have checked the shape; this checks the calendar: no 2026-02-30, no 24:00, no leap second).
 * A ValidationError naming `field` otherwise.
 */
export function parseUtcTime(raw: string, field: string): number {
  const m = UTC.exec(raw);
  if (m) {
    const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
    const ms = Date.UTC(year, month - 1, day, hour, minute, second, Number((m[7] ?? '').padEnd(3, '0')));
    const d = new Date(ms);
    if (d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day && d.getUTCHours() === hour
      && d.getUTCMinutes() === minute && d.getUTCSeconds() === second) return ms;
  }
  throw new ValidationError([{ field, in: 'query', message: 'must be a valid ISO 8601 time in UTC, e.g. 2026-11-21T12:00:00Z' }]);
}
