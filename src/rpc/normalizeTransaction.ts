// Makes an upstream transaction object match the OpenRPC encoding (lower-case hex, quantities
// without leading zeros) while keeping every field. Conforming input - what geth, besu, linea
// and hardhat send - is returned as the very same object, i.e. passed through untouched.

const quantityFields = [
  'blockNumber', 'blockTimestamp', 'transactionIndex', 'chainId', 'value', 'gas', 'gasPrice', 'maxFeePerGas',
  'maxPriorityFeePerGas', 'maxFeePerBlobGas', 'nonce', 'type', 'v', 'r', 's', 'yParity',
] as const;
const dataFields = ['blockHash', 'hash', 'input'] as const;
const authorizationQuantities = ['chainId', 'nonce', 'yParity', 'r', 's'] as const;

const canonicalQuantity = /^0x(0|[1-9a-f][0-9a-f]*)$/;
const anyQuantity = /^0x[0-9a-fA-F]+$/;
const lowerData = /^0x[0-9a-f]*$/;

export function normalizeTransaction(tx: unknown): unknown {
  if (typeof tx !== 'object' || tx === null || Array.isArray(tx)) return tx;
  const src = tx as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  const set = (key: string, value: unknown): void => {
    out ??= { ...src };
    out[key] = value;
  };
  for (const key of quantityFields) {
    const fixed = fixQuantity(src[key]);
    if (fixed !== undefined) set(key, fixed);
  }
  for (const key of dataFields) {
    const fixed = fixData(src[key]);
    if (fixed !== undefined) set(key, fixed);
  }
  const hashes = fixArray(src.blobVersionedHashes, fixData);
  if (hashes) set('blobVersionedHashes', hashes);
  const accessList = fixArray(src.accessList, (entry) => {
    if (typeof entry !== 'object' || entry === null) return undefined;
    const keys = fixArray((entry as { storageKeys?: unknown }).storageKeys, fixData);
    return keys ? { ...entry, storageKeys: keys } : undefined;
  });
  if (accessList) set('accessList', accessList);
  const auths = fixArray(src.authorizationList, (auth) => {
    if (typeof auth !== 'object' || auth === null) return undefined;
    let copy: Record<string, unknown> | undefined;
    for (const key of authorizationQuantities) {
      const fixed = fixQuantity((auth as Record<string, unknown>)[key]);
      if (fixed !== undefined) (copy ??= { ...auth })[key] = fixed;
    }
    return copy;
  });
  if (auths) set('authorizationList', auths);
  return out ?? src;
}

/** Returns the canonical form, or undefined when the value is already canonical or not hex. */
function fixQuantity(value: unknown): string | undefined {
  if (typeof value !== 'string' || canonicalQuantity.test(value) || !anyQuantity.test(value)) return undefined;
  return `0x${BigInt(value).toString(16)}`;
}

function fixData(value: unknown): string | undefined {
  if (typeof value !== 'string' || lowerData.test(value) || !/^0x[0-9a-fA-F]*$/.test(value)) return undefined;
  return value.toLowerCase();
}

// Applies fix to every element; returns a new array only if some element changed.
function fixArray(value: unknown, fix: (x: unknown) => unknown): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  let changed = false;
  const out = value.map((x) => {
    const fixed = fix(x);
    if (fixed === undefined) return x;
    changed = true;
    return fixed;
  });
  return changed ? out : undefined;
}
