// The explorer page's entry (bundled by src/explorer/bundleExplorer.ts): routes on the address's
// hash — #/ the token table, #/token/0x… a token, #/network the network token — mounting one
// view at a time (the previous one's timers stop), and the transaction lookup box.
import { mountNetworkView } from './networkView.ts';
import { paceFromMeta, setPace } from './pacedFetch.ts';
import { mountTokenTable } from './tokenTable.ts';
import { mountTokenView } from './tokenView.ts';
import { mountTxLookup } from './txLookup.ts';

const view = document.getElementById('view')!;
const networkToken = document.querySelector<HTMLMetaElement>('meta[name="explorer:network-token"]')?.content ?? '';
setPace(paceFromMeta(document.querySelector<HTMLMetaElement>('meta[name="explorer:rate-limit"]')?.content));
let unmount: (() => void) | undefined;

function route(): void {
  unmount?.();
  const [path = '/', query = ''] = location.hash.replace(/^#/, '').split('?');
  const params = new URLSearchParams(query);
  const token = /^\/token\/(0x[0-9a-fA-F]{40})$/.exec(path);
  view.dataset.view = token ? 'token' : path === '/network' ? 'network' : 'tokens';
  if (token) unmount = mountTokenView(view, token[1]!, params, networkToken);
  else if (path === '/network') unmount = mountNetworkView(view, networkToken);
  else unmount = mountTokenTable(view, params);
  if (token || path === '/network') window.scrollTo(0, 0);
}

mountTxLookup(document.getElementById('tx-form') as HTMLFormElement, document.getElementById('tx-result')!);
window.addEventListener('hashchange', route);
route();
