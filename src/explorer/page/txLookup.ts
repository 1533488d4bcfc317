// The transaction lookup box (on every view): POST /rpc through the typed JSON-RPC client, by
// hash (eth_getTransactionByHash) or by block and index (eth_getTransactionByBlockNumberAndIndex).
// One request per lookup. Errors show as the problem's title and detail (HTTP) or the JSON-RPC
// error's code and message.
import { problemOf, problemBox, rpc } from './api.ts';
import { h, replace } from './dom.ts';


/** A block number typed in decimal or hex, or a tag, as the method's hex quantity or tag. */
function blockParameter(text: string): string {
  const t = text.trim().toLowerCase();
  if (t === '' || t === 'latest') return 'latest';
  if (['earliest', 'finalized', 'safe', 'pending'].includes(t)) return t;
  if (/^0x[0-9a-f]+$/.test(t)) return `0x${BigInt(t).toString(16)}`;
  if (/^\d+$/.test(t)) return `0x${BigInt(t).toString(16)}`;
  return t; // the server names what is wrong with it
}

function indexParameter(text: string): string {
  const t = text.trim().toLowerCase();
  if (/^\d+$/.test(t)) return `0x${BigInt(t).toString(16)}`;
  return t === '' ? '0x0' : t;
}

export function mountTxLookup(form: HTMLFormElement, result: HTMLElement): void {
  const hash = form.querySelector<HTMLInputElement>('#tx-hash')!;
  const block = form.querySelector<HTMLInputElement>('#tx-block')!;
  const index = form.querySelector<HTMLInputElement>('#tx-index')!;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void lookUp();
  });

  async function lookUp(): Promise<void> {
    replace(result, h('p', { class: 'loading' }, 'Looking up…'));
    try {
      const answer = hash.value.trim()
        ? await rpc.getTransactionByHash(hash.value.trim())
        : await rpc.getTransactionByBlockNumberAndIndex(blockParameter(block.value), indexParameter(index.value));
      if (answer.error) throw problemOf(answer.error, answer.response);
      const tx = answer.data;
      if (!tx) {
        replace(result, h('p', { id: 'tx-none' }, 'No such transaction.'));
        return;
      }
      const fields: [string, string | null | undefined][] = [
        ['Hash', tx.hash],
        ['Block', tx.blockNumber === null ? 'pending' : `${BigInt(tx.blockNumber)} (${tx.blockHash})`],
        ['Index', tx.transactionIndex === null ? null : String(BigInt(tx.transactionIndex))],
        ['From', tx.from],
        ['To', tx.to ?? 'contract creation'],
        ['Value (wei)', BigInt(tx.value).toString()],
        ['Nonce', String(BigInt(tx.nonce))],
        ['Gas', String(BigInt(tx.gas))],
        ['Type', tx.type],
        ['Input', tx.input.length > 74 ? `${tx.input.slice(0, 74)}… (${(tx.input.length - 2) / 2} bytes)` : tx.input],
      ];
      replace(result, h('dl', { class: 'tx-fields', id: 'tx-fields', 'data-hash': tx.hash }, ...fields.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, h('code', {}, v ?? '—'))])));
    } catch (error) {
      replace(result, problemBox(error));
    }
  }
}
