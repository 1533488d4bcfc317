// Whether a contract's runtime code can run another contract's code in its own context: a
// DELEGATECALL (0xf4) or CALLCODE (0xf2) opcode, read opcode by opcode so that bytes inside PUSH
// data are never taken for one. Code without either cannot act as a proxy whatever its storage
// holds, so its proxy slots need not be read. Every other byte counts (data after the code, such
// as Solidity's metadata, is read as opcodes too): a false "can" only costs the slot reads, a
// false "cannot" would hide a proxy, so the scan errs one way only. An EIP-7702 delegated account
// (code 0xef0100 ‖ address) runs its delegate's code, which the scan cannot see: it counts as "can".
const PUSH1 = 0x60;
const PUSH32 = 0x7f;
const CALLCODE = 0xf2;
const DELEGATECALL = 0xf4;

export function canDelegate(code: string): boolean {
  const hex = (code.startsWith('0x') ? code.slice(2) : code).toLowerCase();
  if (hex.startsWith('ef0100')) return true;
  const length = hex.length >> 1;
  for (let i = 0; i < length; i++) {
    const op = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    if (op === DELEGATECALL || op === CALLCODE) return true;
    if (op >= PUSH1 && op <= PUSH32) i += op - PUSH1 + 1;
  }
  return false;
}
