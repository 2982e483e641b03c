import './style.css';
import { ApiClient } from './api.js';
import { setUpChart } from './chart.js';
import type { PageContext } from './context.js';
import { setUpConverter } from './converter.js';
import { setUpCurrencyField } from './currency-field.js';
import { byId } from './dom.js';
import { setUpKeyPanel, type KeyPanel } from './key-panel.js';
import { loadKey } from './key-store.js';
import { RatesApi } from './rates-api.js';
import { setUpLatest } from './latest.js';
import { setUpSourcePicker } from './source-picker.js';

/** The page at `/`: loads without a key; every panel asks the API with the key entered once. */
let key = loadKey();
let panel: KeyPanel | undefined;
const api = new ApiClient(
  () => key,
  (quota) => panel?.showQuota(quota),
);
const picker = setUpSourcePicker(api);
const context: PageContext = {
  api,
  rates: new RatesApi(api, () => picker.picked()),
  picked: () => picker.picked(),
  currencies: new Map(),
  newestDays: new Map(),
};
panel = setUpKeyPanel(
  context,
  {
    get: () => key,
    set: (value) => {
      key = value;
    },
  },
  () => picker.load(),
);
for (const id of ['convert-from', 'convert-to', 'chart-base', 'chart-symbol', 'latest-base']) {
  setUpCurrencyField(byId(id, HTMLInputElement), () => [...context.currencies.values()]);
}
setUpConverter(context);
setUpChart(context);
setUpLatest(context);

if (key !== undefined) {
  byId('key-input', HTMLInputElement).value = key;
  void panel.check();
}
