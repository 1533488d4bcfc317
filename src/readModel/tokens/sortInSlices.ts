/**
 * The permutation that sorts items 0..n-1 by `compare` (which must be a total order: ties broken
 * by something unique, so any sort gives the same result), computed in slices of about
 * `sliceItems` items between which `pause` lets the event loop run: runs of `sliceItems` sorted
 * one at a time, then merged pairwise, each merge pass resumable after any output item. A sort of
 * hundreds of thousands of strings in one call held every request for a second or more.
 */
export async function sortInSlices(n: number, compare: (a: number, b: number) => number, pause: () => Promise<void>, sliceItems = 4096): Promise<Uint32Array> {
  let from = new Uint32Array(n);
  for (let i = 0; i < n; i++) from[i] = i;
  for (let lo = 0; lo < n; lo += sliceItems) {
    if (lo > 0) await pause();
    from.subarray(lo, Math.min(n, lo + sliceItems)).sort(compare);
  }
  let to = new Uint32Array(n);
  let sinceYield = 0;
  for (let width = sliceItems; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let i = lo;
      let j = mid;
      for (let k = lo; k < hi; k++) {
        if (i < mid && (j >= hi || compare(from[i]!, from[j]!) <= 0)) to[k] = from[i++]!;
        else to[k] = from[j++]!;
        if (++sinceYield >= sliceItems) {
          sinceYield = 0;
          await pause();
        }
      }
    }
    [from, to] = [to, from];
  }
  return from;
}
