import './style.css';
import { ApiClient } from './api.js';
import { setUpChart } from './chart.js';
import type { PageContext } from './context.js';
import { setUpConverter } from './converter.js';
import { byId } from './dom.js';
import { setUpKeyPanel, type KeyPanel } from './key-panel.js';
import { loadKey } from './key-store.js';
import { setUpLatest } from './latest.js';

/** The page at `/`: loads without a key; every panel asks the API with the key entered once. */
let key = loadKey();
let panel: KeyPanel | undefined;
const context: PageContext = {
  api: new ApiClient(
    () => key,
    (quota) => panel?.showQuota(quota),
  ),
  currencies: new Map(),
  newestDay: undefined,
};
panel = setUpKeyPanel(context, {
  get: () => key,
  set: (value) => {
    key = value;
  },
});
setUpConverter(context);
setUpChart(context);
setUpLatest(context);

if (key !== undefined) {
  byId('key-input', HTMLInputElement).value = key;
  void panel.check();
}
