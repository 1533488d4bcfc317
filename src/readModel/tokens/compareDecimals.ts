/** Exact comparison of two decimal strings ("-12.5", "0.000001", "3"): negative, zero or positive. */
export function compareDecimals(a: string, b: string): number {
  if (a === b) return 0; // equal values are common (zero, dust): skip the parsing
  const negA = a.startsWith('-');
  const negB = b.startsWith('-');
  if (negA !== negB) return isZero(a) && isZero(b) ? 0 : negA ? -1 : 1;
  const magnitude = compareMagnitudes(negA ? a.slice(1) : a, negB ? b.slice(1) : b);
  return negA ? -magnitude : magnitude;
}

function isZero(value: string): boolean {
  return /^-?0*(\.0*)?$/.test(value);
}

function compareMagnitudes(a: string, b: string): number {
  const [intA = '', fracA = ''] = a.split('.');
  const [intB = '', fracB = ''] = b.split('.');
  const ia = intA.replace(/^0+/, '');
  const ib = intB.replace(/^0+/, '');
  if (ia.length !== ib.length) return ia.length - ib.length;
  if (ia !== ib) return ia < ib ? -1 : 1;
  const width = Math.max(fracA.length, fracB.length);
  const fa = fracA.padEnd(width, '0');
  const fb = fracB.padEnd(width, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}
