import { ApiError, type Currency, type QuotaHeaders, type Usage } from './api.js';
import type { PageContext } from './context.js';
import { byId, onSubmit, say } from './dom.js';
import { saveKey } from './key-store.js';

/** The key form and the key's usage: the quota of GET /api/v1/usage, then of each answer's headers. */
export interface KeyPanel {
  /** Checks the key with GET /usage, then loads the currencies the fields suggest and the sources one may pick. */
  check(): Promise<void>;
  showQuota(quota: QuotaHeaders): void;
}

export function setUpKeyPanel(
  context: PageContext,
  key: { get(): string | undefined; set(value: string | undefined): void },
  loadSources: () => Promise<void>,
): KeyPanel {
  const form = byId('key-form', HTMLFormElement);
  const input = byId('key-input', HTMLInputElement);
  const forget = byId('key-forget', HTMLButtonElement);
  const usage = byId('usage', HTMLParagraphElement);

  const showQuota = (quota: QuotaHeaders) => {
    const until = new Date(quota.resetSeconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
    say(usage, `Used ${quota.limit - quota.remaining} of ${quota.limit} requests this period; ${quota.remaining} left until ${until} UTC.`);
  };

  const check = async () => {
    say(usage, 'Checking the key…', 'busy');
    try {
      const answer = await context.api.get<Usage>('usage');
      saveKey(key.get());
      showQuota({ limit: answer.limit, remaining: answer.remaining, resetSeconds: Date.parse(answer.period_end) / 1000 });
      const currencies = await context.api.get<Currency[]>('currencies');
      // The currency fields suggest from these from now on.
      context.currencies = new Map(currencies.map((currency) => [currency.code, currency]));
      document.body.dataset.currencies = String(currencies.length);
      await loadSources();
    } catch (error) {
      // A refused key is not kept: the next visit asks again rather than failing again.
      if (error instanceof ApiError && error.status === 401) {
        key.set(undefined);
        saveKey(undefined);
      }
      say(usage, error instanceof ApiError ? error.message : String(error), 'error');
    }
  };

  onSubmit(form, async () => {
    const value = input.value.trim();
    if (value === '') {
      say(usage, 'Enter a key: it starts with cr_.', 'error');
      input.focus();
      return;
    }
    key.set(value);
    await check();
  });
  forget.addEventListener('click', () => {
    key.set(undefined);
    saveKey(undefined);
    input.value = '';
    say(usage, 'The key is forgotten: this browser no longer holds it.');
  });
  return { check, showQuota };
}
