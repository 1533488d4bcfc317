// Wall time of a step's consecutive parts: each lap(name) records the ms since the previous lap
// (or since creation) under `name`, adding to it when the name comes again.
export type Lap = (part: string) => void;

export function createLaps(into: Record<string, number>): Lap {
  let mark = performance.now();
  return (part) => {
    const now = performance.now();
    into[part] = (into[part] ?? 0) + Math.round(now - mark);
    mark = now;
  };
}
