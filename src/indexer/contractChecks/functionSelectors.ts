// The 4-byte function selectors a contract's bytecode dispatches on: every PUSH4 immediate, read
// opcode by opcode so that bytes inside other PUSH data are never taken for one. Solidity and
// Vyper compare the call's selector against PUSH4 constants, so a function the contract exposes
// is among them (a selector pushed for another reason only ever adds a false "found").
const PUSH1 = 0x60;
const PUSH4 = 0x63;
const PUSH32 = 0x7f;

export function functionSelectors(code: string): Set<string> {
  const hex = code.startsWith('0x') ? code.slice(2) : code;
  const found = new Set<string>();
  const length = hex.length / 2;
  for (let i = 0; i < length; i++) {
    const op = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    if (op < PUSH1 || op > PUSH32) continue;
    const size = op - PUSH1 + 1;
    if (op === PUSH4 && i + 4 < length) found.add(`0x${hex.slice(i * 2 + 2, i * 2 + 10).toLowerCase()}`);
    i += size;
  }
  return found;
}
