/** The API key, kept in this browser's localStorage only: entered once, sent on every request. */
const STORAGE_KEY = 'currency-rates.api-key';

export function loadKey(): string | undefined {
  try {
    const key = localStorage.getItem(STORAGE_KEY)?.trim();
    return key ? key : undefined;
  } catch {
    // Storage may be off (a private window's policy): the page still works for this visit.
    return undefined;
  }
}

export function saveKey(key: string | undefined): void {
  try {
    if (key === undefined) localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, key);
  } catch {
    // As above: without storage the key lives only as long as the page.
  }
}
